import { readFileSync } from 'node:fs';
import { toPoints } from '@broker/domain/price-format';
import type { FastifyInstance } from 'fastify';
import type { TConfig } from '../config';
import type { TCallContext } from '../http/context';
import type { THandlers } from '../http/gateway';
import {
  createAlert,
  deleteAlert,
  deliverAlert,
  listAlerts,
  PriceAlertWatcher,
  rearmAlert,
  type TAlertsPorts,
  updateAlert,
} from '../modules/alerts';
import type { MarketService } from '../modules/market';
import { type TMailer, type TVapidKeys, WebPushSender } from '../modules/notify';
import { userActorOf } from './actors';
import { PUSH_WORKER_PATH, PUSH_WORKER_SOURCE } from './push-worker';

const alertsPorts = (ctx: TCallContext): TAlertsPorts => ({
  db: ctx.services.database.db,
  instrument: (tenantId, symbol) => {
    const spec = ctx.services.market.spec(symbol, tenantId);
    return spec?.enabled ? { digits: spec.digits } : undefined;
  },
  bid: (tenantId, symbol) => {
    const quote = ctx.services.market.quote(symbol, tenantId);
    return quote ? toPoints(quote.bid, quote.digits) : null;
  },
  watcher: ctx.services.alerts,
});

/** Handlers of the trader's price alerts (issue 21, docs/price-alerts.md). */
export const alertHandlers = {
  alertlist: (input, ctx) => listAlerts(alertsPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  alertcreate: (input, ctx) =>
    createAlert(alertsPorts(ctx), { ...input, actor: userActorOf(ctx), locale: ctx.locale }),
  alertupdate: (input, ctx) => updateAlert(alertsPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  alertdelete: (input, ctx) => deleteAlert(alertsPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  alertrearm: (input, ctx) => rearmAlert(alertsPorts(ctx), { ...input, actor: userActorOf(ctx) }),
} satisfies Partial<THandlers>;

/**
 * The alert parts of the composition: the Web Push sender and the watcher, whose deliveries reach
 * the terminals through the account stream once it exists (`start`).
 */
export function priceAlertParts(input: {
  config: TConfig;
  db: TCallContext['services']['database']['db'];
  market: MarketService;
  mailer: TMailer;
  vapid: TVapidKeys;
  log: FastifyInstance['log'];
  /** Every open terminal of the trader, on whichever instance (the cluster's fan-out). */
  toTerminals: (tenantId: string, userId: string, message: unknown) => void;
}) {
  const webPush = new WebPushSender(
    input.vapid,
    input.config.VAPID_SUBJECT,
    input.config.PUSH_CA_FILE ? readFileSync(input.config.PUSH_CA_FILE, 'utf8') : undefined,
    input.config.PUSH_SERVICE_HOSTS,
  );
  const alerts = new PriceAlertWatcher({
    db: input.db,
    market: input.market,
    log: input.log,
    deliver: (row, bid) =>
      deliverAlert(
        {
          db: input.db,
          mailer: input.mailer,
          push: webPush,
          log: input.log,
          toTerminals: input.toTerminals,
          terminalPath: (locale, symbol) => `/${locale}/trade?symbol=${encodeURIComponent(symbol)}`,
        },
        row,
        bid,
      ),
  });
  return {
    webPush,
    alerts,
    /** Serves the push service worker (the watcher runs on the engine leader: `alerts.start`). */
    registerWorker(app: FastifyInstance) {
      app.get(PUSH_WORKER_PATH, async (_request, reply) =>
        reply
          .type('text/javascript; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('service-worker-allowed', '/')
          .send(PUSH_WORKER_SOURCE),
      );
    },
    close() {
      webPush.close();
    },
  };
}

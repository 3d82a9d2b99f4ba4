import type { TAlertFired } from '@broker/contracts/account-stream';
import { fromPoints } from '@broker/domain/price-format';
import { userActor } from '../../actor';
import type { TDb } from '../../db/database';
import { serverTranslator } from '../../i18n';
import { loadSettings, userNames } from '../identity';
import { pushToUser, type TMailer, type WebPushSender } from '../notify';
import { presentAlert, type TAlertRow } from './terms';

export interface TAlertDeliveryPorts {
  db: TDb;
  mailer: TMailer;
  push: WebPushSender;
  /** Sends a message to every open terminal of the trader (the account stream). */
  toTerminals(tenantId: string, userId: string, message: { type: 'alert'; data: TAlertFired }): void;
  /** Where the terminal is, for the push message's link: `/{lang}/trade?symbol=...`. */
  terminalPath(locale: string, symbol: string): string;
  log: { warn(details: object, message: string): void; info?(details: object, message: string): void };
}

/** How long a push service keeps an undelivered alert for an offline browser: an hour. */
const PUSH_TTL_SECONDS = 3600;

/** The condition in words, in the trader's language: "bid at or above 1.10250". */
export function conditionText(t: ReturnType<typeof serverTranslator>, alert: TAlertFired): string {
  return t(`trade.alert.short.${alert.condition}`, {
    price: alert.triggerPrice,
    percent: alert.percent ?? '',
  });
}

/**
 * Tells the trader that an alert fired: at once to every open terminal, then by Web Push and by
 * email as their notification settings ask (both on unless switched off), in the language the alert
 * was made in. A failed channel is logged and does not stop the others.
 */
export async function deliverAlert(ports: TAlertDeliveryPorts, row: TAlertRow, bid: number): Promise<void> {
  const alert = presentAlert(row);
  const fired: TAlertFired = {
    id: alert.id,
    symbol: alert.symbol,
    condition: alert.condition,
    triggerPrice: alert.triggerPrice,
    percent: alert.percent,
    price: fromPoints(bid, row.digits),
    note: alert.note,
    repeats: !alert.oneShot,
    time: alert.firedAt ?? Date.now(),
  };
  ports.toTerminals(row.tenant_id, row.user_id, { type: 'alert', data: fired });

  const actor = userActor({ userId: row.user_id, tenantId: row.tenant_id });
  const [settings, contact] = await Promise.all([
    loadSettings({ db: ports.db }, { actor }),
    userNames(ports.db, { tenantId: row.tenant_id, ids: [row.user_id] }).then((m) => m.get(row.user_id)),
  ]);
  const t = serverTranslator(row.locale);
  const brand = t('brand.name');
  const condition = conditionText(t, fired);
  const subject = t('mail.alert.subject', { brand, symbol: fired.symbol, condition });
  const summary = t('mail.alert.summary', { symbol: fired.symbol, condition, price: fired.price });
  const note = fired.note ? t('mail.alert.note', { note: fired.note }) : '';

  const channels: Promise<unknown>[] = [];
  if (settings.notification.alertPush)
    channels.push(
      pushToUser(
        { db: ports.db, sender: ports.push, log: ports.log },
        {
          tenantId: row.tenant_id,
          userId: row.user_id,
          payload: JSON.stringify({
            kind: 'alert',
            title: subject,
            body: note ? `${summary}\n${note}` : summary,
            tag: `alert-${fired.id}`,
            url: ports.terminalPath(row.locale, fired.symbol),
            alert: fired,
          }),
          ttlSeconds: PUSH_TTL_SECONDS,
          topic: fired.id.replace(/-/g, '').slice(0, 32),
        },
      ),
    );
  if (settings.notification.alertEmail && contact?.email)
    channels.push(
      ports.mailer
        .send({
          to: contact.email,
          subject,
          text: [
            summary,
            note,
            t('mail.alert.time', { time: new Date(fired.time).toISOString().replace('T', ' ').slice(0, 19) }),
            t('mail.alert.manage', { brand }),
          ]
            .filter(Boolean)
            .join('\n\n'),
        })
        .catch((error: unknown) =>
          ports.log.warn({ err: error, alert: fired.id }, 'price alert mail not delivered'),
        ),
    );
  await Promise.all(channels);
}

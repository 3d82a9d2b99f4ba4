import {
  type TAdminStrategy,
  type TAdminStrategyFilter,
  WORKING_STRATEGY_STATES,
} from '@broker/contracts/admin/strategy-routes';
import type { TStrategy } from '@broker/contracts/strategy-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../../actor';
import { serverTranslator } from '../../../i18n';
import { searchUsers, userNames } from '../../identity';
import { brokerStrategiesPage, brokerStrategy, type TBrokerStrategy } from '../../trading';
import { stopStrategy, strategyDetail, strategyOf } from '../bots';
import type { TStrategyPorts } from '../ports';

/** How many matching customers a search looks at (the most recent first). */
const SEARCH_CUSTOMERS = 500;

/**
 * The staff member acting for the trader who owns a bot: the trader's own use cases (detail, stop)
 * then reach that trader's strategy accounts, and the audit trail names the staff member.
 */
const actingFor = (actor: TActor, userId: string): TActor => ({ ...actor, onBehalfOf: userId });

/** Bots with the customer each belongs to (one query for the page's customers). */
async function withCustomers(
  ports: TStrategyPorts,
  tenantId: string,
  bots: readonly { strategy: TStrategy; userId: string }[],
): Promise<TAdminStrategy[]> {
  const names = await userNames(ports.db, { tenantId, ids: bots.map((b) => b.userId) });
  return bots.map(({ strategy, userId }) => ({
    ...strategy,
    userId,
    customerName: names.get(userId)?.name ?? '',
    customerEmail: names.get(userId)?.email ?? null,
  }));
}

/** The broker's bot, or "not found" (another broker's bot is not found either). */
async function brokerBot(ports: TStrategyPorts, actor: TActor, strategyId: number): Promise<TBrokerStrategy> {
  const bot = await brokerStrategy(ports.db, { tenantId: actor.tenantId, strategyId });
  if (!bot) throw new AppError(AppErrorCode.STRATEGY_NOT_FOUND);
  return bot;
}

/**
 * adminstrategies: the broker's bots, newest first, by state (`working`: waiting, running, stopped
 * with positions open), symbol, kind and customer (name, e-mail or phone; or a bot, strategy account
 * or main account number), with the counts per state under the other filters.
 */
export async function adminStrategies(
  ports: TStrategyPorts,
  input: {
    actor: TActor;
    state: TAdminStrategyFilter;
    symbol?: string | undefined;
    kind?: 'grid' | 'martingale' | undefined;
    search?: string | undefined;
    page: number;
    size: number;
  },
) {
  const { tenantId } = input.actor;
  const text = input.search?.trim();
  const search = text
    ? {
        number: /^\d{1,12}$/.test(text) ? Number(text) : null,
        userIds: (
          await searchUsers(ports.db, {
            tenantId,
            text,
            orId: null,
            sort: 'created',
            direction: 'desc',
            page: 1,
            size: SEARCH_CUSTOMERS,
          })
        ).rows.map((r) => r.id),
      }
    : undefined;
  const page = await brokerStrategiesPage(ports.db, {
    tenantId,
    states:
      input.state === 'all' ? undefined : input.state === 'working' ? WORKING_STRATEGY_STATES : [input.state],
    symbol: input.symbol,
    kind: input.kind,
    search,
    page: input.page,
    size: input.size,
  });
  const bots = page.items.flatMap((row) => {
    const strategy = strategyOf(ports, row, row.strategyId);
    return strategy ? [{ strategy, userId: row.userId }] : [];
  });
  const { counts } = page;
  return {
    items: await withCustomers(ports, tenantId, bots),
    total: page.total,
    counts: {
      ...counts,
      working: WORKING_STRATEGY_STATES.reduce((sum, state) => sum + counts[state], 0),
      all: Object.values(counts).reduce((sum, n) => sum + n, 0),
    },
    symbols: page.symbols,
  };
}

/** adminstrategydetail: one of the broker's bots with its customer and its log, newest first. */
export async function adminStrategyDetail(
  ports: TStrategyPorts,
  input: { actor: TActor; strategy_id: number },
) {
  const bot = await brokerBot(ports, input.actor, input.strategy_id);
  const { strategy, log } = await strategyDetail(ports, {
    actor: actingFor(input.actor, bot.userId),
    strategy_id: input.strategy_id,
  });
  const [view] = await withCustomers(ports, input.actor.tenantId, [{ strategy, userId: bot.userId }]);
  return { strategy: view as TAdminStrategy, log };
}

/**
 * adminstrategystop: staff stop a customer's bot as the trader's own stop does (the engine's
 * `stop_strategy`: orders cancelled, positions closed with close reason 6 or kept; with nothing left
 * open the money goes back to the main account and the strategy account closes). The audit trail's
 * `strategy.stop` names the staff member, the trader acted for and the reason. A bot that is stopped
 * already (closed, or kept and asked to keep again) is refused: there is nothing to stop.
 */
export async function adminStopStrategy(
  ports: TStrategyPorts,
  input: {
    actor: TActor;
    strategy_id: number;
    closePositions: boolean;
    reason: string;
    idempotencyKey: string;
  },
) {
  const { actor } = input;
  const reason = input.reason.trim();
  if (!reason) throw AppError.invalid({ reason: 'required' });
  const bot = await brokerBot(ports, actor, input.strategy_id);
  const state = ports.host.core.strategy(input.strategy_id)?.strategy.state ?? bot.state;
  if (state === 'stopped_closed' || (state === 'stopped_open' && !input.closePositions))
    throw new AppError(AppErrorCode.STRATEGY_STOPPED);
  const stopped = await stopStrategy(ports, {
    actor: actingFor(actor, bot.userId),
    strategy_id: input.strategy_id,
    closePositions: input.closePositions,
    idempotencyKey: `staff:${actor.id}:${input.idempotencyKey}`,
    reason,
  });
  const [view] = await withCustomers(ports, actor.tenantId, [
    { strategy: stopped.strategy, userId: bot.userId },
  ]);
  await mailTrader(ports, view as TAdminStrategy, input.closePositions, reason);
  return { strategy: view as TAdminStrategy, returned: stopped.returned };
}

/**
 * Tells the trader that the broker stopped their bot, what became of its positions and the reason
 * given (in English: traders have no stored language yet). A mail that cannot be sent is logged; the
 * stop stands.
 */
async function mailTrader(ports: TStrategyPorts, bot: TAdminStrategy, closed: boolean, reason: string) {
  if (!ports.mailer || !bot.customerEmail) return;
  const t = serverTranslator('en');
  const brand = t('brand.name');
  try {
    await ports.mailer.send({
      to: bot.customerEmail,
      subject: t('mail.strategy.brokerStop.subject', { brand, id: bot.strategy_id }),
      text: t('mail.strategy.brokerStop.body', {
        kind: t(`strategy.kind.${bot.kind}`),
        id: bot.strategy_id,
        symbol: bot.symbol,
        outcome: t(closed ? 'mail.strategy.brokerStop.closed' : 'mail.strategy.brokerStop.kept'),
        reason,
      }),
    });
  } catch (error) {
    ports.log?.warn({ err: error }, 'strategy stop mail not delivered');
  }
}

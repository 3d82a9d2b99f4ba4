import type { TStrategy, TStrategySpecRequest } from '@broker/contracts/strategy-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { addPrice } from '@broker/domain/trading/engine/strategy/martingale';
import type { TGridParams, TMartingaleParams } from '@broker/domain/trading/engine/strategy/types';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TTradingErrorCode } from '@broker/domain/trading/errors';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import { transferFunds } from '../funding';
import {
  actorAccount,
  engineError,
  fromScaled,
  mainAccount,
  money,
  nextStrategyId,
  openSubAccount,
  storedStrategies,
  strategyLog,
  submitOrThrow,
  type TStoredStrategy,
  toScaled,
  traderOf,
} from '../trading';
import { requestSpec } from './params';
import type { TStrategyPorts } from './ports';
import { worstCase } from './worst-case';

/** strategypreview: the levels and the worst case of a bot's parameters; nothing starts. */
export function previewStrategy(
  ports: TStrategyPorts,
  input: { actor: TActor; account_id: number; investment: string; spec: TStrategySpecRequest },
) {
  const main = mainAccount(ports, input.actor, input.account_id);
  const investment = toScaled(input.investment, 2, 'investment', 'amountFormat');
  if (investment <= 0) throw AppError.invalid({ investment: 'amountFormat' });
  const digits = ports.host.digits(input.spec.params.symbol) ?? 5;
  const { levels, worst } = worstCase(ports, { main, investment, spec: input.spec });
  return { levels: levels.map((l) => fromScaled(l, digits)), worstCase: worst };
}

/** A bot as the trader sees it: from the engine while it lives, else as stored. */
export function strategyOf(
  ports: TStrategyPorts,
  stored: TStoredStrategy | undefined,
  strategyId: number,
): TStrategy | null {
  const live = ports.host.core.strategy(strategyId);
  const view = live?.strategy;
  const accountId = view?.accountId ?? stored?.accountId;
  if (accountId === undefined) return null;
  const account = ports.host.core.account(accountId);
  if (!account) return null;
  const kind = view?.kind ?? stored?.kind ?? 'grid';
  const params = (view?.params ?? stored?.params) as TGridParams | TMartingaleParams;
  const runtime = (view ?? stored?.runtime ?? {}) as {
    grid?: { levels: number[] } | null;
    martingale?: {
      firstPrice: number | null;
      rounds: number;
      adds: number;
      volume: number;
      cost: number;
      takeProfit: number | null;
    } | null;
    fees?: number;
    closedTrades?: number;
    startedAt?: number | null;
  };
  const digits = ports.host.digits(params.symbol) ?? 5;
  const round = runtime.martingale ?? null;
  const levels =
    runtime.grid?.levels ?? martingaleLevels(params as TMartingaleParams, round?.firstPrice ?? null);
  return {
    strategy_id: strategyId,
    account_id: accountId,
    parent_account_id: account.parentId ?? 0,
    kind,
    symbol: params.symbol,
    state: view?.state ?? stored?.state ?? 'stopped_closed',
    stopReason: view?.stopReason ?? stored?.stopReason ?? null,
    currency: account.currency,
    investment: money(-account.totalInAmount - account.totalOutAmount),
    equity: money(account.equity),
    realizedProfit: money(view?.realizedProfit ?? stored?.realizedProfit ?? 0),
    unrealizedProfit: money(live?.unrealizedProfit ?? 0),
    fees: money(runtime.fees ?? 0),
    closedTrades: runtime.closedTrades ?? 0,
    openPositions: live?.openPositions ?? 0,
    openOrders: live?.openOrders ?? 0,
    margin: money(account.margin),
    levels: levels.map((l) => fromScaled(l, digits)),
    round:
      kind === 'martingale' && round
        ? {
            number: round.rounds + 1,
            completed: round.rounds,
            adds: round.adds,
            // the average of the round's entries, rounded to the symbol's digits
            averagePrice: round.volume > 0 ? fromScaled(Math.round(round.cost / round.volume), digits) : null,
            takeProfit: round.takeProfit === null ? null : fromScaled(round.takeProfit, digits),
          }
        : null,
    params: requestSpec(ports, kind, params),
    createdAt: new Date(view?.createdAt ?? stored?.createdAt ?? 0).toISOString(),
    startedAt:
      (runtime.startedAt ?? null) === null ? null : new Date(runtime.startedAt as number).toISOString(),
  };
}

/** A martingale's open round: its first price, then the price of each add it may make (none between rounds). */
function martingaleLevels(params: TMartingaleParams, firstPrice: number | null): number[] {
  if (firstPrice === null) return [];
  return [
    firstPrice,
    ...Array.from({ length: params.maxAdds }, (_, k) => addPrice(params, firstPrice, k + 1)),
  ];
}

/** The trader's strategy accounts (open or closed). */
function strategyAccounts(ports: TStrategyPorts, actor: TActor): TAccountView[] {
  return ports.host
    .accountsOf(actor.tenantId, traderOf(actor))
    .map((id) => ports.host.core.account(id))
    .filter((v): v is TAccountView => v !== undefined && v.purpose === 'strategy');
}

/** strategylist: the trader's bots, newest first. */
export async function listStrategies(
  ports: TStrategyPorts,
  input: { actor: TActor; includeClosed: boolean },
) {
  const accounts = strategyAccounts(ports, input.actor).map((v) => v.accountId);
  const stored = await storedStrategies(ports.db, accounts);
  const ids = new Set(stored.map((s) => s.strategyId));
  for (const id of accounts)
    for (const live of ports.host.core.strategies(id)) ids.add(live.strategy.strategyId);
  const items: TStrategy[] = [];
  for (const id of [...ids].sort((a, b) => b - a)) {
    const view = strategyOf(
      ports,
      stored.find((s) => s.strategyId === id),
      id,
    );
    if (view && (input.includeClosed || view.state !== 'stopped_closed')) items.push(view);
  }
  return { items };
}

async function ownStrategy(ports: TStrategyPorts, actor: TActor, strategyId: number) {
  const live = ports.host.core.strategy(strategyId);
  const stored = (
    await storedStrategies(
      ports.db,
      live ? [live.strategy.accountId] : strategyAccounts(ports, actor).map((v) => v.accountId),
    )
  ).find((s) => s.strategyId === strategyId);
  const accountId = live?.strategy.accountId ?? stored?.accountId;
  if (accountId === undefined) throw new AppError(AppErrorCode.STRATEGY_NOT_FOUND);
  // another trader's bot is "not found", never "forbidden"
  try {
    actorAccount(ports, actor, accountId);
  } catch {
    throw new AppError(AppErrorCode.STRATEGY_NOT_FOUND);
  }
  const view = strategyOf(ports, stored, strategyId);
  if (!view) throw new AppError(AppErrorCode.STRATEGY_NOT_FOUND);
  return view;
}

/** The result code of an order the engine refused a bot (its engine error); null for an unknown one. */
function refusalCode(error: string): number | null {
  const code = engineError(error as TTradingErrorCode).code;
  return code === AppErrorCode.INTERNAL ? null : code;
}

/** strategydetail: one bot with its log, newest first. */
export async function strategyDetail(ports: TStrategyPorts, input: { actor: TActor; strategy_id: number }) {
  const strategy = await ownStrategy(ports, input.actor, input.strategy_id);
  const digits = ports.host.digits(strategy.symbol) ?? 5;
  const log = (await strategyLog(ports.db, input.strategy_id, 200)).map((row) => ({
    time: new Date(row.time).toISOString(),
    action: row.action,
    price: row.price === null ? null : fromScaled(row.price, digits),
    detail: row.reason,
    code: row.action === 'order_refused' && row.reason !== null ? refusalCode(row.reason) : null,
    level: row.level,
    volume: row.volume === null ? null : fromScaled(row.volume, 2),
    profit: row.profit === null ? null : money(row.profit),
  }));
  return { strategy, log };
}

function audit(ports: TStrategyPorts, actor: TActor, action: string, target: number, details: object) {
  return recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action,
    target: String(target),
    ip: actor.ip,
    details: { ...details, ...(actor.kind === 'user' ? {} : { onBehalfOf: actor.onBehalfOf }) },
  });
}

/**
 * strategycreate: the worst case first (refused, -5208, when the margin call would come inside the
 * bot's own range); then a strategy sub-account of the main account opened by the key, funded by
 * transfer_strategy_out, and the bot started on it. Every step is keyed by the request's key, so a
 * retry finishes what a first attempt left and doubles nothing; a start the engine refuses sends the
 * money back and closes the empty account.
 */
export async function createStrategy(
  ports: TStrategyPorts,
  input: {
    actor: TActor;
    account_id: number;
    investment: string;
    spec: TStrategySpecRequest;
    idempotencyKey: string;
  },
): Promise<TStrategy> {
  const { actor } = input;
  const main = mainAccount(ports, actor, input.account_id);
  const investment = toScaled(input.investment, 2, 'investment', 'amountFormat');
  if (investment <= 0) throw AppError.invalid({ investment: 'amountFormat' });
  const key = `strategy:${input.idempotencyKey}`;
  const made = ports.host.accountForKey(`sub:${actor.tenantId}:${traderOf(actor)}:${main.accountId}:${key}`);
  const existing = made === undefined ? undefined : ports.host.core.strategies(made)[0];
  if (existing) return (await ownStrategy(ports, actor, existing.strategy.strategyId)) as TStrategy;
  const { worst, engine } = worstCase(ports, { main, investment, spec: input.spec });
  if (worst.breachesMarginRules) throw new AppError(AppErrorCode.STRATEGY_WORST_CASE);
  const sub = await openSubAccount(ports, {
    actor,
    accountId: main.accountId,
    purpose: 'strategy',
    idempotencyKey: key,
  });
  try {
    await transferFunds(ports, {
      actor,
      type: 'transfer_strategy_out',
      account_id: main.accountId,
      sub_account_id: sub.accountId,
      amount: input.investment,
      idempotencyKey: `${key}:fund`,
    });
  } catch (error) {
    // not funded (not enough free margin): the empty strategy account is closed, not left counting
    if ((ports.host.core.account(sub.accountId)?.balance ?? 0) === 0)
      await submitOrThrow(ports.host, {
        type: 'close_account',
        clientKey: `${key}:unfunded`,
        time: Date.now(),
        accountId: sub.accountId,
      }).catch(() => undefined);
    throw error;
  }
  const strategyId = await nextStrategyId(ports.db);
  try {
    await submitOrThrow(ports.host, {
      type: 'start_strategy',
      clientKey: key,
      time: Date.now(),
      accountId: sub.accountId,
      strategyId,
      ...engine,
    } as never);
  } catch (error) {
    const left = ports.host.core.account(sub.accountId)?.balance ?? 0;
    if (left > 0)
      await transferFunds(ports, {
        actor,
        type: 'transfer_strategy_in',
        account_id: main.accountId,
        sub_account_id: sub.accountId,
        amount: money(left),
        idempotencyKey: `${key}:refund`,
      });
    await submitOrThrow(ports.host, {
      type: 'close_account',
      clientKey: `${key}:close`,
      time: Date.now(),
      accountId: sub.accountId,
    }).catch(() => undefined);
    throw error;
  }
  await audit(ports, actor, 'strategy.create', sub.accountId, {
    strategyId,
    kind: input.spec.kind,
    symbol: input.spec.params.symbol,
    investment,
    worstCase: worst,
  });
  return ownStrategy(ports, actor, strategyId);
}

/**
 * strategystop: the trader stops a bot (its orders cancelled, its positions closed with reason 6, or
 * kept: "stopped with position open"). With nothing left open, the money goes back to the main
 * account (transfer_strategy_in) and the empty strategy account is closed. Staff stop a customer's
 * bot through here too, acting for the trader, with their reason in the audit trail.
 */
export async function stopStrategy(
  ports: TStrategyPorts,
  input: {
    actor: TActor;
    strategy_id: number;
    closePositions: boolean;
    idempotencyKey: string;
    reason?: string | undefined;
  },
) {
  const { actor } = input;
  const before = await ownStrategy(ports, actor, input.strategy_id);
  const key = `strategystop:${input.idempotencyKey}`;
  if (before.state !== 'stopped_closed' && !(before.state === 'stopped_open' && !input.closePositions)) {
    await submitOrThrow(ports.host, {
      type: 'stop_strategy',
      clientKey: key,
      time: Date.now(),
      accountId: before.account_id,
      strategyId: input.strategy_id,
      closePositions: input.closePositions,
      by: actor.kind === 'staff' ? 'broker' : 'client',
    });
    await audit(ports, actor, 'strategy.stop', before.account_id, {
      strategyId: input.strategy_id,
      closePositions: input.closePositions,
      ...(input.reason === undefined ? {} : { reason: input.reason }),
    });
  }
  let returned = 0;
  const account = ports.host.core.account(before.account_id);
  if (
    account &&
    !account.closed &&
    ports.host.core.positionsOf(account.accountId).length === 0 &&
    ports.host.core.ordersOf(account.accountId).length === 0
  ) {
    if (account.balance > 0) {
      await transferFunds(ports, {
        actor,
        type: 'transfer_strategy_in',
        account_id: account.parentId ?? 0,
        sub_account_id: account.accountId,
        amount: money(account.balance),
        idempotencyKey: `${key}:return`,
      });
      returned = account.balance;
    }
    if ((ports.host.core.account(account.accountId)?.balance ?? 0) === 0)
      await submitOrThrow(ports.host, {
        type: 'close_account',
        clientKey: `${key}:close`,
        time: Date.now(),
        accountId: account.accountId,
      });
  }
  await ports.host.idle();
  return { strategy: await ownStrategy(ports, actor, input.strategy_id), returned: money(returned) };
}

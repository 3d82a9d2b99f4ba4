import type { TRouteOutput } from '@broker/contracts/routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { DEMO_INITIAL_BALANCE_MINOR, type TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';
import { actorAccount, traderOf } from './account-access';
import { ACCOUNT_LIMITS, DEFAULT_LEVERAGE, LEVERAGES } from './open-account';
import type { TRouteInput, TTradingPorts } from './ports';
import { ERROR_CODES } from './results';
import { currencySymbol, fromScaled, lotsToUnits, money } from './units';
import { accountEntry, accountInfoView, digitsOf, orderView, positionView } from './views';

/** The trader's open accounts, each of them reachable by the actor. */
function openAccountsOf(ports: TTradingPorts, actor: TActor): TAccountView[] {
  return ports.host
    .accountsOf(actor.tenantId, traderOf(actor))
    .map((id) => ports.host.core.account(id))
    .filter((v): v is TAccountView => v !== undefined && !v.closed && v.parentId === null);
}

/** Accounts of the trader: the demo (first type-1 account) first, then by creation. */
export function listAccounts(ports: TTradingPorts, { actor }: { actor: TActor }) {
  return openAccountsOf(ports, actor)
    .sort((a, b) => Number(a.accountType !== 1) - Number(b.accountType !== 1) || a.accountId - b.accountId)
    .map((v) => accountEntry(ports.host, v));
}

/** The account types a trader can open, with what is left of each type's limit per trade type. */
export function accountCategories(
  ports: TTradingPorts,
  { actor }: { actor: TActor },
): TRouteOutput<'accountcategory'> {
  const mine = openAccountsOf(ports, actor);
  const remaining = (type: 1 | 2 | 3) =>
    Object.fromEntries(
      [1, 2].map((tradeType) => {
        const held = mine.filter(
          (a) => a.accountType === type && (type !== 3 || a.tradeType === tradeType),
        ).length;
        return [String(tradeType), Math.max(0, ACCOUNT_LIMITS[type] - held)];
      }),
    );
  return [
    { type: 1 as const, currency: 'USD', initial: DEMO_INITIAL_BALANCE_MINOR },
    { type: 2 as const, currency: 'USD', initial: 0 },
    { type: 3 as const, currency: 'USC', initial: 0 },
  ].map((c) => ({
    account_type: c.type,
    trade_types: [1, 2],
    currency: c.currency,
    currency_symbol: currencySymbol(c.currency),
    initial_balance: money(c.initial),
    leverages: [...LEVERAGES],
    default_leverage: DEFAULT_LEVERAGE,
    remaining: remaining(c.type),
  }));
}

/** An account's figures (spec 5). */
export function accountInfo(
  ports: TTradingPorts,
  { actor, accountId }: { actor: TActor; accountId: number },
) {
  return accountInfoView(actorAccount(ports, actor, accountId));
}

/** An account's open positions with live profit. */
export function openPositions(
  ports: TTradingPorts,
  { actor, accountId }: { actor: TActor; accountId: number },
) {
  actorAccount(ports, actor, accountId);
  return ports.host.core.positionsOf(accountId).map((p) => positionView(ports.host, p));
}

/** An account's pending orders. */
export function pendingOrders(
  ports: TTradingPorts,
  { actor, accountId }: { actor: TActor; accountId: number },
) {
  actorAccount(ports, actor, accountId);
  return ports.host.core.ordersOf(accountId).map((o) => orderView(ports.host, o));
}

/** The margin and commission an order would take, before it is sent. */
export function marginPreview(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'ordermargin'> & { actor: TActor },
) {
  const view = actorAccount(ports, actor, input.account_id);
  const symbol = input.symbol.toUpperCase();
  const digits = digitsOf(ports.host, symbol);
  const preview = ports.host.core.previewOpen(view.accountId, symbol, input.side, lotsToUnits(input.volume));
  if ('error' in preview) throw new AppError(ERROR_CODES[preview.error] ?? AppErrorCode.INTERNAL);
  return {
    margin: money(preview.margin),
    commission: money(preview.commission),
    usable_margin: money(view.usableMargin),
    currency: view.currency,
    price: fromScaled(preview.price, digits),
  };
}

import type { TRouteOutput } from '@broker/contracts/routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { levelText } from '@broker/domain/trading/calculations';
import type {
  TAccountView,
  TApplyResult,
  TOrderView,
  TPositionView,
} from '@broker/domain/trading/engine-core';
import type { EngineHost } from './engine-host';
import { currencySymbol, fromScaled, money, toScaled, unitsToLots } from './units';

/** A symbol's price digits; a symbol the engine does not trade is "symbol disabled". */
export function digitsOf(host: EngineHost, symbol: string): number {
  const digits = host.digits(symbol);
  if (digits === undefined) throw new AppError(AppErrorCode.SYMBOL_DISABLED);
  return digits;
}

/** A decimal price text in the symbol's points; empty means none. */
export function priceOf(
  host: EngineHost,
  symbol: string,
  text: string | null | undefined,
  field: string,
): number | null {
  if (text === null || text === undefined || text === '') return null;
  return toScaled(text, digitsOf(host, symbol), field);
}

/** An account as the account list shows it. */
export function accountEntry(host: EngineHost, view: TAccountView) {
  const owner = host.ownerOf(view.accountId);
  return {
    account_id: view.accountId,
    account_type: view.accountType,
    trade_type: view.tradeType,
    is_abnormal: 0,
    equity: money(view.totalEquity),
    balance: money(view.balance),
    currency: view.currency,
    currency_symbol: currencySymbol(view.currency),
    leverage: view.leverage,
    created_at: owner?.createdAt ?? new Date(0).toISOString(),
  };
}

/** An account's figures as `info` answers them. */
export function accountInfoView(view: TAccountView): TRouteOutput<'info'> {
  return {
    account_id: view.accountId,
    account_type: view.accountType,
    trade_type: view.tradeType,
    currency: view.currency,
    currency_symbol: currencySymbol(view.currency),
    leverage: view.leverage,
    balance: money(view.balance),
    equity: money(view.equity),
    total_equity: money(view.totalEquity),
    freeMargin: money(view.usableMargin),
    margin: money(view.margin),
    profit: money(view.accountProfit),
    floating_profit: money(view.totalProfit),
    init_money: money(view.initMoney),
    total_in_amount: money(view.totalInAmount),
    total_out_amount: money(view.totalOutAmount),
    follow_equity: money(view.followEquity),
    strategy_equity: money(view.strategyEquity),
    // Spec 5: non-MT accounts answer the ratio total equity / total margin (20.4471, not 2044.71),
    // and the margin-call and stop-out levels in the same form.
    margin_level: levelText(view.marginLevelBp, view.accountType),
    margin_call_level: levelText(view.marginCallBp, view.accountType),
    stop_out_level: levelText(view.stopOutBp, view.accountType),
    margin_call: view.marginCall,
    restrictions: {
      noOpen: view.restrictions.noOpen,
      noClose: view.restrictions.noClose,
      noTakeProfit: view.restrictions.noTakeProfit,
      noStopLoss: view.restrictions.noStopLoss,
      noWithdraw: view.restrictions.noWithdrawal,
    },
    is_abnormal: 0,
  };
}

/** A position as the trading calls show it (prices and money as decimal strings). */
export function positionView(host: EngineHost, p: TPositionView): TRouteOutput<'positions'>[number] {
  const digits = digitsOf(host, p.symbol);
  const quote = host.core.quote(p.symbol);
  const current = quote ? (p.side === 'buy' ? quote.bid : quote.ask) : p.openPrice;
  const px = (v: number | null) => (v === null ? null : fromScaled(v, digits));
  return {
    order_id: p.positionId,
    account_id: p.accountId,
    symbol: p.symbol,
    side: p.side,
    volume: unitsToLots(p.volume),
    open_price: fromScaled(p.openPrice, digits),
    current_price: fromScaled(current, digits),
    open_time: p.openTime,
    take_profit: px(p.takeProfit),
    stop_loss: px(p.stopLoss),
    trailing_stop: p.trailingStop,
    margin: money(p.margin),
    swap: money(p.swap),
    commission: money(p.commission),
    profit: money(p.profit),
    digits,
    strategy_id: p.strategyId,
  };
}

/** A pending order as the trading calls show it. */
export function orderView(host: EngineHost, o: TOrderView): TRouteOutput<'pendingorders'>[number] {
  const digits = digitsOf(host, o.symbol);
  const px = (v: number | null) => (v === null ? null : fromScaled(v, digits));
  return {
    order_id: o.orderId,
    account_id: o.accountId,
    symbol: o.symbol,
    type: o.type,
    volume: unitsToLots(o.volume),
    price: fromScaled(o.price, digits),
    limit_price: px(o.limitPrice),
    activated: o.activated,
    take_profit: px(o.takeProfit),
    stop_loss: px(o.stopLoss),
    time: o.time,
    digits,
    strategy_id: o.strategyId,
  };
}

/** How many positions a close closed and their profit. */
export function closedSummary(result: TApplyResult, accountId: number) {
  if (!result.ok) return { closed: 0, profit: money(0) };
  let closed = 0;
  let profit = 0;
  // a leader's close also closes its followers' copies in the same step: those are theirs
  for (const event of result.events)
    if (event.type === 'position_closed' && event.accountId === accountId) {
      closed++;
      profit += event.profit;
    }
  return { closed, profit: money(profit) };
}

/**
 * An account's figures, positions and pending orders exactly as `info`, `positions` and
 * `pendingorders` answer them (the account stream's snapshot); undefined for an unknown account.
 * The caller checks the owner.
 */
export function accountSnapshot(host: EngineHost, accountId: number) {
  const view = host.core.account(accountId);
  if (!view) return undefined;
  return {
    info: accountInfoView(view),
    positions: host.core.positionsOf(accountId).map((p) => positionView(host, p)),
    orders: host.core.ordersOf(accountId).map((o) => orderView(host, o)),
  };
}

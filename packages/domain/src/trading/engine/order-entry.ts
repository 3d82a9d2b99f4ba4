/**
 * Order entry: validation and execution of the trader's order commands (open at market, place, modify
 * and cancel a pending order, modify and close positions) and the order ticket's preview.
 */

import { usableMargin } from '../calculations';
import type { TTradingErrorCode } from '../errors';
import { tierLeverage } from '../instrument-terms';
import { commissionMinor, convert, marginMinor, profitMinor } from '../money';
import {
  CLIENT_CLOSE_REASONS,
  CloseReason,
  checkRestriction,
  entryPrice,
  minDistance,
  PENDING_TYPES,
  sideOfPending,
  type TCloseReason,
  type TSide,
  validateClosing,
  validateOpening,
  validatePendingPrice,
  validateStops,
  validateTrailing,
  validateVolume,
} from '../orders';
import { MarginState, marginState } from '../trigger-book';
import type {
  TCancelOrderCommand,
  TCloseAllCommand,
  TClosePositionCommand,
  TModifyOrderCommand,
  TModifyPositionCommand,
  TOpenMarketCommand,
  TOutcome,
  TPlacePendingCommand,
} from './commands';
import { converterFor, stateFor } from './market';
import {
  addOrderTrigger,
  addPositionTriggers,
  closePosition,
  openPosition,
  removeOrder,
  removeOrderTrigger,
  removePositionTriggers,
} from './positions';
import { type Account, type EngineState, emit, type Order, type Position, type SymbolState } from './state';
import { managedByBot, strategyCloseReason } from './strategy/guards';
import { figuresOf, marginOf, orderView, riskEquity } from './views';

function symbolFor(st: EngineState, account: Account, symbol: string): SymbolState | TTradingErrorCode {
  return stateFor(st, account, symbol) ?? 'SYMBOL_UNKNOWN';
}

/** Whether the restrictions let the trader set or move these take-profit and stop-loss levels. */
function stopsAllowed(
  account: Account,
  takeProfit: number | null,
  stopLoss: number | null,
  before: { takeProfit: number | null; stopLoss: number | null } | null,
): TTradingErrorCode | null {
  // a restriction forbids setting or moving the level; removing it stays possible
  if (takeProfit !== null && takeProfit !== before?.takeProfit) {
    const denied = checkRestriction(account.restrictions, 'take_profit');
    if (denied) return denied;
  }
  if (stopLoss !== null && stopLoss !== before?.stopLoss) {
    const denied = checkRestriction(account.restrictions, 'stop_loss');
    if (denied) return denied;
  }
  return null;
}

/**
 * Whether the trailing distance is valid for the symbol and the restrictions let the trader set or
 * change it (a trailing stop moves the stop-loss: `noStopLoss` forbids it; removing stays possible).
 */
function trailingAllowed(
  account: Account,
  sym: SymbolState,
  trailing: number,
  before: number,
): TTradingErrorCode | null {
  const invalid = validateTrailing(sym.terms, trailing);
  if (invalid) return invalid;
  return trailing > 0 && trailing !== before ? checkRestriction(account.restrictions, 'stop_loss') : null;
}

/** Opens a position at the current quote (ask for a buy, bid for a sell); returns its ticket. */
export function openMarket(st: EngineState, account: Account, c: TOpenMarketCommand): TOutcome<number> {
  const sym = symbolFor(st, account, c.symbol);
  if (typeof sym === 'string') return sym;
  const takeProfit = c.takeProfit ?? null;
  const stopLoss = c.stopLoss ?? null;
  const trailing = c.trailingStop ?? 0;
  const error =
    checkRestriction(account.restrictions, 'open') ??
    validateOpening(sym.terms, c.side, st.now) ??
    validateVolume(sym.terms, c.volume) ??
    stopsAllowed(account, takeProfit, stopLoss, null) ??
    trailingAllowed(account, sym, trailing, 0);
  if (error) return error;
  if (!sym.hasQuote) return 'NO_PRICE';
  const stopsError = validateStops({
    side: c.side,
    reference: c.side === 'buy' ? sym.bid : sym.ask,
    takeProfit,
    stopLoss,
    distance: minDistance(sym.terms),
  });
  if (stopsError) return stopsError;
  const price = c.side === 'buy' ? sym.ask : sym.bid;
  const costs = openingCosts(st, account, sym, c.side, c.volume, price);
  if (typeof costs === 'string') return costs;
  const marginError = marginAllows(st, account, costs);
  if (marginError) return marginError;
  const ticket = st.nextTicket++;
  openPosition(
    st,
    account,
    sym,
    ticket,
    c.side,
    c.volume,
    price,
    takeProfit,
    stopLoss,
    costs,
    null,
    null,
    null,
    trailing,
  );
  return ticket;
}

/** Margin, commission and the floating profit at open (the spread), all in account currency. */
export function openingCosts(
  st: EngineState,
  account: Account,
  sym: SymbolState,
  side: TSide,
  volume: number,
  price: number,
): { margin: number; commission: number; profit: number } | TTradingErrorCode {
  const terms = sym.terms;
  const marginConv = converterFor(st, terms.marginInQuote ? terms.quote : terms.base, account.currency);
  const profitConv = converterFor(st, terms.profitCurrency, account.currency);
  const commissionConv =
    terms.commissionPerLotMinor > 0 ? converterFor(st, terms.commissionCurrency, account.currency) : null;
  if (marginConv?.rates === undefined || profitConv?.rates === undefined) return 'NO_PRICE';
  if (commissionConv !== null && commissionConv?.rates === undefined) return 'NO_PRICE';
  // The symbol's cap, lowered for large positions by its leverage tiers.
  const leverage = Math.min(account.leverage, tierLeverage(terms, volume));
  const margin = marginMinor({
    volume,
    contractSize: terms.contractSize,
    digits: terms.digits,
    price,
    marginInQuote: terms.marginInQuote,
    leverage,
    conversion: marginConv.rates,
  });
  const commission = commissionConv?.rates
    ? convert(commissionMinor(volume, terms.commissionPerLotMinor), commissionConv.rates)
    : 0;
  const diff = side === 'buy' ? sym.bid - price : price - sym.ask;
  const profit = profitMinor(diff, volume, terms.point, profitConv.rates);
  return { margin: Math.max(margin, 1), commission, profit };
}

/**
 * New exposure needs: no margin call in force; usable margin (spec 5, by trade type) covering the
 * margin plus the commission; and the margin level after the trade still at or above the margin-call
 * level.
 */
export function marginAllows(
  st: EngineState,
  account: Account,
  costs: { margin: number; commission: number; profit: number },
): TTradingErrorCode | null {
  if (st.risk.inCall[account.slot] === 1) return 'MARGIN_LEVEL_TOO_LOW';
  const figures = figuresOf(st, account);
  if (usableMargin(figures) - costs.commission < costs.margin) return 'INSUFFICIENT_MARGIN';
  const equityAfter = riskEquity(st, account) - costs.commission + costs.profit;
  const after = marginState(
    equityAfter,
    marginOf(st, account) + costs.margin,
    account.marginCallBp,
    account.stopOutBp,
  );
  return after === MarginState.OK ? null : 'MARGIN_LEVEL_TOO_LOW';
}

/** Places a pending order after checking its price and stops against the current quote. */
export function placePending(st: EngineState, account: Account, c: TPlacePendingCommand): TOutcome<number> {
  const sym = symbolFor(st, account, c.symbol);
  if (typeof sym === 'string') return sym;
  if (!PENDING_TYPES.includes(c.orderType)) return 'INVALID_PRICE';
  const side = sideOfPending(c.orderType);
  const takeProfit = c.takeProfit ?? null;
  const stopLoss = c.stopLoss ?? null;
  const limitPrice = c.limitPrice ?? null;
  const error =
    checkRestriction(account.restrictions, 'open') ??
    validateOpening(sym.terms, side, st.now) ??
    validateVolume(sym.terms, c.volume) ??
    stopsAllowed(account, takeProfit, stopLoss, null);
  if (error) return error;
  if (!sym.hasQuote) return 'NO_PRICE';
  if (st.risk.inCall[account.slot] === 1) return 'MARGIN_LEVEL_TOO_LOW';
  const distance = minDistance(sym.terms);
  const priceError =
    validatePendingPrice({
      type: c.orderType,
      price: c.price,
      limitPrice,
      bid: sym.bid,
      ask: sym.ask,
      distance,
    }) ??
    validateStops({
      side,
      reference: entryPrice(c.orderType, c.price, limitPrice),
      takeProfit,
      stopLoss,
      distance,
    });
  if (priceError) return priceError;
  const order: Order = {
    ticket: st.nextTicket++,
    account,
    sym,
    type: c.orderType,
    volume: c.volume,
    price: c.price,
    limitPrice,
    activated: false,
    takeProfit,
    stopLoss,
    time: st.now,
    strategyId: null,
  };
  st.orders.set(order.ticket, order);
  account.orders.add(order);
  addOrderTrigger(order);
  emit(st, { type: 'order_placed', order: orderView(order), time: st.now });
  return order.ticket;
}

/** The account's open position, or why there is none (never opened, or closed already). */
function ownedPosition(st: EngineState, account: Account, positionId: number): Position | TTradingErrorCode {
  const position = st.positions.get(positionId);
  if (position !== undefined) return position.account === account ? position : 'POSITION_NOT_FOUND';
  return Number.isSafeInteger(positionId) && positionId > 0 && positionId < st.nextTicket
    ? 'POSITION_ALREADY_CLOSED'
    : 'POSITION_NOT_FOUND';
}

function ownedOrder(st: EngineState, account: Account, orderId: number): Order | TTradingErrorCode {
  const order = st.orders.get(orderId);
  if (order !== undefined) return order.account === account ? order : 'ORDER_NOT_FOUND';
  return Number.isSafeInteger(orderId) && orderId > 0 && orderId < st.nextTicket
    ? 'ORDER_ALREADY_CLOSED'
    : 'ORDER_NOT_FOUND';
}

/** Moves or removes a position's take-profit, stop-loss and trailing stop. */
export function modifyPosition(st: EngineState, account: Account, c: TModifyPositionCommand): TOutcome<null> {
  const position = ownedPosition(st, account, c.positionId);
  if (typeof position === 'string') return position;
  const sym = position.sym;
  const trailing = c.trailingStop === undefined ? position.trailing : (c.trailingStop ?? 0);
  const error =
    managedByBot(position) ??
    validateClosing(sym.terms, st.now) ??
    stopsAllowed(account, c.takeProfit, c.stopLoss, position) ??
    trailingAllowed(account, sym, trailing, position.trailing);
  if (error) return error;
  const stopsError = validateStops({
    side: position.side,
    reference: position.side === 'buy' ? sym.bid : sym.ask,
    takeProfit: c.takeProfit,
    stopLoss: c.stopLoss,
    distance: minDistance(sym.terms),
  });
  if (stopsError) return stopsError;
  removePositionTriggers(position);
  position.takeProfit = c.takeProfit;
  position.stopLoss = c.stopLoss;
  position.trailing = trailing;
  addPositionTriggers(position);
  emit(st, {
    type: 'position_modified',
    positionId: position.ticket,
    accountId: account.id,
    takeProfit: c.takeProfit,
    stopLoss: c.stopLoss,
    trailingStop: trailing > 0 ? trailing : null,
    time: st.now,
  });
  return null;
}

/** Moves a pending order's price, limit price, take-profit and stop-loss. */
export function modifyOrder(st: EngineState, account: Account, c: TModifyOrderCommand): TOutcome<null> {
  const order = ownedOrder(st, account, c.orderId);
  if (typeof order === 'string') return order;
  const sym = order.sym;
  const limitPrice = c.limitPrice ?? null;
  const error =
    managedByBot(order) ??
    validateClosing(sym.terms, st.now) ??
    stopsAllowed(account, c.takeProfit, c.stopLoss, order);
  if (error) return error;
  const distance = minDistance(sym.terms);
  // an activated stop-limit is a limit order now: only its limit price can move
  const priceError = order.activated
    ? c.price !== order.price
      ? 'INVALID_PRICE'
      : validatePendingPrice({
          type: order.type === 'buy_stop_limit' ? 'buy_limit' : 'sell_limit',
          price: limitPrice ?? 0,
          limitPrice: null,
          bid: sym.bid,
          ask: sym.ask,
          distance,
        })
    : validatePendingPrice({
        type: order.type,
        price: c.price,
        limitPrice,
        bid: sym.bid,
        ask: sym.ask,
        distance,
      });
  const stopsError =
    priceError ??
    validateStops({
      side: sideOfPending(order.type),
      reference: entryPrice(order.type, c.price, limitPrice),
      takeProfit: c.takeProfit,
      stopLoss: c.stopLoss,
      distance,
    });
  if (stopsError) return stopsError;
  removeOrderTrigger(order);
  order.price = c.price;
  order.limitPrice = limitPrice;
  order.takeProfit = c.takeProfit;
  order.stopLoss = c.stopLoss;
  addOrderTrigger(order);
  emit(st, { type: 'order_modified', order: orderView(order), time: st.now });
  return null;
}

export function cancelOrder(st: EngineState, account: Account, c: TCancelOrderCommand): TOutcome<null> {
  const order = ownedOrder(st, account, c.orderId);
  if (typeof order === 'string') return order;
  const managed = managedByBot(order);
  if (managed) return managed;
  removeOrder(st, order, 'client');
  return null;
}

/** The reason a client may give for a close (manual when none), or null when it may not. */
function closeReason(reason: TCloseReason | undefined): TCloseReason | null {
  const r = reason ?? CloseReason.MANUAL;
  return CLIENT_CLOSE_REASONS.includes(r) ? r : null;
}

/** Closes a position, whole or in part, at the current quote. */
export function closeCommand(st: EngineState, account: Account, c: TClosePositionCommand): TOutcome<null> {
  const position = ownedPosition(st, account, c.positionId);
  if (typeof position === 'string') return position;
  const given = closeReason(c.reason);
  if (given === null) return 'INVALID_CLOSE_REASON';
  const managed = managedByBot(position, given);
  if (managed) return managed;
  const reason = strategyCloseReason(position, given);
  const volume = c.volume ?? position.volume;
  // The no-close restriction binds the trader; the broker's own close (2, the dealer) is not held.
  const restricted =
    reason === CloseReason.AUTOMATIC ? null : checkRestriction(account.restrictions, 'close');
  const error = restricted ?? validateClosing(position.sym.terms, st.now);
  if (error) return error;
  const terms = position.sym.terms;
  if (volume !== position.volume) {
    // a partial close is a valid volume that leaves a valid volume open
    if (validateVolume(terms, volume) || volume > position.volume) return 'INVALID_VOLUME';
    const rest = position.volume - volume;
    if (rest < terms.minVolume || (rest - terms.minVolume) % terms.volumeStep !== 0) return 'INVALID_VOLUME';
  }
  if (!position.sym.hasQuote || position.bucket.converter.rates === undefined) return 'NO_PRICE';
  closePosition(st, position, volume, reason);
  return null;
}

/** Closes every position of the account (or of one symbol), in ticket order. */
export function closeAll(st: EngineState, account: Account, c: TCloseAllCommand): TOutcome<null> {
  const reason = closeReason(c.reason);
  if (reason === null) return 'INVALID_CLOSE_REASON';
  if (c.symbol !== undefined && !st.symbols.has(c.symbol)) return 'SYMBOL_UNKNOWN';
  const denied = reason === CloseReason.AUTOMATIC ? null : checkRestriction(account.restrictions, 'close');
  if (denied) return denied;
  const targets = account.positions.filter((p) => c.symbol === undefined || p.sym.terms.symbol === c.symbol);
  for (const p of targets) {
    const error = managedByBot(p, reason) ?? validateClosing(p.sym.terms, st.now);
    if (error) return error;
  }
  for (const p of targets.sort((a, b) => a.ticket - b.ticket))
    closePosition(st, p, p.volume, strategyCloseReason(p, reason));
  return null;
}

/**
 * What opening `volume` of `symbol` on `side` would cost now (the order ticket's preview):
 * margin and commission in the account currency and the fill price, or the reason it would be
 * refused by the symbol or the quotes. Changes nothing.
 */
export function previewOpen(
  st: EngineState,
  accountId: number,
  symbol: string,
  side: TSide,
  volume: number,
): { margin: number; commission: number; price: number } | { error: TTradingErrorCode } {
  const account = st.accounts.get(accountId);
  if (account === undefined) return { error: 'ACCOUNT_NOT_FOUND' };
  const sym = symbolFor(st, account, symbol);
  if (typeof sym === 'string') return { error: sym };
  const volumeError = validateVolume(sym.terms, volume);
  if (volumeError) return { error: volumeError };
  if (!sym.hasQuote) return { error: 'NO_PRICE' };
  const price = side === 'buy' ? sym.ask : sym.bid;
  const costs = openingCosts(st, account, sym, side, volume, price);
  if (typeof costs === 'string') return { error: costs };
  return { margin: costs.margin, commission: costs.commission, price };
}

/** Open positions and pending orders: opening, closing, cancelling, and their trigger-book entries. */
import { CONVERSION_IDENTITY, commissionMinor, convert, mulDiv, profitMinor } from '../money';
import {
  pendingTrigger,
  stopLossBook,
  type TBook,
  type TCloseReason,
  TRIGGER_KINDS,
  TriggerKind,
  type TSide,
  type TTriggerKind,
  takeProfitBook,
  trailBook,
  trailedStopLoss,
  trailTriggerPrice,
} from '../orders';
import type { TOrderCancelReason } from './events';
import { LedgerAccount, post } from './ledger';
import { bucketFor, converterFor } from './market';
import { type Account, type EngineState, emit, type Order, type Position, type SymbolState } from './state';
import { positionView } from './views';

/** A trigger's id in the books: the ticket, with the trigger kind in the three low bits. */
export function triggerId(ticket: number, kind: TTriggerKind): number {
  return ticket * TRIGGER_KINDS + kind;
}

/** The trigger kind of a trigger id. */
export function kindOf(id: number): TTriggerKind {
  return (id % TRIGGER_KINDS) as TTriggerKind;
}

/** The ticket of a trigger id. */
export function ticketOf(id: number): number {
  return (id - (id % TRIGGER_KINDS)) / TRIGGER_KINDS;
}

/** Opens a position already validated and priced, and charges its opening commission. */
export function openPosition(
  st: EngineState,
  account: Account,
  sym: SymbolState,
  ticket: number,
  side: TSide,
  volume: number,
  price: number,
  takeProfit: number | null,
  stopLoss: number | null,
  costs: { margin: number; commission: number; profit: number },
  orderId: number | null,
  parentTicket: number | null = null,
  strategyId: number | null = null,
  trailing = 0,
): Position {
  const bucket = bucketFor(st, sym, account.currency);
  const position: Position = {
    ticket,
    account,
    sym,
    side,
    volume,
    openPrice: price,
    openTime: st.now,
    takeProfit,
    stopLoss,
    trailing,
    margin: costs.margin,
    swap: 0,
    commission: 0,
    bucket,
    bucketIndex: 0,
    accountIndex: 0,
    parentTicket,
    strategyId,
  };
  attachPosition(st, position, costs.profit);
  emit(st, { type: 'position_opened', position: positionView(position), orderId, time: st.now });
  if (costs.commission !== 0) {
    position.commission -= costs.commission;
    post(st, account, 'commission', -costs.commission, LedgerAccount.BROKER_COMMISSION, ticket);
  }
  return position;
}

/** Indexes a position: its bucket, its account, the risk sums and its take-profit/stop-loss triggers. */
export function attachPosition(st: EngineState, position: Position, profit: number): void {
  const account = position.account;
  const slot = account.slot;
  position.bucketIndex = position.bucket.store.add(
    position,
    position.openPrice,
    position.volume,
    position.side === 'buy' ? 1 : -1,
    slot,
    profit,
  );
  position.accountIndex = account.positions.length;
  account.positions.push(position);
  st.positions.set(position.ticket, position);
  const risk = st.risk;
  risk.margin[slot] = risk.margin[slot]! + position.margin;
  risk.floating[slot] = risk.floating[slot]! + profit;
  risk.openPositions[slot] = account.positions.length;
  addPositionTriggers(position);
  if (position.parentTicket !== null) linkCopy(st, position, position.parentTicket);
  risk.refresh(slot);
}

/** Indexes a copy under the leader's position it follows, and counts it for its relation. */
function linkCopy(st: EngineState, position: Position, parentTicket: number): void {
  const copies = st.copiesByParent.get(parentTicket);
  if (copies === undefined) st.copiesByParent.set(parentTicket, [position]);
  else copies.push(position);
  const relation = position.account.copy;
  if (relation !== null) relation.openCopies++;
}

/** Takes a copy out of its leader position's index (it closed, or it became the follower's own). */
function forgetCopy(st: EngineState, position: Position, parentTicket: number): void {
  const copies = st.copiesByParent.get(parentTicket);
  if (copies !== undefined) {
    const at = copies.indexOf(position);
    if (at >= 0) copies.splice(at, 1);
    if (copies.length === 0) st.copiesByParent.delete(parentTicket);
  }
  const relation = position.account.copy;
  if (relation !== null) relation.openCopies--;
}

/** Makes a copy the follower's own position: no longer linked to the leader's. */
export function unlinkCopy(st: EngineState, position: Position): void {
  const parentTicket = position.parentTicket;
  if (parentTicket === null) return;
  forgetCopy(st, position, parentTicket);
  position.parentTicket = null;
  emit(st, {
    type: 'position_unlinked',
    accountId: position.account.id,
    positionId: position.ticket,
    parentTicket,
    time: st.now,
  });
}

/**
 * Closes `volume` of a position at the current quote (bid for a buy, ask for a sell): realises the
 * profit of that volume, charges the closing commission, releases margin pro rata (the remainder
 * keeps ceil(margin x rest / volume)).
 */
export function closePosition(
  st: EngineState,
  position: Position,
  volume: number,
  reason: TCloseReason,
): void {
  const account = position.account;
  const sym = position.sym;
  const terms = sym.terms;
  const rates = position.bucket.converter.rates ?? CONVERSION_IDENTITY;
  const closePrice = position.side === 'buy' ? sym.bid : sym.ask;
  const diff = position.side === 'buy' ? closePrice - position.openPrice : position.openPrice - closePrice;
  const realized = profitMinor(diff, volume, terms.point, rates);
  const rest = position.volume - volume;
  const restMargin = rest === 0 ? 0 : mulDiv(position.margin, rest, position.volume, 'ceil');
  const restProfit = rest === 0 ? 0 : profitMinor(diff, rest, terms.point, rates);
  const risk = st.risk;
  const store = position.bucket.store;
  risk.margin[account.slot] = risk.margin[account.slot]! - (position.margin - restMargin);
  risk.floating[account.slot] =
    risk.floating[account.slot]! + restProfit - store.profit[position.bucketIndex]!;
  position.margin = restMargin;
  position.volume = rest;
  store.profit[position.bucketIndex] = restProfit;
  store.volume[position.bucketIndex] = rest;
  if (rest === 0) detachPosition(st, position);
  risk.refresh(account.slot);
  emit(st, {
    type: 'position_closed',
    positionId: position.ticket,
    accountId: account.id,
    symbol: terms.symbol,
    side: position.side,
    volume,
    remainingVolume: rest,
    openPrice: position.openPrice,
    closePrice,
    profit: realized,
    reason,
    parentTicket: position.parentTicket,
    strategyId: position.strategyId,
    time: st.now,
  });
  if (realized !== 0) post(st, account, 'realized_pnl', realized, LedgerAccount.BROKER_PNL, position.ticket);
  if (terms.commissionPerLotMinor > 0) {
    const conv = converterFor(st, terms.commissionCurrency, account.currency)?.rates;
    const commission = conv ? convert(commissionMinor(volume, terms.commissionPerLotMinor), conv) : 0;
    if (commission !== 0) {
      position.commission -= commission;
      post(st, account, 'commission', -commission, LedgerAccount.BROKER_COMMISSION, position.ticket);
    }
  }
}

/** Takes a fully closed position out of its bucket, its account and the trigger books. */
function detachPosition(st: EngineState, position: Position): void {
  removePositionTriggers(position);
  if (position.parentTicket !== null) forgetCopy(st, position, position.parentTicket);
  st.positions.delete(position.ticket);
  const moved = position.bucket.store.removeAt(position.bucketIndex);
  if (moved !== undefined) moved.bucketIndex = position.bucketIndex;
  const inAccount = position.account.positions;
  const lastInAccount = inAccount.pop()!;
  if (lastInAccount !== position) {
    inAccount[position.accountIndex] = lastInAccount;
    lastInAccount.accountIndex = position.accountIndex;
  }
  st.risk.openPositions[position.account.slot] = inAccount.length;
}

/** Cancels a pending order: out of the books and the account, with the reason reported. */
export function removeOrder(st: EngineState, order: Order, reason: TOrderCancelReason): void {
  removeOrderTrigger(order);
  st.orders.delete(order.ticket);
  order.account.orders.delete(order);
  emit(st, {
    type: 'order_cancelled',
    orderId: order.ticket,
    accountId: order.account.id,
    reason,
    time: st.now,
  });
}

export function addPositionTriggers(p: Position): void {
  const triggers = p.sym.triggers;
  if (p.takeProfit !== null)
    triggers.add(takeProfitBook(p.side), p.takeProfit, triggerId(p.ticket, TriggerKind.TAKE_PROFIT));
  if (p.stopLoss !== null)
    triggers.add(stopLossBook(p.side), p.stopLoss, triggerId(p.ticket, TriggerKind.STOP_LOSS));
  if (p.trailing > 0)
    triggers.add(
      trailBook(p.side),
      trailTriggerPrice(p.side, p.openPrice, p.stopLoss, p.trailing),
      triggerId(p.ticket, TriggerKind.TRAIL),
    );
}

export function removePositionTriggers(p: Position): void {
  const triggers = p.sym.triggers;
  if (p.takeProfit !== null)
    triggers.remove(takeProfitBook(p.side), p.takeProfit, triggerId(p.ticket, TriggerKind.TAKE_PROFIT));
  if (p.stopLoss !== null)
    triggers.remove(stopLossBook(p.side), p.stopLoss, triggerId(p.ticket, TriggerKind.STOP_LOSS));
  if (p.trailing > 0)
    triggers.remove(
      trailBook(p.side),
      trailTriggerPrice(p.side, p.openPrice, p.stopLoss, p.trailing),
      triggerId(p.ticket, TriggerKind.TRAIL),
    );
}

/**
 * A trailing stop's trigger fired (already out of its book): the stop-loss moves to the trailing
 * distance from the closing price, never back, and the trigger waits one point beyond the new level.
 * The move is the engine's own, so the account's restrictions do not hold it.
 */
export function trailStopLoss(st: EngineState, p: Position): void {
  const sym = p.sym;
  const triggers = sym.triggers;
  const stopLoss = trailedStopLoss(p.side, sym.bid, sym.ask, p.trailing);
  const forward = p.stopLoss === null || (p.side === 'buy' ? stopLoss > p.stopLoss : stopLoss < p.stopLoss);
  const reached = p.side === 'buy' ? stopLoss > p.openPrice : stopLoss < p.openPrice;
  if (forward && reached && stopLoss > 0) {
    if (p.stopLoss !== null)
      triggers.remove(stopLossBook(p.side), p.stopLoss, triggerId(p.ticket, TriggerKind.STOP_LOSS));
    p.stopLoss = stopLoss;
    triggers.add(stopLossBook(p.side), stopLoss, triggerId(p.ticket, TriggerKind.STOP_LOSS));
    emit(st, {
      type: 'stop_loss_trailed',
      positionId: p.ticket,
      accountId: p.account.id,
      stopLoss,
      time: st.now,
    });
  }
  triggers.add(
    trailBook(p.side),
    trailTriggerPrice(p.side, p.openPrice, p.stopLoss, p.trailing),
    triggerId(p.ticket, TriggerKind.TRAIL),
  );
}

/** Where a pending order waits in the books: its entry, or its stop-limit activation. */
export function orderTrigger(order: Order): { book: TBook; price: number; kind: TTriggerKind } {
  return pendingTrigger(order.type, order.price, order.limitPrice, order.activated);
}

export function addOrderTrigger(order: Order): void {
  const t = orderTrigger(order);
  order.sym.triggers.add(t.book, t.price, triggerId(order.ticket, t.kind));
}

export function removeOrderTrigger(order: Order): void {
  const t = orderTrigger(order);
  order.sym.triggers.remove(t.book, t.price, triggerId(order.ticket, t.kind));
}

/**
 * Ticks, triggers and stop-out: a quote fires crossed pending orders and take-profit/stop-loss,
 * revalues the positions it moves, and margin-checks the accounts whose equity moved.
 */
import { marginLevelBp } from '../calculations';
import { conversionRates } from '../money';
import { CloseReason, sideOfPending, stopLossBook, TriggerKind, takeProfitBook } from '../orders';
import { MarginState } from '../trigger-book';
import { copyFollowers, stopOnThreshold } from './copy';
import type { TEngineEvent, TOrderCancelReason } from './events';
import { LedgerAccount, post } from './ledger';
import { quoteState } from './market';
import { marginAllows, openingCosts } from './order-entry';
import {
  addOrderTrigger,
  closePosition,
  kindOf,
  openPosition,
  removeOrder,
  removeOrderTrigger,
  ticketOf,
  trailStopLoss,
} from './positions';
import { type Account, type EngineState, emit, type Order, type SymbolState } from './state';
import {
  flushStrategies,
  stopBotOnThreshold,
  strategyBands,
  strategyEvents,
  strategyPrices,
} from './strategy/run';
import { figuresOf, profitOf } from './views';

const NO_EVENTS: readonly TEngineEvent[] = Object.freeze([]);

/**
 * A new raw quote (points, before markup). Fires crossed pending orders and take-profit/stop-loss,
 * revalues the positions the quote moves (its symbol's, and those converted through it), then
 * margin-checks only the accounts whose equity moved: margin call flag, stop-out, negative-balance
 * protection.
 */
export function tick(
  st: EngineState,
  symbol: string,
  rawBid: number,
  rawAsk: number,
  time: number,
): readonly TEngineEvent[] {
  const sym = st.symbols.get(symbol);
  if (sym === undefined || !(rawBid > 0) || !(rawAsk >= rawBid)) return NO_EVENTS;
  if (!Number.isSafeInteger(rawBid) || !Number.isSafeInteger(rawAsk)) return NO_EVENTS;
  quoteState(sym, rawBid, rawAsk, time);
  const profiles = st.profileStates.get(symbol);
  if (profiles !== undefined) for (const p of profiles) quoteState(p, rawBid, rawAsk, time);
  st.now = time;
  st.out = null;
  st.risk.begin();
  for (const c of sym.converters) c.rates = conversionRates(c.path, st.quoteOf);
  if (sym.triggers.anyCrossed(sym.bid, sym.ask)) fireTriggers(st, sym);
  revalue(st, sym);
  if (profiles !== undefined)
    for (const p of profiles) {
      if (p.triggers.anyCrossed(p.bid, p.ask)) fireTriggers(st, p);
      revalue(st, p);
    }
  checkMargins(st);
  followLeaders(st);
  if (st.strategies.size > 0) followStrategies(st, sym, profiles);
  const events = st.out ?? NO_EVENTS;
  st.out = null;
  return events;
}

/** Handles every trigger the quote crossed, in rounds, and re-books what cannot be priced yet. */
function fireTriggers(st: EngineState, sym: SymbolState): void {
  const fired = st.fired;
  const deferred: number[] = [];
  // fills add take-profit/stop-loss and activations add limits that the same quote may cross
  for (let round = 0; round < 64 && sym.triggers.anyCrossed(sym.bid, sym.ask); round++) {
    fired.length = 0;
    sym.triggers.popCrossed(sym.bid, sym.ask, fired);
    const batch = fired.slice();
    // closes first (they free margin), then trailing stops, stop-limit activations, then fills
    let trails = false;
    for (const id of batch) {
      const kind = kindOf(id);
      if (kind === TriggerKind.TRAIL) trails = true;
      if (kind !== TriggerKind.TAKE_PROFIT && kind !== TriggerKind.STOP_LOSS) continue;
      const position = st.positions.get(ticketOf(id));
      if (position === undefined) continue;
      // not priced in the account currency yet (a cross pair has not ticked since a restore)
      if (position.bucket.converter.rates === undefined) deferred.push(id);
      else closePosition(st, position, position.volume, CloseReason.TAKE_PROFIT_OR_STOP_LOSS);
    }
    // a position the same quote closed (its take-profit) is gone, and its trailing stop with it
    if (trails)
      for (const id of batch) {
        if (kindOf(id) !== TriggerKind.TRAIL) continue;
        const position = st.positions.get(ticketOf(id));
        if (position !== undefined && position.trailing > 0) trailStopLoss(st, position);
      }
    for (const id of batch) {
      if (kindOf(id) !== TriggerKind.ACTIVATION) continue;
      const order = st.orders.get(ticketOf(id));
      if (order === undefined) continue;
      order.activated = true;
      emit(st, {
        type: 'order_activated',
        orderId: order.ticket,
        accountId: order.account.id,
        time: st.now,
      });
      addOrderTrigger(order);
    }
    for (const id of batch) {
      if (kindOf(id) !== TriggerKind.ENTRY) continue;
      const order = st.orders.get(ticketOf(id));
      if (order !== undefined && !fillOrder(st, order)) deferred.push(id);
    }
  }
  for (const id of deferred) {
    const kind = kindOf(id);
    const ticket = ticketOf(id);
    const position = st.positions.get(ticket);
    if (position !== undefined) {
      const book =
        kind === TriggerKind.TAKE_PROFIT ? takeProfitBook(position.side) : stopLossBook(position.side);
      sym.triggers.add(
        book,
        kind === TriggerKind.TAKE_PROFIT ? position.takeProfit! : position.stopLoss!,
        id,
      );
    }
    const order = st.orders.get(ticket);
    if (order !== undefined) addOrderTrigger(order);
  }
}

/** Fills (or refuses and cancels) a triggered order; false when it cannot be priced yet and must wait. */
function fillOrder(st: EngineState, order: Order): boolean {
  const account = order.account;
  const sym = order.sym;
  const side = sideOfPending(order.type);
  const price = side === 'buy' ? sym.ask : sym.bid;
  removeOrderTrigger(order);
  const costs = openingCosts(st, account, sym, side, order.volume, price);
  if (costs === 'NO_PRICE') return false;
  const refusal: TOrderCancelReason | null =
    account.restrictions.noOpen || !sym.terms.enabled || sym.terms.closeOnly
      ? 'restricted'
      : typeof costs === 'string' || marginAllows(st, account, costs) !== null
        ? 'insufficient_margin'
        : null;
  if (refusal !== null || typeof costs === 'string') {
    removeOrder(st, order, refusal ?? 'insufficient_margin');
    return true;
  }
  st.orders.delete(order.ticket);
  account.orders.delete(order);
  emit(st, {
    type: 'order_filled',
    orderId: order.ticket,
    accountId: account.id,
    positionId: order.ticket,
    price,
    time: st.now,
  });
  openPosition(
    st,
    account,
    sym,
    order.ticket,
    side,
    order.volume,
    price,
    order.takeProfit,
    order.stopLoss,
    costs,
    order.ticket,
    null,
    order.strategyId,
  );
  return true;
}

/** Recomputes every position the symbol's quote moves and pushes the deltas into account sums. */
function revalue(st: EngineState, sym: SymbolState): void {
  const affected = sym.affected;
  for (let i = 0; i < affected.length; i++) {
    const bucket = affected[i]!;
    const rates = bucket.converter.rates;
    const s = bucket.sym;
    if (bucket.store.count === 0 || rates === undefined || !s.hasQuote) continue;
    bucket.store.revalue(s.bid, s.ask, s.terms.point, rates, st.risk);
  }
}

/**
 * The followers' side of the leaders' trades of this step (copy.ts), then the margin checks of the
 * copy accounts it moved. Nothing to do, and nothing spent, while no copy relation exists.
 */
export function followLeaders(st: EngineState): void {
  if (st.copyRelations.size === 0 || st.out === null) return;
  st.risk.begin();
  copyFollowers(st);
  checkMargins(st);
}

/**
 * The bots' side of the step (strategy/run.ts): their reactions to its events, then (on a tick) the
 * bots of the quoted symbol whose band the bid left, then the margin checks of what they did, again
 * until nothing new happens (a stop-out stops its account's bot). Nothing to do, and nothing spent,
 * while no bot exists.
 */
export function followStrategies(
  st: EngineState,
  sym: SymbolState | null,
  profiles: readonly SymbolState[] | undefined,
): void {
  if (st.strategies.size === 0 && st.changedStrategies.size === 0) return;
  st.risk.begin();
  let cursor = strategyEvents(st, 0);
  strategyBands(st);
  if (sym !== null) {
    if (sym.bots !== null) strategyPrices(st, sym.bots);
    if (profiles !== undefined) for (const p of profiles) if (p.bots !== null) strategyPrices(st, p.bots);
  }
  for (let round = 0; round < 16; round++) {
    cursor = strategyEvents(st, cursor);
    checkMargins(st);
    st.risk.begin();
    if ((st.out?.length ?? 0) === cursor) break;
  }
  flushStrategies(st);
}

/**
 * Margin-checks the accounts this tick or command moved. The scan only reads; the few accounts that
 * need something done are handled in account-id order, so events never depend on index order.
 */
export function checkMargins(st: EngineState): void {
  const acting = st.acting;
  acting.length = 0;
  if (st.risk.scan(acting) === 0) return;
  const accounts = acting.map((slot) => st.accountsBySlot[slot]!).sort((x, y) => x.id - y.id);
  const risk = st.risk;
  for (const account of accounts) {
    const slot = account.slot;
    // a copy account's copy stop-loss or take-profit comes before its stop-out: it closes every copy
    if (account.copy !== null && risk.copyThresholdReached(slot) && fullyPriced(account))
      stopOnThreshold(st, account);
    else if (account.bot !== null && risk.copyThresholdReached(slot) && fullyPriced(account))
      stopBotOnThreshold(st, account);
    let state = risk.state(slot);
    if (state === MarginState.STOP_OUT && fullyPriced(account)) {
      stopOut(st, account);
      state = risk.state(slot);
    }
    const inCall = state !== MarginState.OK;
    if (inCall !== (risk.inCall[slot] === 1)) {
      risk.setInCall(slot, inCall);
      emit(st, {
        type: 'margin_call',
        accountId: account.id,
        active: inCall,
        marginLevelBp: marginLevelBp(figuresOf(st, account)),
        time: st.now,
      });
    }
    if (account.nbp && account.positions.length === 0 && account.balance < 0) {
      post(st, account, 'negative_balance_protection', -account.balance, LedgerAccount.BROKER_NBP, null);
    }
  }
}

/** Whether every position of the account is valued at current quotes (not so right after a restore). */
function fullyPriced(account: Account): boolean {
  for (const p of account.positions)
    if (!p.sym.hasQuote || p.bucket.converter.rates === undefined) return false;
  return true;
}

/** Closes the biggest loser first until the margin level is back at or above the stop-out level. */
function stopOut(st: EngineState, account: Account): void {
  emit(st, {
    type: 'stop_out',
    accountId: account.id,
    marginLevelBp: marginLevelBp(figuresOf(st, account)),
    time: st.now,
  });
  while (account.positions.length > 0 && st.risk.state(account.slot) === MarginState.STOP_OUT) {
    let worst = account.positions[0]!;
    let worstProfit = profitOf(worst);
    for (const p of account.positions) {
      const profit = profitOf(p);
      if (profit < worstProfit || (profit === worstProfit && p.ticket < worst.ticket)) {
        worst = p;
        worstProfit = profit;
      }
    }
    closePosition(st, worst, worst.volume, CloseReason.AUTOMATIC);
  }
}

/**
 * Loads the latest raw quote of many symbols at once (after a restore without quotes), revaluing
 * every position but firing nothing: triggers and margin checks start with the next real tick, so a
 * half-priced book can never stop an account out.
 */
export function primeQuotes(
  st: EngineState,
  quotes: readonly { symbol: string; bid: number; ask: number; time: number }[],
): void {
  for (const q of quotes) {
    const sym = st.symbols.get(q.symbol);
    if (sym === undefined || !(q.bid > 0) || !(q.ask >= q.bid)) continue;
    quoteState(sym, q.bid, q.ask, q.time);
    for (const p of st.profileStates.get(q.symbol) ?? []) quoteState(p, q.bid, q.ask, q.time);
  }
  for (const c of st.converters.values()) c.rates = conversionRates(c.path, st.quoteOf);
  st.risk.begin();
  for (const bucket of st.buckets.values()) {
    const rates = bucket.converter.rates;
    if (rates !== undefined && bucket.sym.hasQuote)
      bucket.store.revalue(bucket.sym.bid, bucket.sym.ask, bucket.sym.terms.point, rates, st.risk);
  }
  st.risk.begin();
}

/** The engine's self-check: every running figure recomputed from scratch and compared. */
import { isMetaTrader } from '../calculations';
import { profitMinor } from '../money';
import {
  stopLossBook,
  type TBook,
  TriggerKind,
  takeProfitBook,
  trailBook,
  trailTriggerPrice,
} from '../orders';
import { marginState } from '../trigger-book';
import { orderTrigger, triggerId } from './positions';
import type { EngineState, SymbolState } from './state';
import { countsOf, equityThresholds, floatingOf, marginOf, profitOf } from './views';

/**
 * Recomputes every running figure from scratch and lists what disagrees: account floating profit and
 * margin sums, each position's profit at the current quotes, positive margin, and that every take-
 * profit, stop-loss, trailing stop and pending order sits in its book (and nothing else does). Empty
 * when sound.
 */
export function checkInvariants(st: EngineState): string[] {
  const problems: string[] = [];
  const inBooks = new Set<string>();
  for (const sym of st.symbols.values())
    sym.triggers.books.forEach((book, b) => {
      for (const [key, id] of book.entries()) inBooks.add(`${sym.terms.symbol}:${b}:${key}:${id}`);
    });
  const bookHas = (sym: SymbolState, book: TBook, price: number, id: number) =>
    inBooks.has(`${sym.terms.symbol}:${book}:${book === 0 || book === 2 ? price : -price}:${id}`);
  let expectedTriggers = 0;
  for (const a of st.accounts.values()) {
    let floating = 0;
    let margin = 0;
    a.positions.forEach((p, i) => {
      const store = p.bucket.store;
      floating += profitOf(p);
      margin += p.margin;
      if (p.accountIndex !== i) problems.push(`position ${p.ticket} account index`);
      if (store.items[p.bucketIndex] !== p) problems.push(`position ${p.ticket} bucket index`);
      if (store.volume[p.bucketIndex] !== p.volume || store.open[p.bucketIndex] !== p.openPrice)
        problems.push(`position ${p.ticket} store out of step`);
      if (store.slot[p.bucketIndex] !== a.slot) problems.push(`position ${p.ticket} slot`);
      if (p.margin <= 0) problems.push(`position ${p.ticket} has no margin`);
      const rates = p.bucket.converter.rates;
      if (rates !== undefined && p.sym.hasQuote) {
        const diff = p.side === 'buy' ? p.sym.bid - p.openPrice : p.openPrice - p.sym.ask;
        const profit = profitMinor(diff, p.volume, p.sym.terms.point, rates);
        if (profit !== profitOf(p)) problems.push(`position ${p.ticket} profit ${profitOf(p)} != ${profit}`);
      }
      const tp = p.takeProfit !== null;
      const sl = p.stopLoss !== null;
      const trailing = p.trailing > 0;
      expectedTriggers += (tp ? 1 : 0) + (sl ? 1 : 0) + (trailing ? 1 : 0);
      if (
        trailing &&
        !bookHas(
          p.sym,
          trailBook(p.side),
          trailTriggerPrice(p.side, p.openPrice, p.stopLoss, p.trailing),
          triggerId(p.ticket, TriggerKind.TRAIL),
        )
      )
        problems.push(`position ${p.ticket} trailing stop missing`);
      if (tp && !bookHas(p.sym, takeProfitBook(p.side), p.takeProfit!, triggerId(p.ticket, 0)))
        problems.push(`position ${p.ticket} take-profit missing`);
      if (sl && !bookHas(p.sym, stopLossBook(p.side), p.stopLoss!, triggerId(p.ticket, 1)))
        problems.push(`position ${p.ticket} stop-loss missing`);
    });
    if (floating !== floatingOf(st, a))
      problems.push(`account ${a.id} floating ${floatingOf(st, a)} != ${floating}`);
    if (margin !== marginOf(st, a)) problems.push(`account ${a.id} margin ${marginOf(st, a)} != ${margin}`);
    if (st.risk.openPositions[a.slot] !== a.positions.length) problems.push(`account ${a.id} position count`);
    const base = isMetaTrader(a.type) ? a.balance : a.balance + a.followEquity + a.strategyEquity;
    if (st.risk.riskBase[a.slot] !== base) problems.push(`account ${a.id} risk base`);
    const exact = marginState(base + floating, margin, a.marginCallBp, a.stopOutBp);
    if (st.risk.state(a.slot) !== exact) problems.push(`account ${a.id} margin floors out of step`);
    for (const o of a.orders) {
      expectedTriggers++;
      const t = orderTrigger(o);
      if (!bookHas(o.sym, t.book, t.price, triggerId(o.ticket, t.kind)))
        problems.push(`order ${o.ticket} trigger missing`);
    }
  }
  problems.push(...copyProblems(st));
  problems.push(...strategyProblems(st));
  let positionsInAccounts = 0;
  for (const a of st.accounts.values()) positionsInAccounts += a.positions.length;
  if (positionsInAccounts !== st.positions.size) problems.push('position index out of step');
  if (countsOf(st).triggers !== expectedTriggers)
    problems.push(`books hold ${countsOf(st).triggers} triggers, expected ${expectedTriggers}`);
  return problems;
}

/**
 * Copy trading: every linked copy follows an open position of its relation's leader and sits in that
 * position's index; relations are indexed both ways and count their copies; the risk book's copy
 * thresholds and watch bands are those the settings and allocations give.
 */
function copyProblems(st: EngineState): string[] {
  const problems: string[] = [];
  for (const a of st.accounts.values()) {
    let linked = 0;
    for (const p of a.positions) {
      if (p.parentTicket === null) continue;
      linked++;
      const parent = st.positions.get(p.parentTicket);
      if (a.copy === null) problems.push(`copy ${p.ticket} linked without a relation`);
      else if (parent === undefined || parent.account !== a.copy.leader)
        problems.push(`copy ${p.ticket} follows ${p.parentTicket}, not an open position of its leader`);
      if (!st.copiesByParent.get(p.parentTicket)?.includes(p)) problems.push(`copy ${p.ticket} not indexed`);
    }
    if (a.copy !== null) {
      if (a.copy.follower !== a || st.copyRelations.get(a.id) !== a.copy)
        problems.push(`account ${a.id} relation index`);
      if (a.copy.openCopies !== linked)
        problems.push(`account ${a.id} counts ${a.copy.openCopies} copies, holds ${linked}`);
      if (!a.copy.leader.followers?.includes(a.copy))
        problems.push(`account ${a.id} missing from its leader`);
    } else if (linked > 0) problems.push(`account ${a.id} holds copies without a relation`);
    const followers = a.followers ?? [];
    if (a.followers !== null && followers.length === 0) problems.push(`account ${a.id} empty follower list`);
    for (let i = 0; i < followers.length; i++) {
      if (followers[i]!.leader !== a) problems.push(`account ${a.id} lists another leader's follower`);
      if (i > 0 && followers[i - 1]!.follower.id >= followers[i]!.follower.id)
        problems.push(`account ${a.id} followers out of order`);
    }
    const slot = a.slot;
    const [stop, take] = equityThresholds(a);
    if (st.risk.copyStopEquity[slot] !== stop || st.risk.copyTakeEquity[slot] !== take)
      problems.push(`account ${a.id} copy thresholds out of step`);
    if (
      st.risk.watchLow[slot] !== st.risk.bandLow(slot) ||
      st.risk.watchHigh[slot] !== st.risk.bandHigh(slot)
    )
      problems.push(`account ${a.id} watch band out of step`);
  }
  for (const [ticket, copies] of st.copiesByParent) {
    if (copies.length === 0) problems.push(`leader position ${ticket} has an empty copy list`);
    for (let i = 0; i < copies.length; i++) {
      const p = copies[i]!;
      if (st.positions.get(p.ticket) !== p || p.parentTicket !== ticket)
        problems.push(`leader position ${ticket} lists ${p.ticket}, not an open copy of it`);
      if (i > 0 && copies[i - 1]!.ticket >= p.ticket)
        problems.push(`leader position ${ticket} copies out of order`);
    }
  }
  for (const [id, relation] of st.copyRelations)
    if (relation.follower.id !== id || relation.follower.copy !== relation)
      problems.push(`relation of ${id} out of step`);
  return problems;
}

/**
 * Bots: indexed both ways and watching their symbol while they work; a grid's cells each hold at most
 * one order or position (never two at one level) and hold exactly the bot's orders and positions; a
 * martingale never beyond its maximum adds; every order and position with a strategy id has its bot.
 */
function strategyProblems(st: EngineState): string[] {
  const problems: string[] = [];
  for (const [id, bot] of st.strategies) {
    if (bot.id !== id || bot.account.bot !== bot) problems.push(`strategy ${id} index`);
    const working = bot.state === 'waiting' || bot.state === 'running';
    if (working !== (bot.sym.bots?.includes(bot) ?? false)) problems.push(`strategy ${id} watch list`);
    const orders = [...bot.account.orders].filter((o) => o.strategyId === id);
    const positions = bot.account.positions.filter((p) => p.strategyId === id);
    const held = new Set<number>();
    if (bot.gridRun !== null) {
      const entries = new Set<number>();
      for (const cell of bot.gridRun.cells) {
        if ((cell.ticket === null) !== (cell.holding === null)) problems.push(`strategy ${id} cell half set`);
        if (cell.ticket === null) continue;
        if (held.has(cell.ticket)) problems.push(`strategy ${id} ticket ${cell.ticket} in two cells`);
        held.add(cell.ticket);
        if (entries.has(cell.entry)) problems.push(`strategy ${id} two things at level ${cell.entry}`);
        entries.add(cell.entry);
        const order = st.orders.get(cell.ticket);
        const position = st.positions.get(cell.ticket);
        if (cell.holding === 'order' && (order?.strategyId !== id || order.price !== cell.entry))
          problems.push(`strategy ${id} cell order ${cell.ticket} missing`);
        if (cell.holding === 'position' && position?.strategyId !== id)
          problems.push(`strategy ${id} cell position ${cell.ticket} missing`);
      }
    }
    if (bot.martingaleRun !== null && bot.martingale !== null) {
      const run = bot.martingaleRun;
      if (run.adds > bot.martingale.maxAdds) problems.push(`strategy ${id} added ${run.adds} times`);
      if (run.positions.length > run.adds + 1) problems.push(`strategy ${id} round holds too much`);
      for (const t of run.positions) held.add(t);
      if (run.addOrder !== null) held.add(run.addOrder);
    }
    if (working) {
      for (const o of orders)
        if (!held.has(o.ticket)) problems.push(`strategy ${id} order ${o.ticket} not its own`);
      for (const p of positions)
        if (!held.has(p.ticket)) problems.push(`strategy ${id} position ${p.ticket} not its own`);
    }
    if (bot.state === 'stopped_open' && orders.length > 0)
      problems.push(`strategy ${id} stopped with orders`);
  }
  for (const p of st.positions.values())
    if (p.strategyId !== null && st.strategies.get(p.strategyId)?.account !== p.account)
      problems.push(`position ${p.ticket} of strategy ${p.strategyId} without its bot`);
  for (const o of st.orders.values())
    if (o.strategyId !== null && !isWorkingBot(st, o.strategyId, o.account))
      problems.push(`order ${o.ticket} of strategy ${o.strategyId} without a working bot`);
  return problems;
}

function isWorkingBot(st: EngineState, id: number, account: unknown): boolean {
  const bot = st.strategies.get(id);
  return bot !== undefined && bot.account === account && (bot.state === 'waiting' || bot.state === 'running');
}

import { CandleAggregator, type TCandle, type TCandleUpdate } from '@broker/domain/market/candles';
import { DEFAULT_INSTRUMENTS, type TInstrumentSpec } from '@broker/domain/market/instruments';
import { isOpenAt } from '@broker/domain/market/sessions';
import { bucketStart, TIMEFRAME_MS, TIMEFRAMES, type TTimeframe } from '@broker/domain/market/timeframes';
import { changePercent, fromPoints } from '@broker/domain/price-format';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';
import { OffMarketFilter } from './feed/tick-filter';
import type { TPriceFeedAdapter, TTick } from './feed/types';

/** A quote as clients see it: prices as decimal strings, never floats. */
export interface TQuote {
  symbol: string;
  bid: string;
  ask: string;
  spread: number;
  digits: number;
  time: number;
  open: string;
  high: string;
  low: string;
  previousClose: string;
  change: string;
  changePercent: string;
  status: 'open' | 'closed';
}

export type TMarketEvent =
  | { type: 'quote'; quote: TQuote }
  | { type: 'config'; tenantId: string }
  | { type: 'candle'; symbol: string; timeframe: TTimeframe; candle: TCandle };

interface TSymbolState {
  spec: TInstrumentSpec;
  last: TTick | null;
  previousClose: number | null;
}

const FLUSH_MS = 1_000;

/**
 * A broker's view of the catalogue: its own specs (enabled, volumes, sessions...) and the spread
 * markup in points added to the feed's quotes it shows (half below the bid, the rest above the ask,
 * exactly as the trading engine prices).
 */
export interface TTenantMarket {
  specs: ReadonlyMap<string, TInstrumentSpec>;
  markups: ReadonlyMap<string, number>;
  stopsLevels: ReadonlyMap<string, number>;
}

/** The latest minute, at or before `now`, in which the symbol's market was open (up to 8 days back). */
export function lastOpenMinute(spec: TInstrumentSpec, now: number): number | null {
  if (isOpenAt(spec.sessions, now)) return now;
  for (let t = Math.floor(now / 60_000) * 60_000 - 1; t > now - 8 * 86_400_000; t -= 60_000) {
    if (isOpenAt(spec.sessions, t)) return t;
  }
  return null;
}
const MAX_BARS = 2_000;

/**
 * Market data for the whole server: takes ticks from the feed adapter, drops off-market ones,
 * keeps the last quote and day statistics per symbol, builds candles of every timeframe, stores
 * them once a second, and tells subscribers (the WebSocket hub) about each change.
 */
export class MarketService {
  private readonly states = new Map<string, TSymbolState>();
  private readonly aggregator: CandleAggregator;
  private readonly filter: OffMarketFilter;
  private readonly dirty = new Map<string, TCandleUpdate>();
  private readonly listeners = new Set<(event: TMarketEvent) => void>();
  private readonly tickListeners = new Set<(tick: TTick) => void>();
  private readonly historyCache = new Map<string, TCandle[]>();
  private readonly tenants = new Map<string, TTenantMarket>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  filteredCount = 0;
  tickCount = 0;
  /**
   * Whether this instance writes the candles and the filtered ticks: among several instances only
   * the engine leader, which runs the feed, does (the others build the same candles in memory from
   * the leader's ticks, for their clients).
   */
  writer = true;

  constructor(
    private readonly db: TDb,
    private readonly feed: TPriceFeedAdapter & { quoteAt?(symbol: string, timeMs: number): TTick | null },
    readonly serverTimeZone = 'UTC',
    instruments: readonly TInstrumentSpec[] = DEFAULT_INSTRUMENTS,
    private readonly now: () => number = Date.now,
  ) {
    this.aggregator = new CandleAggregator(serverTimeZone);
    for (const spec of instruments) this.states.set(spec.symbol, { spec, last: null, previousClose: null });
    this.filter = new OffMarketFilter((symbol) => this.states.get(symbol)?.spec.volatility ?? 0.5);
  }

  start() {
    const now = this.now();
    for (const [symbol, state] of this.states) {
      // Seed the running candles and the last quote from the source's own history.
      for (const timeframe of TIMEFRAMES) {
        if (timeframe === 'D1') continue;
        const open = bucketStart(timeframe, now, this.serverTimeZone);
        const [candle] = this.feed.getHistorical(symbol, timeframe, open, now);
        if (candle) this.aggregator.seed(symbol, timeframe, candle);
      }
      // The day shown is the latest trading day: today's, or the last session's while closed
      // (as MT5 shows Friday over the weekend); the close before it is the previous close.
      const daily = this.feed.getHistorical(symbol, 'D1', now - 12 * 86_400_000, now);
      const lastDay = daily.at(-1);
      if (lastDay) this.aggregator.seed(symbol, 'D1', lastDay);
      state.previousClose = daily.at(-2)?.close ?? null;
      // A closed market shows its last quote from before it closed.
      const lastOpen = lastOpenMinute(state.spec, now);
      state.last = lastOpen === null ? null : (this.feed.quoteAt?.(symbol, lastOpen) ?? null);
    }
    this.feed.start((tick) => this.onTick(tick));
    this.flushTimer = setInterval(() => {
      this.flushing = this.flushing.then(() => this.flush()).catch(() => undefined);
    }, FLUSH_MS);
    this.flushTimer.unref?.();
  }

  async stop() {
    this.feed.stop();
    if (this.flushTimer) clearInterval(this.flushTimer);
    await this.flushing;
    await this.flush();
  }

  /** Every tick that passed the off-market filter, with integer prices (the trading engine's input). */
  onAcceptedTick(listener: (tick: TTick) => void): () => void {
    this.tickListeners.add(listener);
    return () => this.tickListeners.delete(listener);
  }

  /** The latest accepted tick of every symbol that has one. */
  lastTicks(): TTick[] {
    return [...this.states.values()].flatMap((s) => (s.last ? [s.last] : []));
  }

  subscribe(listener: (event: TMarketEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sets a broker's specs and markups (the back office's market configuration). */
  setTenantMarket(tenantId: string, market: TTenantMarket): void {
    const before = this.tenants.get(tenantId);
    this.tenants.set(tenantId, market);
    this.emit({ type: 'config', tenantId });
    // A changed markup re-prices the last quote now: clients see the new spread at once, not at the
    // symbol's next feed tick (a quiet market may not tick for seconds).
    for (const symbol of this.states.keys()) {
      if ((before?.markups.get(symbol) ?? 0) === (market.markups.get(symbol) ?? 0)) continue;
      const quote = this.quote(symbol);
      if (quote) this.emit({ type: 'quote', quote });
    }
  }

  /** The broker's markup of a symbol in points (0 without configuration). */
  markupOf(symbol: string, tenantId?: string): number {
    return (tenantId && this.tenants.get(tenantId)?.markups.get(symbol)) || 0;
  }

  /** The broker's stops level of a symbol in points (0 without configuration). */
  stopsLevelOf(symbol: string, tenantId?: string): number {
    return (tenantId && this.tenants.get(tenantId)?.stopsLevels.get(symbol)) || 0;
  }

  /** The catalogue as a broker configured it (the default catalogue without a tenant or configuration). */
  symbols(tenantId?: string): TInstrumentSpec[] {
    const own = tenantId ? this.tenants.get(tenantId) : undefined;
    return [...this.states.values()].map((s) => own?.specs.get(s.spec.symbol) ?? s.spec);
  }

  spec(symbol: string, tenantId?: string): TInstrumentSpec | undefined {
    const own = tenantId ? this.tenants.get(tenantId)?.specs.get(symbol) : undefined;
    return own ?? this.states.get(symbol)?.spec;
  }

  /** Whether a specification's sessions are open now (on this service's clock). */
  isSpecOpen(spec: TInstrumentSpec, timeMs = this.now()): boolean {
    return isOpenAt(spec.sessions, timeMs);
  }

  isOpen(symbol: string, timeMs = this.now(), tenantId?: string): boolean {
    const spec = this.spec(symbol, tenantId);
    return !!spec && isOpenAt(spec.sessions, timeMs);
  }

  /** Handles one tick from the feed. Public so replay tests and adapters can push ticks. */
  onTick(tick: TTick, trusted = false) {
    const state = this.states.get(tick.symbol);
    if (!state || tick.ask < tick.bid) return;
    // A tick the leader accepted (over the bus) is not filtered again: a standby's filter would
    // start from another reference and could refuse what the engine trades at.
    // (It still passes through the filter, which keeps its reference for when this instance leads.)
    const verdict = this.filter.check(tick);
    if (!verdict.accepted && !trusted) {
      this.filteredCount++;
      if (this.writer)
        void this.db
          .insertInto('filtered_ticks')
          .values({
            symbol: tick.symbol,
            tick_time: tick.time,
            bid: tick.bid,
            ask: tick.ask,
            reference: verdict.rejected.reference.toFixed(2),
            deviation: verdict.rejected.deviation.toFixed(2),
          })
          .execute()
          .catch(() => undefined);
      return;
    }
    this.tickCount++;
    const dayBefore = this.aggregator.currentCandle(tick.symbol, 'D1');
    state.last = tick;
    for (const update of this.aggregator.apply(tick.symbol, tick.time, tick.bid)) {
      this.dirty.set(`${update.symbol}|${update.timeframe}|${update.candle.time}`, update);
      this.emit({
        type: 'candle',
        symbol: update.symbol,
        timeframe: update.timeframe,
        candle: update.candle,
      });
    }
    const dayAfter = this.aggregator.currentCandle(tick.symbol, 'D1');
    if (dayBefore && dayAfter && dayAfter.time !== dayBefore.time) state.previousClose = dayBefore.close;
    for (const listener of this.tickListeners) listener(tick);
    const quote = this.quote(tick.symbol);
    if (quote) this.emit({ type: 'quote', quote });
  }

  /** The symbol's quote as the broker shows it (with its markup), or the feed's without a tenant. */
  quote(symbol: string, tenantId?: string): TQuote | null {
    const state = this.states.get(symbol);
    if (!state?.last) return null;
    const { digits } = state.spec;
    const day = this.aggregator.currentCandle(symbol, 'D1');
    const markup = this.markupOf(symbol, tenantId);
    const down = Math.floor(markup / 2);
    const bid = state.last.bid - down;
    const ask = state.last.ask + (markup - down);
    const previous = state.previousClose ?? day?.open ?? bid;
    return {
      symbol,
      bid: fromPoints(bid, digits),
      ask: fromPoints(ask, digits),
      spread: ask - bid,
      digits,
      time: state.last.time,
      open: fromPoints(day?.open ?? bid, digits),
      high: fromPoints(Math.max(day?.high ?? bid, bid), digits),
      low: fromPoints(Math.min(day?.low ?? bid, bid), digits),
      previousClose: fromPoints(previous, digits),
      change: fromPoints(bid - previous, digits),
      changePercent: changePercent(previous, bid),
      status: this.isOpen(symbol, undefined, tenantId) ? 'open' : 'closed',
    };
  }

  quotes(symbols?: readonly string[], tenantId?: string): TQuote[] {
    return (symbols ?? [...this.states.keys()])
      .map((s) => this.quote(s, tenantId))
      .filter((q): q is TQuote => q !== null);
  }

  /** Candles of a range: the source's history before our first stored candle, then our own. */
  async candles(
    symbol: string,
    timeframe: TTimeframe,
    options: { from?: number; to?: number; limit?: number },
  ): Promise<TCandle[]> {
    const limit = Math.min(Math.max(options.limit ?? 500, 1), MAX_BARS);
    const to = options.to ?? this.now();
    const span = timeframe === 'MN' ? 31 * 86_400_000 : TIMEFRAME_MS[timeframe];
    // Closed sessions leave gaps, so look further back than limit × timeframe, and further still
    // (a weekend, a holiday) while a window without an explicit start holds too few bars.
    const factor = timeframe === 'MN' || timeframe === 'W1' || timeframe === 'D1' ? 1.5 : 2.2;
    if (options.from === undefined) {
      let window = span * limit * factor;
      for (let attempt = 0; attempt < 3; attempt++) {
        const candles = await this.candlesBetween(symbol, timeframe, to - window, to);
        if (candles.length >= limit || attempt === 2) return candles.slice(-limit);
        window = Math.max(window * 2, window + 4 * 86_400_000);
      }
    }
    return (await this.candlesBetween(symbol, timeframe, options.from as number, to)).slice(-limit);
  }

  private async candlesBetween(
    symbol: string,
    timeframe: TTimeframe,
    from: number,
    to: number,
  ): Promise<TCandle[]> {
    const stored = await this.db
      .selectFrom('candles')
      .select(['open_time', 'open', 'high', 'low', 'close', 'volume'])
      .where('symbol', '=', symbol)
      .where('timeframe', '=', timeframe)
      .where('open_time', '>=', String(Math.floor(from)))
      .where('open_time', '<=', String(Math.floor(to)))
      .orderBy('open_time')
      .execute();
    const own: TCandle[] = stored.map((r) => ({
      time: Number(r.open_time),
      open: Number(r.open),
      high: Number(r.high),
      low: Number(r.low),
      close: Number(r.close),
      volume: Number(r.volume),
    }));
    const firstOwn = own[0]?.time ?? Number.POSITIVE_INFINITY;
    const history = this.history(symbol, timeframe, from, Math.min(to, firstOwn - 1));
    const merged = [...history.filter((c) => c.time < firstOwn), ...own];
    const live = this.aggregator.currentCandle(symbol, timeframe);
    if (live && live.time <= to) {
      const last = merged.at(-1);
      if (last && last.time === live.time) merged[merged.length - 1] = live;
      else if (!last || last.time < live.time) merged.push(live);
    }
    return merged;
  }

  private history(symbol: string, timeframe: TTimeframe, from: number, to: number): TCandle[] {
    if (to < from) return [];
    const key = `${symbol}|${timeframe}|${bucketStart(timeframe, from, this.serverTimeZone)}|${bucketStart(timeframe, to, this.serverTimeZone)}`;
    let candles = this.historyCache.get(key);
    if (!candles) {
      candles = this.feed.getHistorical(symbol, timeframe, from, to);
      if (this.historyCache.size > 300)
        this.historyCache.delete(this.historyCache.keys().next().value as string);
      this.historyCache.set(key, candles);
    }
    return candles;
  }

  /** Writes the candles changed since the last flush, in one statement. */
  async flush() {
    if (!this.writer) this.dirty.clear();
    if (this.dirty.size === 0) return;
    const batch = [...this.dirty.values()];
    this.dirty.clear();
    const column = <K extends keyof TCandle>(key: K) => batch.map((u) => u.candle[key]);
    await sql`insert into candles (symbol, timeframe, open_time, open, high, low, close, volume)
      select * from unnest(${batch.map((u) => u.symbol)}::text[], ${batch.map((u) => u.timeframe)}::text[],
        ${column('time')}::bigint[], ${column('open')}::bigint[], ${column('high')}::bigint[], ${column('low')}::bigint[],
        ${column('close')}::bigint[], ${column('volume')}::bigint[])
      on conflict (symbol, timeframe, open_time) do update set
        high = greatest(candles.high, excluded.high), low = least(candles.low, excluded.low),
        close = excluded.close, volume = excluded.volume`.execute(this.db);
  }

  private emit(event: TMarketEvent) {
    for (const listener of this.listeners) listener(event);
  }
}

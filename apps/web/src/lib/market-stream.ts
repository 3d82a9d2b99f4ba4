import type { TRouteOutput } from '@broker/contracts/routes';
import {
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { callRoute } from './api';
import {
  browserStream,
  RECONNECT_TIMING,
  ReconnectingSocket,
  type TConnectionState,
  type TSocketLike,
} from './reconnecting-socket';

export { reconnectDelay, type TConnectionState } from './reconnecting-socket';

export type TNamedQuote = TRouteOutput<'currencyall'>[number];
export type TQuote = Omit<TNamedQuote, 'name' | 'category'>;
export type TCandle = TRouteOutput<'kline'>['candles'][number];
export type TTimeframe = TRouteOutput<'kline'>['timeframe'];

/**
 * Every timing of market data in one place. Polled data (spec 9) refreshes every 3000 ms and its
 * first fetch waits the default 200 ms; the stream reconnects from 0.5 s doubling to 10 s. The server
 * flushes quotes every 100 ms and beats every 15 s, and a browser often keeps a dead socket "open":
 * after 2 s without any message the client pings, and a ping unanswered for 3 s drops the connection,
 * so a dead stream shows within about 6 s even when every subscribed market is quiet.
 */
export const MARKET_TIMING = {
  refreshMs: 3000,
  fetchDelayMs: 200,
  debounceMs: 200,
  idlePingMs: 2000,
  pingAnswerMs: 3000,
  idleCheckMs: 500,
  reconnectMinMs: RECONNECT_TIMING.minMs,
  reconnectMaxMs: RECONNECT_TIMING.maxMs,
  /** The socket stays open this long after the last unsubscribe, so a page change does not reconnect. */
  lingerMs: 5000,
} as const;

/** The server accepts up to this many quote symbols per subscription. */
const MAX_SYMBOLS_PER_MESSAGE = 200;

/** The newer of two quotes of a symbol: a late snapshot never overwrites a fresher update. */
export function mergeQuote(current: TQuote | undefined, incoming: TQuote): TQuote {
  return current && current.time > incoming.time ? current : incoming;
}

/**
 * A live candle applied to a history (oldest first): the same open time replaces that bar, a newer
 * one is appended, an older one replaces its bar if present and is dropped otherwise.
 */
export function mergeCandle(candles: readonly TCandle[], candle: TCandle): TCandle[] {
  const last = candles.at(-1);
  if (!last || candle.time > last.time) return [...candles, candle];
  if (candle.time === last.time) return [...candles.slice(0, -1), candle];
  const index = candles.findIndex((c) => c.time === candle.time);
  if (index < 0) return candles as TCandle[];
  const next = [...candles];
  next[index] = candle;
  return next;
}

/** Older candles put in front of a history, without duplicating the bars it already has. */
export function prependCandles(candles: readonly TCandle[], older: readonly TCandle[]): TCandle[] {
  const first = candles[0]?.time ?? Number.POSITIVE_INFINITY;
  return [...older.filter((c) => c.time < first), ...candles];
}

export type TSocketFactory = (
  url: string,
  handlers: { open(): void; message(data: string): void; close(): void },
) => TSocketLike;

type TServerMessage =
  | { type: 'welcome' | 'heartbeat' | 'pong' | 'unsubscribed' | 'error' }
  | { type: 'snapshot'; channel: 'quote'; data: TQuote[] }
  | { type: 'snapshot'; channel: 'kline'; symbol: string; timeframe: string; data: TCandle | null }
  | { type: 'quote'; data: TQuote }
  | { type: 'kline'; symbol: string; timeframe: string; data: TCandle }
  | { type: 'batch'; data: TServerMessage[] }
  /** The broker changed its market configuration: specs (volumes, switches) should be read again. */
  | { type: 'config'; time: number };

interface TQuoteListener {
  symbols: ReadonlySet<string>;
  notify(changed: TQuote[]): void;
}

const klineKey = (symbol: string, timeframe: string) => `${symbol}|${timeframe}`;

/** User Timing mark of the first quote the stream delivered on this page. */
export const FIRST_QUOTE_MARK = 'market-stream:first-quote';

/**
 * One WebSocket to /ws/market shared by every screen. Streams are reference-counted: the first
 * subscriber of a symbol subscribes on the server, the last one unsubscribes. The client keeps the
 * newest quote and candle of each stream, reconnects by itself with backoff and subscribes again to
 * everything after a reconnect.
 */
export class MarketStream {
  private readonly connection: ReconnectingSocket<TServerMessage>;
  private readonly quoteRefs = new Map<string, number>();
  private readonly klineRefs = new Map<string, number>();
  private readonly quotes = new Map<string, TQuote>();
  /** When each symbol's quote last changed here (client clock): how long it has not ticked. */
  private readonly receivedAt = new Map<string, number>();
  private readonly candles = new Map<string, TCandle>();
  private readonly quoteListeners = new Set<TQuoteListener>();
  private readonly klineListeners = new Map<string, Set<(candle: TCandle) => void>>();
  private readonly stateListeners = new Set<(state: TConnectionState) => void>();
  private readonly configListeners = new Set<() => void>();
  private firstQuoteMarked = false;

  constructor(options: { url: () => string; createSocket: TSocketFactory; random?: () => number }) {
    this.connection = new ReconnectingSocket({
      ...options,
      idle: {
        checkMs: MARKET_TIMING.idleCheckMs,
        silenceMs: MARKET_TIMING.idlePingMs,
        answerMs: MARKET_TIMING.pingAnswerMs,
        ping: { op: 'ping' },
      },
      lingerMs: MARKET_TIMING.lingerMs,
      wanted: () => this.hasSubscriptions(),
      onState: (state) => {
        for (const listener of this.stateListeners) listener(state);
      },
      onOpen: () => this.onOpen(),
      onMessage: (message) => this.onMessage(message),
    });
  }

  /** Called when the broker changes its market configuration (symbol specs may have changed). */
  onConfig(listener: () => void): () => void {
    this.configListeners.add(listener);
    return () => this.configListeners.delete(listener);
  }

  getState(): TConnectionState {
    return this.connection.getState();
  }

  /** The connection as the screens judge it: its state, since when, and whether it was open before. */
  getLink(): TStreamLink {
    return {
      state: this.connection.getState(),
      since: this.connection.getStateSince(),
      wasOpen: this.connection.hasBeenOpen(),
    };
  }

  /** When the quote of `symbol` last changed (client clock), if it ever arrived. */
  lastTick(symbol: string): number | undefined {
    return this.receivedAt.get(symbol);
  }

  onState(listener: (state: TConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  quote(symbol: string): TQuote | undefined {
    return this.quotes.get(symbol);
  }

  candle(symbol: string, timeframe: string): TCandle | undefined {
    return this.candles.get(klineKey(symbol, timeframe));
  }

  /** Quotes of `symbols`; the listener gets the changed ones of each server message. */
  subscribeQuotes(symbols: readonly string[], notify: (changed: TQuote[]) => void): () => void {
    const unique = [...new Set(symbols)];
    const listener: TQuoteListener = { symbols: new Set(unique), notify };
    this.quoteListeners.add(listener);
    const added = unique.filter((s) => this.addRef(this.quoteRefs, s));
    if (added.length > 0 && this.connection.isOpen()) this.sendQuotes('subscribe', added);
    this.connection.activate();
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.quoteListeners.delete(listener);
      const removed = unique.filter((s) => this.removeRef(this.quoteRefs, s));
      for (const s of removed) {
        this.quotes.delete(s);
        this.receivedAt.delete(s);
      }
      if (removed.length > 0 && this.connection.isOpen()) this.sendQuotes('unsubscribe', removed);
      this.connection.linger();
    };
  }

  /** The running candle of a symbol and timeframe, live. */
  subscribeKline(symbol: string, timeframe: string, notify: (candle: TCandle) => void): () => void {
    const key = klineKey(symbol, timeframe);
    const listeners = this.klineListeners.get(key) ?? new Set();
    listeners.add(notify);
    this.klineListeners.set(key, listeners);
    if (this.addRef(this.klineRefs, key) && this.connection.isOpen()) this.sendKline('subscribe', key);
    this.connection.activate();
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      listeners.delete(notify);
      if (listeners.size === 0) this.klineListeners.delete(key);
      if (this.removeRef(this.klineRefs, key)) {
        this.candles.delete(key);
        if (this.connection.isOpen()) this.sendKline('unsubscribe', key);
      }
      this.connection.linger();
    };
  }

  /** Reconnects at once when waiting for a retry (the browser came back online or to the front). */
  retryNow() {
    this.connection.retryNow();
  }

  /** Checks at once that the connection still answers (the browser went offline). */
  probe() {
    this.connection.probe();
  }

  dispose() {
    this.connection.dispose();
  }

  private addRef(refs: Map<string, number>, key: string): boolean {
    const count = refs.get(key) ?? 0;
    refs.set(key, count + 1);
    return count === 0;
  }

  private removeRef(refs: Map<string, number>, key: string): boolean {
    const count = refs.get(key) ?? 0;
    if (count <= 1) {
      refs.delete(key);
      return count === 1;
    }
    refs.set(key, count - 1);
    return false;
  }

  private hasSubscriptions(): boolean {
    return this.quoteRefs.size > 0 || this.klineRefs.size > 0;
  }

  private onOpen() {
    const symbols = [...this.quoteRefs.keys()];
    if (symbols.length > 0) this.sendQuotes('subscribe', symbols);
    for (const key of this.klineRefs.keys()) this.sendKline('subscribe', key);
  }

  private onMessage(message: TServerMessage) {
    const changedQuotes: TQuote[] = [];
    const changedCandles = new Map<string, TCandle>();
    this.apply(message, changedQuotes, changedCandles);
    if (changedQuotes.length > 0) {
      // The page's first streamed quote, as a User Timing mark: `npm run bench:pages` reads it as the
      // moment a screen's prices are live.
      if (!this.firstQuoteMarked && typeof performance !== 'undefined' && 'mark' in performance) {
        this.firstQuoteMarked = true;
        performance.mark(FIRST_QUOTE_MARK);
      }
      for (const listener of this.quoteListeners) {
        const mine = changedQuotes.filter((q) => listener.symbols.has(q.symbol));
        if (mine.length > 0) listener.notify(mine);
      }
    }
    for (const [key, candle] of changedCandles) {
      for (const notify of this.klineListeners.get(key) ?? []) notify(candle);
    }
  }

  private apply(message: TServerMessage, quotes: TQuote[], candles: Map<string, TCandle>) {
    switch (message.type) {
      case 'batch':
        for (const inner of message.data) this.apply(inner, quotes, candles);
        return;
      case 'snapshot':
        if (message.channel === 'quote') {
          for (const quote of message.data) this.applyQuote(quote, quotes);
        } else if (message.data) {
          this.applyCandle(klineKey(message.symbol, message.timeframe), message.data, candles);
        }
        return;
      case 'quote':
        this.applyQuote(message.data, quotes);
        return;
      case 'kline':
        this.applyCandle(klineKey(message.symbol, message.timeframe), message.data, candles);
        return;
      case 'config':
        for (const listener of this.configListeners) listener();
        return;
      default:
        return;
    }
  }

  private applyQuote(quote: TQuote, changed: TQuote[]) {
    if (!this.quoteRefs.has(quote.symbol)) return;
    const current = this.quotes.get(quote.symbol);
    const next = mergeQuote(current, quote);
    if (next === current) return;
    this.quotes.set(quote.symbol, next);
    this.receivedAt.set(quote.symbol, Date.now());
    const at = changed.findIndex((q) => q.symbol === quote.symbol);
    if (at >= 0) changed[at] = next;
    else changed.push(next);
  }

  private applyCandle(key: string, candle: TCandle, changed: Map<string, TCandle>) {
    if (!this.klineRefs.has(key)) return;
    const current = this.candles.get(key);
    if (current && current.time > candle.time) return;
    this.candles.set(key, candle);
    changed.set(key, candle);
  }

  private sendQuotes(op: 'subscribe' | 'unsubscribe', symbols: string[]) {
    for (let i = 0; i < symbols.length; i += MAX_SYMBOLS_PER_MESSAGE) {
      this.connection.send({ op, channel: 'quote', symbols: symbols.slice(i, i + MAX_SYMBOLS_PER_MESSAGE) });
    }
  }

  private sendKline(op: 'subscribe' | 'unsubscribe', key: string) {
    const [symbol, timeframe] = key.split('|');
    this.connection.send({ op, channel: 'kline', symbol, timeframe });
  }
}

let shared: MarketStream | null = null;

/** The page's one market stream (browser only). */
export function marketStream(): MarketStream {
  shared ??= browserStream('/ws/market', (options) => new MarketStream(options));
  return shared;
}

const noSubscribe = () => () => undefined;
const subscribeState = (listener: () => void) => marketStream().onState(listener);
const streamState = () => marketStream().getState();
const serverState = (): TConnectionState => 'idle';

/** The stream's connection state; 'idle' during server rendering. */
export function useStreamState(): TConnectionState {
  return useSyncExternalStore(
    typeof window === 'undefined' ? noSubscribe : subscribeState,
    streamState,
    serverState,
  );
}

/** The stream's connection as the terminal judges it. */
export interface TStreamLink {
  state: TConnectionState;
  /** When the state last changed (client clock). */
  since: number;
  /** A connection was open before this state: waiting now is an outage, not the first connect. */
  wasOpen: boolean;
}

/** How the stream's badge reads: live, first connecting, reconnecting after an outage, or offline. */
export type TStreamHealth = 'live' | 'connecting' | 'reconnecting' | 'offline';

/**
 * When prices count as not live. A drop shorter than `outageGraceMs` (a server restart, a quick
 * reconnect) is not announced; a first connection is given `firstConnectMs`; a quote counts as stale
 * while the stream is down once it has not ticked for `staleAfterMs`. A quiet market alone never
 * makes a quote stale: only a stream that is down does.
 */
export const STREAM_HEALTH_TIMING = {
  outageGraceMs: 1500,
  firstConnectMs: 8000,
  staleAfterMs: 4000,
  /** How often the screens look again while the stream is down. */
  tickMs: 500,
} as const;

/** The badge of the stream and whether prices are down (not live) at `now`. */
export function streamHealth({ link, online, now }: { link: TStreamLink; online: boolean; now: number }): {
  health: TStreamHealth;
  down: boolean;
} {
  if (link.state === 'open') return { health: 'live', down: false };
  if (!online) return { health: 'offline', down: true };
  if (link.state === 'idle') return { health: 'connecting', down: false };
  const elapsed = now - link.since;
  if (link.state === 'reconnecting' || link.wasOpen)
    return { health: 'reconnecting', down: elapsed >= STREAM_HEALTH_TIMING.outageGraceMs };
  return { health: 'connecting', down: elapsed >= STREAM_HEALTH_TIMING.firstConnectMs };
}

/** A quote is stale while prices are down and it has not ticked for a few seconds (or never did). */
export function isQuoteStale({
  down,
  lastTick,
  now,
}: {
  down: boolean;
  lastTick: number | undefined;
  now: number;
}): boolean {
  return down && (lastTick === undefined || now - lastTick >= STREAM_HEALTH_TIMING.staleAfterMs);
}

function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/**
 * The stream's badge and whether prices are down, re-judged on every state change, on the browser
 * going on- or offline, and every half second while the stream is not live (the grace runs out).
 */
export function useStreamHealth(): { health: TStreamHealth; down: boolean; now: number } {
  const state = useStreamState();
  const [online, setOnline] = useState(true);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const update = () => setOnline(browserOnline());
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  const live = state === 'open' && online;
  // The clock as first rendered is the mount's: only a later state sets it again (one render less
  // for every user of this hook while a page hydrates).
  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new state restarts the clock
  useEffect(() => {
    if (mounted.current) setNow(Date.now());
    mounted.current = true;
    if (live) return;
    const timer = setInterval(() => setNow(Date.now()), STREAM_HEALTH_TIMING.tickMs);
    return () => clearInterval(timer);
  }, [live, state]);
  if (typeof window === 'undefined') return { health: 'connecting', down: false, now };
  const judged = streamHealth({ link: marketStream().getLink(), online, now: Math.max(now, Date.now()) });
  return { ...judged, now };
}

/** The symbols among `symbols` whose quotes are stale (see `isQuoteStale`); empty while prices are live. */
export function staleSymbols(symbols: readonly string[], down: boolean, now: number): ReadonlySet<string> {
  if (!down) return EMPTY_SET;
  const stream = marketStream();
  return new Set(symbols.filter((symbol) => isQuoteStale({ down, lastTick: stream.lastTick(symbol), now })));
}

const EMPTY_SET: ReadonlySet<string> = new Set();

function sameQuotes(a: Record<string, TQuote>, b: Record<string, TQuote>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((symbol) => a[symbol] === b[symbol]);
}

/** The newest quote of each symbol, live from the stream. */
export function useQuotes(symbols: readonly string[]): Record<string, TQuote> {
  const key = [...new Set(symbols)].sort().join(',');
  const [quotes, setQuotes] = useState<Record<string, TQuote>>({});
  useEffect(() => {
    if (!key) {
      setQuotes((previous) => (Object.keys(previous).length === 0 ? previous : {}));
      return;
    }
    const list = key.split(',');
    const stream = marketStream();
    const initial: Record<string, TQuote> = {};
    for (const symbol of list) {
      const quote = stream.quote(symbol);
      if (quote) initial[symbol] = quote;
    }
    // The same quotes keep the same object: no render when the stream has nothing new (a page's
    // first subscription, before the stream's first message).
    setQuotes((previous) => (sameQuotes(previous, initial) ? previous : initial));
    // Streamed prices render as a transition (here, in the candles and in the account's figures):
    // React renders them in slices between other work, so a batch of ticks on a slow phone is never
    // one long task, and a tap is handled before them.
    return stream.subscribeQuotes(list, (changed) =>
      startTransition(() =>
        setQuotes((previous) => {
          const next = { ...previous };
          for (const quote of changed) next[quote.symbol] = quote;
          return next;
        }),
      ),
    );
  }, [key]);
  return quotes;
}

/** The newer of a loaded quote and the streamed one. */
export function latestQuote<T extends TQuote>(loaded: T, live: TQuote | undefined): T {
  return live && live.time >= loaded.time ? { ...loaded, ...live } : loaded;
}

/**
 * Loaded quotes (with names) overlaid with the live ones. A row's object only changes when its own
 * quote does, so memoised rows re-render only on their own ticks.
 */
export function useMergedQuotes<T extends TQuote>(items: readonly T[], live: Record<string, TQuote>): T[] {
  const cache = useRef(new Map<string, { loaded: T; live: TQuote | undefined; merged: T }>());
  return useMemo(
    () =>
      items.map((loaded) => {
        const current = live[loaded.symbol];
        const cached = cache.current.get(loaded.symbol);
        if (cached && cached.loaded === loaded && cached.live === current) return cached.merged;
        const merged = latestQuote(loaded, current);
        cache.current.set(loaded.symbol, { loaded, live: current, merged });
        return merged;
      }),
    [items, live],
  );
}

export interface TCandlesView {
  status: 'loading' | 'ready' | 'error';
  candles: TCandle[];
  digits: number | null;
  hasMore: boolean;
  loadingOlder: boolean;
  reload(): void;
  loadOlder(): void;
}

const BARS_PER_REQUEST = 500;
const TIMEFRAME_SECONDS: Record<TTimeframe, number> = {
  M1: 60,
  M5: 300,
  M15: 900,
  M30: 1800,
  H1: 3600,
  H4: 14_400,
  D1: 86_400,
  W1: 604_800,
  MN: 2_678_400,
};

/**
 * The window to ask for `limit` bars ending at `to`: intraday windows reach three days further back,
 * so a weekend or holiday gap does not leave the chart nearly empty.
 */
export function klineWindow(timeframe: TTimeframe, to: number, limit: number): { from: number; to: number } {
  const span = TIMEFRAME_SECONDS[timeframe] * 1000 * limit;
  const intraday = TIMEFRAME_SECONDS[timeframe] < 86_400;
  const from = intraday ? to - span * 2 - 3 * 86_400_000 : to - span * 1.5;
  return { from: Math.max(0, Math.floor(from)), to };
}

interface TCandlesState {
  status: 'loading' | 'ready' | 'error';
  candles: TCandle[];
  digits: number | null;
  hasMore: boolean;
  loadingOlder: boolean;
}

/**
 * Candle history through `kline`, then the live candle from the stream: the same time replaces the
 * last bar, a newer time appends one. Older bars load on demand with `to` = first bar time − 1.
 */
export function useCandles(symbol: string, timeframe: TTimeframe, lang: string): TCandlesView {
  const [state, setState] = useState<TCandlesState>({
    status: 'loading',
    candles: [],
    digits: null,
    hasMore: true,
    loadingOlder: false,
  });
  const [attempt, setAttempt] = useState(0);
  const stateRef = useRef(state);
  stateRef.current = state;
  const request = useRef(0);
  const loadingOlder = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-runs the load on reload()
  useEffect(() => {
    const id = ++request.current;
    loadingOlder.current = false;
    const pending: TCandle[] = [];
    let loaded = false;
    // Already so on a first load: the same state spares the chart's screen a render while it hydrates.
    setState((s) =>
      s.status === 'loading' && s.candles.length === 0 && s.digits === null && s.hasMore && !s.loadingOlder
        ? s
        : { status: 'loading', candles: [], digits: null, hasMore: true, loadingOlder: false },
    );
    const unsubscribe = marketStream().subscribeKline(symbol, timeframe, (candle) => {
      if (!loaded) {
        pending.push(candle);
        return;
      }
      startTransition(() => setState((s) => ({ ...s, candles: mergeCandle(s.candles, candle) })));
    });
    void callRoute(
      'kline',
      { symbol, timeframe, ...klineWindow(timeframe, Date.now(), BARS_PER_REQUEST), limit: BARS_PER_REQUEST },
      lang,
    ).then((answer) => {
      if (id !== request.current) return;
      if (!answer.succeed || !answer.Data) {
        setState((s) => ({ ...s, status: 'error' }));
        return;
      }
      loaded = true;
      let candles = answer.Data.candles;
      for (const candle of pending) candles = mergeCandle(candles, candle);
      const hasMore = answer.Data.candles.length > 0;
      const digits = answer.Data.digits;
      startTransition(() => setState({ status: 'ready', candles, digits, hasMore, loadingOlder: false }));
    });
    return () => {
      request.current++;
      unsubscribe();
    };
  }, [symbol, timeframe, lang, attempt]);

  const loadOlder = useCallback(() => {
    const current = stateRef.current;
    const first = current.candles[0];
    if (current.status !== 'ready' || loadingOlder.current || !current.hasMore || !first) return;
    const id = request.current;
    loadingOlder.current = true;
    setState((s) => ({ ...s, loadingOlder: true }));
    void callRoute(
      'kline',
      {
        symbol,
        timeframe,
        ...klineWindow(timeframe, first.time - 1, BARS_PER_REQUEST),
        limit: BARS_PER_REQUEST,
      },
      lang,
    ).then((answer) => {
      loadingOlder.current = false;
      if (id !== request.current) return;
      const older = answer.succeed && answer.Data ? answer.Data.candles : null;
      setState((s) => {
        const candles = older ? prependCandles(s.candles, older) : s.candles;
        return {
          ...s,
          loadingOlder: false,
          // A failed page may be retried by scrolling again; one without older bars ends the history.
          hasMore: older === null || candles.length > s.candles.length,
          candles,
        };
      });
    });
  }, [symbol, timeframe, lang]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload, loadOlder };
}

/**
 * Data polled rather than streamed: the first fetch after the default delay, then every refresh
 * interval while the page is visible. Answers of a superseded fetch are dropped.
 */
export function usePolling<T>(
  fetcher: (() => Promise<T>) | null,
  key: string,
  options: { delayMs?: number; keepPrevious?: boolean } = {},
): { data: T | null; error: boolean; loading: boolean; retry(): void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const delayMs = options.delayMs ?? MARKET_TIMING.fetchDelayMs;
  const keepPrevious = options.keepPrevious ?? false;

  // biome-ignore lint/correctness/useExhaustiveDependencies: key and attempt restart the polling
  useEffect(() => {
    if (!fetcherRef.current) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const run = async () => {
      timer = null;
      const fetchNow = fetcherRef.current;
      if (!fetchNow) return;
      if (document.visibilityState !== 'hidden') {
        try {
          const value = await fetchNow();
          if (cancelled) return;
          setData(value);
          setError(false);
        } catch {
          if (cancelled) return;
          setError(true);
        }
      }
      if (!cancelled) timer = setTimeout(run, MARKET_TIMING.refreshMs);
    };
    setError(false);
    if (!keepPrevious) setData(null);
    timer = setTimeout(run, delayMs);
    return () => {
      cancelled = true;
      if (timer !== null) clearTimeout(timer);
    };
  }, [key, attempt, delayMs, keepPrevious]);

  const retry = useCallback(() => {
    setData(null);
    setError(false);
    setAttempt((n) => n + 1);
  }, []);
  return { data, error, loading: data === null && !error, retry };
}

import type { TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { callRoute } from './api';

export type TNamedQuote = TRouteOutput<'currencyall'>[number];
export type TQuote = Omit<TNamedQuote, 'name' | 'category'>;
export type TCandle = TRouteOutput<'kline'>['candles'][number];
export type TTimeframe = TRouteOutput<'kline'>['timeframe'];
export type TConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting';

/**
 * Every timing of market data in one place. Polled data (spec 9) refreshes every 3000 ms and its
 * first fetch waits the default 200 ms; the stream reconnects from 0.5 s doubling to 10 s and pings
 * after 20 s of silence.
 */
export const MARKET_TIMING = {
  refreshMs: 3000,
  fetchDelayMs: 200,
  debounceMs: 200,
  idlePingMs: 20_000,
  idleCheckMs: 1000,
  reconnectMinMs: 500,
  reconnectMaxMs: 10_000,
  /** The socket stays open this long after the last unsubscribe, so a page change does not reconnect. */
  lingerMs: 5000,
} as const;

/** The server accepts up to this many quote symbols per subscription. */
const MAX_SYMBOLS_PER_MESSAGE = 200;

/** Delay before reconnect attempt `attempt` (0-based): 0.5 s doubling to 10 s, ±20 % jitter. */
export function reconnectDelay(attempt: number, random: number): number {
  const base = Math.min(MARKET_TIMING.reconnectMaxMs, MARKET_TIMING.reconnectMinMs * 2 ** attempt);
  return Math.min(MARKET_TIMING.reconnectMaxMs, Math.round(base * (0.8 + 0.4 * random)));
}

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

export interface TSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
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

const OPEN = 1;
const klineKey = (symbol: string, timeframe: string) => `${symbol}|${timeframe}`;

/**
 * One WebSocket to /ws/market shared by every screen. Streams are reference-counted: the first
 * subscriber of a symbol subscribes on the server, the last one unsubscribes. The client keeps the
 * newest quote and candle of each stream, reconnects by itself with backoff and subscribes again to
 * everything after a reconnect.
 */
export class MarketStream {
  private socket: TSocketLike | null = null;
  private generation = 0;
  private state: TConnectionState = 'idle';
  private attempt = 0;
  private lastMessageAt = 0;
  private pingSentAt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private lingerTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setInterval> | null = null;
  private readonly quoteRefs = new Map<string, number>();
  private readonly klineRefs = new Map<string, number>();
  private readonly quotes = new Map<string, TQuote>();
  private readonly candles = new Map<string, TCandle>();
  private readonly quoteListeners = new Set<TQuoteListener>();
  private readonly klineListeners = new Map<string, Set<(candle: TCandle) => void>>();
  private readonly stateListeners = new Set<(state: TConnectionState) => void>();
  private readonly configListeners = new Set<() => void>();

  constructor(
    private readonly options: { url: () => string; createSocket: TSocketFactory; random?: () => number },
  ) {}

  /** Called when the broker changes its market configuration (symbol specs may have changed). */
  onConfig(listener: () => void): () => void {
    this.configListeners.add(listener);
    return () => this.configListeners.delete(listener);
  }

  getState(): TConnectionState {
    return this.state;
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
    if (added.length > 0 && this.isOpen()) this.sendQuotes('subscribe', added);
    this.activate();
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.quoteListeners.delete(listener);
      const removed = unique.filter((s) => this.removeRef(this.quoteRefs, s));
      for (const s of removed) this.quotes.delete(s);
      if (removed.length > 0 && this.isOpen()) this.sendQuotes('unsubscribe', removed);
      this.deactivateIfUnused();
    };
  }

  /** The running candle of a symbol and timeframe, live. */
  subscribeKline(symbol: string, timeframe: string, notify: (candle: TCandle) => void): () => void {
    const key = klineKey(symbol, timeframe);
    const listeners = this.klineListeners.get(key) ?? new Set();
    listeners.add(notify);
    this.klineListeners.set(key, listeners);
    if (this.addRef(this.klineRefs, key) && this.isOpen()) this.sendKline('subscribe', key);
    this.activate();
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      listeners.delete(notify);
      if (listeners.size === 0) this.klineListeners.delete(key);
      if (this.removeRef(this.klineRefs, key)) {
        this.candles.delete(key);
        if (this.isOpen()) this.sendKline('unsubscribe', key);
      }
      this.deactivateIfUnused();
    };
  }

  /** Reconnects at once when waiting for a retry (the browser came back online or to the front). */
  retryNow() {
    if (this.reconnectTimer === null) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.connect();
  }

  dispose() {
    this.closeSocket();
    this.clearTimers();
    this.setState('idle');
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

  private isOpen(): boolean {
    return this.state === 'open' && this.socket?.readyState === OPEN;
  }

  private activate() {
    if (this.lingerTimer !== null) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
    }
    if (!this.socket && this.reconnectTimer === null) this.connect();
  }

  private deactivateIfUnused() {
    if (this.hasSubscriptions() || this.lingerTimer !== null) return;
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = null;
      if (this.hasSubscriptions()) return;
      this.closeSocket();
      this.clearTimers();
      this.attempt = 0;
      this.setState('idle');
    }, MARKET_TIMING.lingerMs);
  }

  private connect() {
    const generation = ++this.generation;
    this.setState(this.attempt > 0 ? 'reconnecting' : 'connecting');
    const current = () => generation === this.generation;
    try {
      this.socket = this.options.createSocket(this.options.url(), {
        open: () => current() && this.onOpen(),
        message: (data) => current() && this.onMessage(data),
        close: () => current() && this.onClose(),
      });
    } catch {
      this.socket = null;
      this.scheduleReconnect();
    }
  }

  private onOpen() {
    this.setState('open');
    this.lastMessageAt = Date.now();
    this.pingSentAt = 0;
    const symbols = [...this.quoteRefs.keys()];
    if (symbols.length > 0) this.sendQuotes('subscribe', symbols);
    for (const key of this.klineRefs.keys()) this.sendKline('subscribe', key);
    if (this.idleTimer === null) {
      this.idleTimer = setInterval(() => this.checkIdle(), MARKET_TIMING.idleCheckMs);
    }
  }

  private onClose() {
    this.socket = null;
    this.stopIdleTimer();
    if (this.hasSubscriptions()) this.scheduleReconnect();
    else this.setState('idle');
  }

  private scheduleReconnect() {
    if (this.reconnectTimer !== null) return;
    const delay = reconnectDelay(this.attempt, (this.options.random ?? Math.random)());
    this.attempt++;
    this.setState('reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.hasSubscriptions()) this.connect();
      else this.setState('idle');
    }, delay);
  }

  /** Pings after 20 s of silence; a connection silent for another 20 s after the ping is dropped. */
  private checkIdle() {
    if (!this.isOpen()) return;
    const now = Date.now();
    if (this.pingSentAt > this.lastMessageAt) {
      if (now - this.pingSentAt >= MARKET_TIMING.idlePingMs) {
        this.closeSocket();
        this.onClose();
      }
      return;
    }
    if (now - this.lastMessageAt >= MARKET_TIMING.idlePingMs) {
      this.pingSentAt = now;
      this.send({ op: 'ping' });
    }
  }

  private onMessage(raw: string) {
    this.lastMessageAt = Date.now();
    let message: TServerMessage;
    try {
      message = JSON.parse(raw) as TServerMessage;
    } catch {
      return;
    }
    if (message.type === 'welcome') this.attempt = 0;
    const changedQuotes: TQuote[] = [];
    const changedCandles = new Map<string, TCandle>();
    this.apply(message, changedQuotes, changedCandles);
    if (changedQuotes.length > 0) {
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
      this.send({ op, channel: 'quote', symbols: symbols.slice(i, i + MAX_SYMBOLS_PER_MESSAGE) });
    }
  }

  private sendKline(op: 'subscribe' | 'unsubscribe', key: string) {
    const [symbol, timeframe] = key.split('|');
    this.send({ op, channel: 'kline', symbol, timeframe });
  }

  private send(message: unknown) {
    if (this.socket?.readyState !== OPEN) return;
    try {
      this.socket.send(JSON.stringify(message));
    } catch {
      // the close handler reconnects
    }
  }

  private closeSocket() {
    const socket = this.socket;
    this.socket = null;
    this.generation++;
    this.stopIdleTimer();
    try {
      socket?.close();
    } catch {
      // already closed
    }
  }

  private stopIdleTimer() {
    if (this.idleTimer !== null) clearInterval(this.idleTimer);
    this.idleTimer = null;
  }

  private clearTimers() {
    this.stopIdleTimer();
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    if (this.lingerTimer !== null) clearTimeout(this.lingerTimer);
    this.reconnectTimer = null;
    this.lingerTimer = null;
  }

  private setState(state: TConnectionState) {
    if (state === this.state) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }
}

const browserSocket: TSocketFactory = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.onopen = () => handlers.open();
  socket.onmessage = (event) => {
    if (typeof event.data === 'string') handlers.message(event.data);
  };
  socket.onclose = () => handlers.close();
  return socket;
};

let shared: MarketStream | null = null;

/** The page's one market stream (browser only). */
export function marketStream(): MarketStream {
  if (shared) return shared;
  const stream = new MarketStream({
    url: () => `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/market`,
    createSocket: browserSocket,
  });
  window.addEventListener('online', () => stream.retryNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') stream.retryNow();
  });
  shared = stream;
  return stream;
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

/** The newest quote of each symbol, live from the stream. */
export function useQuotes(symbols: readonly string[]): Record<string, TQuote> {
  const key = [...new Set(symbols)].sort().join(',');
  const [quotes, setQuotes] = useState<Record<string, TQuote>>({});
  useEffect(() => {
    if (!key) {
      setQuotes({});
      return;
    }
    const list = key.split(',');
    const stream = marketStream();
    const initial: Record<string, TQuote> = {};
    for (const symbol of list) {
      const quote = stream.quote(symbol);
      if (quote) initial[symbol] = quote;
    }
    setQuotes(initial);
    return stream.subscribeQuotes(list, (changed) =>
      setQuotes((previous) => {
        const next = { ...previous };
        for (const quote of changed) next[quote.symbol] = quote;
        return next;
      }),
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
    setState({ status: 'loading', candles: [], digits: null, hasMore: true, loadingOlder: false });
    const unsubscribe = marketStream().subscribeKline(symbol, timeframe, (candle) => {
      if (!loaded) {
        pending.push(candle);
        return;
      }
      setState((s) => ({ ...s, candles: mergeCandle(s.candles, candle) }));
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
      setState({
        status: 'ready',
        candles,
        digits: answer.Data.digits,
        hasMore: answer.Data.candles.length > 0,
        loadingOlder: false,
      });
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

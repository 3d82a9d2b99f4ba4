import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { isTimeframe, type TTimeframe } from '@broker/domain/market/timeframes';
import { fromPoints } from '@broker/domain/price-format';
import { type WebSocket, WebSocketServer } from 'ws';
import type { MarketService, TMarketEvent } from '../modules/market';
import { heartbeatRound } from './socket-heartbeat';

export const STREAM_PATH = '/ws/market';
const FLUSH_MS = 100;
const HEARTBEAT_MS = 15_000;
/** Above this many unsent bytes a client is slow: it keeps only the newest value of each stream. */
const SLOW_CLIENT_BYTES = 256 * 1024;
const MAX_SUBSCRIPTIONS = 200;

interface TClient {
  socket: WebSocket;
  /** The broker whose host the client connected to: its markup and specs apply. */
  tenantId: string | undefined;
  quotes: Set<string>;
  klines: Set<string>;
  /** Newest update per stream, already serialized once for every client that wants it. */
  pending: Map<string, string>;
  alive: boolean;
}

type TClientMessage =
  | { op: 'subscribe' | 'unsubscribe'; channel: 'quote'; symbols: string[] }
  | { op: 'subscribe' | 'unsubscribe'; channel: 'kline'; symbol: string; timeframe: TTimeframe }
  | { op: 'ping' };

function parseMessage(raw: string): TClientMessage | null {
  try {
    const message = JSON.parse(raw) as Record<string, unknown>;
    if (message.op === 'ping') return { op: 'ping' };
    if (message.op !== 'subscribe' && message.op !== 'unsubscribe') return null;
    if (
      message.channel === 'quote' &&
      Array.isArray(message.symbols) &&
      message.symbols.every((s) => typeof s === 'string')
    ) {
      return {
        op: message.op,
        channel: 'quote',
        symbols: (message.symbols as string[]).slice(0, MAX_SUBSCRIPTIONS),
      };
    }
    if (
      message.channel === 'kline' &&
      typeof message.symbol === 'string' &&
      typeof message.timeframe === 'string' &&
      isTimeframe(message.timeframe)
    ) {
      return { op: message.op, channel: 'kline', symbol: message.symbol, timeframe: message.timeframe };
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * The market stream: clients subscribe to quotes and candles per symbol, get a snapshot at once,
 * then updates coalesced every 100 ms (only the newest value per stream is sent, so a slow client
 * never works through a backlog), and a heartbeat every 15 s; dead connections are dropped.
 */
export class MarketStream {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    perMessageDeflate: false,
  });
  private readonly clients = new Set<TClient>();
  /** Who wants which stream, so a tick touches only its subscribers. */
  private readonly quoteSubscribers = new Map<string, Set<TClient>>();
  private readonly klineSubscribers = new Map<string, Set<TClient>>();
  private readonly flushTimer: NodeJS.Timeout;
  private readonly heartbeatTimer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  messagesSent = 0;

  constructor(
    private readonly market: MarketService,
    /** The broker a connection belongs to, from its Host header. */
    private readonly tenantOf: (host: string | undefined) => Promise<string | undefined> = async () =>
      undefined,
  ) {
    this.unsubscribe = market.subscribe((event) => this.onEvent(event));
    this.wss.on('connection', (socket: WebSocket, tenantId: string | undefined) =>
      this.onConnection(socket, tenantId),
    );
    this.flushTimer = setInterval(() => this.flushAll(), FLUSH_MS);
    this.heartbeatTimer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.flushTimer.unref?.();
    this.heartbeatTimer.unref?.();
  }

  get connections(): number {
    return this.clients.size;
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = (request.url ?? '').split('?')[0];
    if (path !== STREAM_PATH) return false;
    this.tenantOf(request.headers.host).then(
      (tenantId) =>
        this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, tenantId)),
      () => socket.destroy(),
    );
    return true;
  }

  close() {
    this.unsubscribe();
    clearInterval(this.flushTimer);
    clearInterval(this.heartbeatTimer);
    for (const client of this.clients) client.socket.terminate();
    this.wss.close();
  }

  private onConnection(socket: WebSocket, tenantId: string | undefined) {
    const client: TClient = {
      socket,
      tenantId,
      quotes: new Set(),
      klines: new Set(),
      pending: new Map(),
      alive: true,
    };
    this.clients.add(client);
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('message', (data) => this.onMessage(client, data.toString()));
    socket.on('close', () => this.drop(client));
    socket.on('error', () => socket.terminate());
    this.send(client, { type: 'welcome', time: Date.now(), heartbeatMs: HEARTBEAT_MS });
  }

  private onMessage(client: TClient, raw: string) {
    const message = parseMessage(raw);
    if (!message) return this.send(client, { type: 'error', code: -9001, message: 'bad message' });
    if (message.op === 'ping') return this.send(client, { type: 'pong', time: Date.now() });
    if (message.channel === 'quote') {
      const known = message.symbols.filter((s) => this.market.spec(s, client.tenantId));
      if (message.op === 'unsubscribe') {
        for (const s of known) this.unindex(this.quoteSubscribers, client.quotes, s, client);
        return this.send(client, { type: 'unsubscribed', channel: 'quote', symbols: known });
      }
      for (const s of known)
        if (client.quotes.size < MAX_SUBSCRIPTIONS)
          this.index(this.quoteSubscribers, client.quotes, s, client);
      return this.send(client, {
        type: 'snapshot',
        channel: 'quote',
        data: this.market.quotes(known, client.tenantId),
      });
    }
    const spec = this.market.spec(message.symbol);
    if (!spec) return this.send(client, { type: 'error', code: -3003, message: 'unknown symbol' });
    const key = `${message.symbol}|${message.timeframe}`;
    if (message.op === 'unsubscribe') {
      this.unindex(this.klineSubscribers, client.klines, key, client);
      return this.send(client, {
        type: 'unsubscribed',
        channel: 'kline',
        symbol: message.symbol,
        timeframe: message.timeframe,
      });
    }
    this.index(this.klineSubscribers, client.klines, key, client);
    void this.market.candles(message.symbol, message.timeframe, { limit: 1 }).then((candles) => {
      const candle = candles.at(-1);
      this.send(client, {
        type: 'snapshot',
        channel: 'kline',
        symbol: message.symbol,
        timeframe: message.timeframe,
        data: candle ? formatCandle(candle, spec.digits) : null,
      });
    });
  }

  private index(map: Map<string, Set<TClient>>, own: Set<string>, key: string, client: TClient) {
    own.add(key);
    let set = map.get(key);
    if (!set) {
      set = new Set();
      map.set(key, set);
    }
    set.add(client);
  }

  private unindex(map: Map<string, Set<TClient>>, own: Set<string>, key: string, client: TClient) {
    own.delete(key);
    const set = map.get(key);
    set?.delete(client);
    if (set?.size === 0) map.delete(key);
  }

  private drop(client: TClient) {
    for (const s of client.quotes) this.unindex(this.quoteSubscribers, new Set(), s, client);
    for (const k of client.klines) this.unindex(this.klineSubscribers, new Set(), k, client);
    this.clients.delete(client);
  }

  private onEvent(event: TMarketEvent) {
    if (event.type === 'config') {
      const json = JSON.stringify({ type: 'config', time: Date.now() });
      for (const client of this.clients)
        if (client.tenantId === event.tenantId) client.pending.set('config', json);
      return;
    }
    if (event.type === 'quote') {
      const subscribers = this.quoteSubscribers.get(event.quote.symbol);
      if (!subscribers) return;
      const symbol = event.quote.symbol;
      const key = `q|${symbol}`;
      // Serialized once per broker markup (most brokers share the feed's quote).
      const byMarkup = new Map<number, string>();
      for (const client of subscribers) {
        const markup = this.market.markupOf(symbol, client.tenantId);
        let json = byMarkup.get(markup);
        if (json === undefined) {
          const quote = markup === 0 ? event.quote : this.market.quote(symbol, client.tenantId);
          json = JSON.stringify({ type: 'quote', data: quote });
          byMarkup.set(markup, json);
        }
        client.pending.set(key, json);
      }
      return;
    }
    const key = `${event.symbol}|${event.timeframe}`;
    const subscribers = this.klineSubscribers.get(key);
    if (!subscribers) return;
    const json = JSON.stringify({
      type: 'kline',
      symbol: event.symbol,
      timeframe: event.timeframe,
      data: formatCandle(event.candle, this.market.spec(event.symbol)?.digits ?? 0),
    });
    for (const client of subscribers) client.pending.set(`k|${key}`, json);
  }

  private flushAll() {
    for (const client of this.clients) {
      if (client.pending.size === 0) continue;
      if (client.socket.bufferedAmount > SLOW_CLIENT_BYTES) continue;
      const parts = [...client.pending.values()];
      client.pending.clear();
      // Each update was serialized once for all clients; a batch only joins the strings.
      this.sendRaw(
        client,
        parts.length === 1 ? (parts[0] as string) : `{"type":"batch","data":[${parts.join(',')}]}`,
      );
    }
  }

  private heartbeat() {
    heartbeatRound(
      this.clients,
      (client) => this.drop(client),
      (client, message) => this.send(client, message),
    );
  }

  private send(client: TClient, message: unknown) {
    this.sendRaw(client, JSON.stringify(message));
  }

  private sendRaw(client: TClient, json: string) {
    if (client.socket.readyState !== client.socket.OPEN) return;
    client.socket.send(json);
    this.messagesSent++;
  }
}

export function formatCandle(
  candle: { time: number; open: number; high: number; low: number; close: number; volume: number },
  digits: number,
) {
  return {
    time: candle.time,
    open: fromPoints(candle.open, digits),
    high: fromPoints(candle.high, digits),
    low: fromPoints(candle.low, digits),
    close: fromPoints(candle.close, digits),
    volume: candle.volume,
  };
}

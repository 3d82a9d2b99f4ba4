/** The connection of a reconnecting socket, as its screens show it. */
export type TConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface TSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
}

/** Opens a socket; `close` gets the close code where the browser gives one. */
export type TReconnectingSocketFactory = (
  url: string,
  handlers: { open(): void; message(data: string): void; close(code?: number): void },
) => TSocketLike;

/** Reconnects from 0.5 s doubling to 10 s. */
export const RECONNECT_TIMING = { minMs: 500, maxMs: 10_000 } as const;

const OPEN = 1;

/** Delay before reconnect attempt `attempt` (0-based): 0.5 s doubling to 10 s, ±20 % jitter. */
export function reconnectDelay(attempt: number, random: number): number {
  const base = Math.min(RECONNECT_TIMING.maxMs, RECONNECT_TIMING.minMs * 2 ** attempt);
  return Math.min(RECONNECT_TIMING.maxMs, Math.round(base * (0.8 + 0.4 * random)));
}

export interface TReconnectingSocketOptions<TMessage, TEnd extends string> {
  url: () => string;
  createSocket: TReconnectingSocketFactory;
  random?: () => number;
  /** How often silence is checked, and after how long a silent connection is pinged or dropped. */
  idle: {
    checkMs: number;
    silenceMs: number;
    /**
     * Sent after `silenceMs` of silence; the connection is dropped after `answerMs` (default: as long
     * again) without an answer. Without a ping, a connection silent for `silenceMs` is dropped at once.
     */
    ping?: unknown;
    answerMs?: number;
  };
  /** The socket stays open this long after it is no longer wanted, so a page change does not reconnect. */
  lingerMs: number;
  /** Whether anyone needs the connection: it reconnects only while they do. */
  wanted(): boolean;
  /** The server closed with `code` for good (no reconnect until activated again): the state it leaves. */
  end?: { code: number; state: TEnd };
  onState(state: TConnectionState | TEnd): void;
  onOpen(): void;
  /** Every message but those that do not parse; a 'welcome' has already reset the backoff. */
  onMessage(message: TMessage): void;
  /** The connection closed, or was dropped as silent; called before any reconnect. */
  onClose?(): void;
}

/**
 * One WebSocket kept open while it is wanted: it reconnects with backoff after a close, pings or
 * drops a silent connection, and lingers a moment after the last user leaves. A socket replaced or
 * closed on purpose never reports again (each connection has its generation).
 */
export class ReconnectingSocket<TMessage extends { type: string }, TEnd extends string = never> {
  private socket: TSocketLike | null = null;
  private generation = 0;
  private state: TConnectionState | TEnd = 'idle';
  private stateSince = Date.now();
  private wasOpen = false;
  private attempt = 0;
  private lastMessageAt = 0;
  /** When the unanswered ping went out; 0 while none is. */
  private pingSentAt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private lingerTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: TReconnectingSocketOptions<TMessage, TEnd>) {}

  getState(): TConnectionState | TEnd {
    return this.state;
  }

  /** When the state last changed (ms since the epoch). */
  getStateSince(): number {
    return this.stateSince;
  }

  /** Whether a connection has been open since the socket was last idle: a later wait is an outage. */
  hasBeenOpen(): boolean {
    return this.wasOpen;
  }

  isOpen(): boolean {
    return this.state === 'open' && this.socket?.readyState === OPEN;
  }

  /** Someone needs the connection: stop lingering, and connect unless connected or waiting to retry. */
  activate() {
    if (this.lingerTimer !== null) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
    }
    if (this.options.end && this.state === this.options.end.state) this.setState('idle');
    if (!this.socket && this.reconnectTimer === null) this.connect();
  }

  /** Closes the socket after a moment unless it is wanted again by then. */
  linger() {
    if (this.options.wanted() || this.lingerTimer !== null) return;
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = null;
      if (this.options.wanted()) return;
      this.closeSocket();
      this.clearTimers();
      this.attempt = 0;
      this.setState('idle');
    }, this.options.lingerMs);
  }

  /** Reconnects at once when waiting for a retry (the browser came back online or to the front). */
  retryNow() {
    if (this.reconnectTimer === null) return;
    clearTimeout(this.reconnectTimer);
    this.retry();
  }

  send(message: unknown) {
    if (this.socket?.readyState !== OPEN) return;
    try {
      this.socket.send(JSON.stringify(message));
    } catch {
      // the close handler reconnects
    }
  }

  /**
   * Checks at once that the connection still answers (the browser said it went offline): pings now
   * and drops the connection if nothing arrives within the answer time. Without a ping it drops.
   */
  probe() {
    if (!this.isOpen()) return;
    const { ping } = this.options.idle;
    if (ping === undefined) {
      this.drop();
      return;
    }
    this.pingSentAt = Date.now();
    this.send(ping);
  }

  /** Drops a connection that stopped answering and reconnects. */
  drop() {
    if (!this.socket) return;
    this.closeSocket();
    this.onClose();
  }

  dispose() {
    this.closeSocket();
    this.clearTimers();
    this.setState('idle');
  }

  private connect() {
    const generation = ++this.generation;
    this.setState(this.attempt > 0 ? 'reconnecting' : 'connecting');
    const current = () => generation === this.generation;
    try {
      this.socket = this.options.createSocket(this.options.url(), {
        open: () => current() && this.onOpen(),
        message: (data) => current() && this.onMessage(data),
        close: (code) => current() && this.onClose(code),
      });
    } catch {
      this.socket = null;
      this.scheduleReconnect();
    }
  }

  private onOpen() {
    this.wasOpen = true;
    this.setState('open');
    this.lastMessageAt = Date.now();
    this.pingSentAt = 0;
    this.options.onOpen();
    this.idleTimer ??= setInterval(() => this.checkIdle(), this.options.idle.checkMs);
  }

  private onMessage(raw: string) {
    this.lastMessageAt = Date.now();
    this.pingSentAt = 0;
    let message: TMessage;
    try {
      message = JSON.parse(raw) as TMessage;
    } catch {
      return;
    }
    if (message.type === 'welcome') this.attempt = 0;
    this.options.onMessage(message);
  }

  private onClose(code?: number) {
    this.socket = null;
    this.stopIdleTimer();
    this.options.onClose?.();
    const end = this.options.end;
    if (end && code === end.code) this.setState(end.state);
    else if (this.options.wanted()) this.scheduleReconnect();
    else this.setState('idle');
  }

  private scheduleReconnect() {
    if (this.reconnectTimer !== null) return;
    const delay = reconnectDelay(this.attempt, (this.options.random ?? Math.random)());
    this.attempt++;
    this.setState('reconnecting');
    this.reconnectTimer = setTimeout(() => this.retry(), delay);
  }

  private retry() {
    this.reconnectTimer = null;
    if (this.options.wanted()) this.connect();
    else this.setState('idle');
  }

  /** Pings after a silence (where the server answers pings) and drops a connection that stays silent. */
  private checkIdle() {
    if (!this.isOpen()) return;
    const { silenceMs, ping, answerMs = silenceMs } = this.options.idle;
    const now = Date.now();
    if (ping === undefined) {
      if (now - this.lastMessageAt >= silenceMs) this.drop();
      return;
    }
    if (this.pingSentAt > 0) {
      if (now - this.pingSentAt >= answerMs) this.drop();
      return;
    }
    if (now - this.lastMessageAt >= silenceMs) {
      this.pingSentAt = now;
      this.send(ping);
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

  private setState(state: TConnectionState | TEnd) {
    if (state === this.state) return;
    if (state === 'idle') this.wasOpen = false;
    this.state = state;
    this.stateSince = Date.now();
    this.options.onState(state);
  }
}

/** The browser's WebSocket behind the factory: text messages only, with the close code. */
const browserSocket: TReconnectingSocketFactory = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.onopen = () => handlers.open();
  socket.onmessage = (event) => {
    if (typeof event.data === 'string') handlers.message(event.data);
  };
  socket.onclose = (event) => handlers.close(event.code);
  return socket;
};

/**
 * A stream on this page's host at WebSocket `path` (wss on an https page), made by `create` with the
 * browser's WebSocket; it retries at once when the browser comes back online or the page to the front,
 * and checks the connection at once when the browser goes offline.
 */
export function browserStream<T extends { retryNow(): void; probe(): void }>(
  path: string,
  create: (options: { url: () => string; createSocket: TReconnectingSocketFactory }) => T,
): T {
  const stream = create({
    url: () => `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${path}`,
    createSocket: browserSocket,
  });
  window.addEventListener('online', () => stream.retryNow());
  // A socket often stays "open" when the network goes away: check it answers rather than wait.
  window.addEventListener('offline', () => stream.probe());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') stream.retryNow();
  });
  return stream;
}

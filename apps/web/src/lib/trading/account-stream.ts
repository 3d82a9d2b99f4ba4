import type { TAccountEvent, TAlertFired } from '@broker/contracts/account-stream';
import type { TRouteOutput } from '@broker/contracts/routes';
import { browserStream, ReconnectingSocket, type TSocketLike } from '../reconnecting-socket';

export type { TAccountEvent };

/** What the server pushes for an account: exactly what `info`, `positions` and `pendingorders` answer. */
export interface TAccountSnapshot {
  info: TRouteOutput<'info'>;
  positions: TRouteOutput<'positions'>;
  orders: TRouteOutput<'pendingorders'>;
}

/** Opens a socket; `close` gets the close code (4401: the session ended). */
export type TAccountSocketFactory = (
  url: string,
  handlers: { open(): void; message(data: string): void; close(code: number): void },
) => TSocketLike;

export type TAccountStreamState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'ended';

/**
 * Timings of the account stream. While the socket delivers, HTTP only checks it every 15 s. The
 * server beats only every 15 s and a browser often keeps a dead socket "open", so after 4 s without
 * a message the client pings and drops a connection whose ping is not answered within 3 s; the
 * account counts as abnormal (spec 4 connection status) after 3 s without a connection.
 */
export const ACCOUNT_STREAM_TIMING = {
  safetyCheckMs: 15_000,
  refreshTimeoutMs: 3000,
  silenceMs: 4000,
  pingAnswerMs: 3000,
  idleCheckMs: 1000,
  abnormalAfterMs: 3000,
  /** The socket stays open this long after the last account is left, so a page change does not reconnect. */
  lingerMs: 5000,
} as const;

/** The server's close code for a session that was signed out or expired. */
const SESSION_ENDED = 4401;

export interface TAccountWatcher {
  snapshot(data: TAccountSnapshot): void;
  events(events: TAccountEvent[]): void;
}

type TServerMessage =
  | { type: 'welcome' | 'heartbeat' | 'pong' | 'unsubscribed' }
  | { type: 'account'; account_id: number; ref?: number; data: TAccountSnapshot }
  | { type: 'events'; account_id: number; data: TAccountEvent[] }
  | { type: 'alert'; data: TAlertFired }
  | { type: 'error'; code: number; account_id?: number; ref?: number };

/**
 * The same positions (ticket and volume) and pending orders (ticket, volume, price) in both books,
 * whatever the order. Floating figures are not compared: they move with every tick.
 */
export function sameBook(
  a: Pick<TAccountSnapshot, 'positions' | 'orders'>,
  b: Pick<TAccountSnapshot, 'positions' | 'orders'>,
): boolean {
  const key = (list: { order_id: number }[], part: (x: never) => string) =>
    list
      .map((x) => `${x.order_id}:${part(x as never)}`)
      .sort()
      .join(',');
  const position = (p: TAccountSnapshot['positions'][number]) =>
    `${p.volume}:${p.take_profit}:${p.stop_loss}`;
  const order = (o: TAccountSnapshot['orders'][number]) =>
    `${o.volume}:${o.price}:${o.limit_price}:${o.take_profit}:${o.stop_loss}:${o.activated}`;
  return (
    key(a.positions, position) === key(b.positions, position) && key(a.orders, order) === key(b.orders, order)
  );
}

/**
 * One WebSocket to /ws/account for the signed-in trader, following one account at a time: it
 * subscribes when connected (again after every reconnect), hands every pushed snapshot and event
 * batch to the watcher, reconnects with backoff (not after the server ended the session), and says
 * whether the account is live (snapshots arriving) and whether its connection is abnormal.
 */
export class AccountStream {
  private readonly connection: ReconnectingSocket<TServerMessage, 'ended'>;
  private accountId = 0;
  private watcher: TAccountWatcher | null = null;
  /** The watched account on the current socket: `pending` until its first snapshot. */
  private subscription: 'none' | 'pending' | 'live' | 'refused' = 'none';
  private nextRef = 1;
  /** Requests for a snapshot; ref 0 waits for the subscription's first one. */
  private readonly requests = new Map<number, { resolve(ok: boolean): void; timer: unknown }>();
  private abnormal = false;
  private abnormalTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly abnormalListeners = new Set<(abnormal: boolean) => void>();
  private readonly alertListeners = new Set<(alert: TAlertFired) => void>();

  constructor(options: { url: () => string; createSocket: TAccountSocketFactory; random?: () => number }) {
    this.connection = new ReconnectingSocket({
      ...options,
      idle: {
        checkMs: ACCOUNT_STREAM_TIMING.idleCheckMs,
        silenceMs: ACCOUNT_STREAM_TIMING.silenceMs,
        answerMs: ACCOUNT_STREAM_TIMING.pingAnswerMs,
        ping: { op: 'ping' },
      },
      lingerMs: ACCOUNT_STREAM_TIMING.lingerMs,
      wanted: () => this.watcher !== null,
      end: { code: SESSION_ENDED, state: 'ended' },
      onState: () => this.updateAbnormal(),
      onOpen: () => {
        if (this.watcher) this.subscribe();
      },
      onMessage: (message) => this.onMessage(message),
      onClose: () => {
        this.subscription = 'none';
        this.settleRequests(false);
      },
    });
  }

  getState(): TAccountStreamState {
    return this.connection.getState();
  }

  /** True after 3 s without a connection while an account is watched. */
  isAbnormal(): boolean {
    return this.abnormal;
  }

  onAbnormal(listener: (abnormal: boolean) => void): () => void {
    this.abnormalListeners.add(listener);
    return () => this.abnormalListeners.delete(listener);
  }

  /** Price alerts of the signed-in trader that fired (sent to every socket of theirs). */
  onAlert(listener: (alert: TAlertFired) => void): () => void {
    this.alertListeners.add(listener);
    return () => this.alertListeners.delete(listener);
  }

  /** True while the socket delivers snapshots of `accountId`: other sources of its figures must wait. */
  isLive(accountId: number): boolean {
    return this.connection.isOpen() && this.accountId === accountId && this.subscription === 'live';
  }

  /** Follows one account (a second call replaces the first); the returned function stops. */
  watch(accountId: number, watcher: TAccountWatcher): () => void {
    if (this.accountId !== accountId) this.leaveAccount();
    this.accountId = accountId;
    this.watcher = watcher;
    this.connection.activate();
    if (this.connection.isOpen() && this.subscription === 'none') this.subscribe();
    this.updateAbnormal();
    return () => {
      if (this.watcher !== watcher) return;
      this.leaveAccount();
      this.watcher = null;
      this.accountId = 0;
      this.updateAbnormal();
      this.connection.linger();
    };
  }

  /**
   * A fresh snapshot of the watched account through the socket; false when the socket cannot give
   * one. A socket that does not answer in time is dropped (and reconnects), so nothing it still
   * had on the way can arrive after the caller's fallback.
   */
  requestSnapshot(
    accountId: number,
    timeoutMs: number = ACCOUNT_STREAM_TIMING.refreshTimeoutMs,
  ): Promise<boolean> {
    if (!this.connection.isOpen() || this.accountId !== accountId) return Promise.resolve(false);
    if (this.subscription !== 'pending' && this.subscription !== 'live') return Promise.resolve(false);
    const ref = this.subscription === 'pending' ? 0 : this.nextRef++;
    const earlier = this.requests.get(ref);
    if (earlier) return new Promise((resolve) => this.chain(ref, earlier, resolve));
    if (ref !== 0) this.connection.send({ op: 'refresh', account_id: accountId, ref });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.requests.delete(ref);
        resolve(false);
        this.connection.drop();
      }, timeoutMs);
      this.requests.set(ref, { resolve, timer });
    });
  }

  /** Reconnects at once when waiting for a retry (back online, page visible again). */
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

  private chain(
    ref: number,
    earlier: { resolve(ok: boolean): void; timer: unknown },
    resolve: (ok: boolean) => void,
  ) {
    this.requests.set(ref, {
      timer: earlier.timer,
      resolve: (ok) => {
        earlier.resolve(ok);
        resolve(ok);
      },
    });
  }

  private subscribe() {
    this.subscription = 'pending';
    this.connection.send({ op: 'subscribe', account_id: this.accountId });
  }

  private leaveAccount() {
    if (this.accountId && this.connection.isOpen() && this.subscription !== 'none')
      this.connection.send({ op: 'unsubscribe', account_id: this.accountId });
    this.subscription = 'none';
    this.settleRequests(false);
  }

  private settleRequests(ok: boolean) {
    for (const { resolve, timer } of this.requests.values()) {
      clearTimeout(timer as ReturnType<typeof setTimeout>);
      resolve(ok);
    }
    this.requests.clear();
  }

  private settle(ref: number, ok: boolean) {
    const request = this.requests.get(ref);
    if (!request) return;
    this.requests.delete(ref);
    clearTimeout(request.timer as ReturnType<typeof setTimeout>);
    request.resolve(ok);
  }

  private onMessage(message: TServerMessage) {
    switch (message.type) {
      case 'account':
        if (message.account_id !== this.accountId || this.subscription === 'none') return;
        this.subscription = 'live';
        this.watcher?.snapshot(message.data);
        this.settle(0, true);
        if (message.ref !== undefined) this.settle(message.ref, true);
        return;
      case 'events':
        if (message.account_id === this.accountId && this.subscription === 'live')
          this.watcher?.events(message.data);
        return;
      case 'alert':
        for (const listener of this.alertListeners) listener(message.data);
        return;
      case 'error':
        if (message.account_id !== this.accountId) return;
        if (message.ref !== undefined) return this.settle(message.ref, false);
        // Not this trader's account (or too many on one connection): HTTP keeps serving it.
        this.subscription = 'refused';
        this.settleRequests(false);
        return;
      default:
        return;
    }
  }

  /** Abnormal once an account has been watched for 3 s without an open connection. */
  private updateAbnormal() {
    const connected = this.connection.getState() === 'open';
    if (connected || !this.watcher) {
      if (this.abnormalTimer !== null) clearTimeout(this.abnormalTimer);
      this.abnormalTimer = null;
      this.setAbnormal(false);
      return;
    }
    if (this.abnormal || this.abnormalTimer !== null) return;
    this.abnormalTimer = setTimeout(() => {
      this.abnormalTimer = null;
      if (this.watcher && this.connection.getState() !== 'open') this.setAbnormal(true);
    }, ACCOUNT_STREAM_TIMING.abnormalAfterMs);
  }

  private setAbnormal(abnormal: boolean) {
    if (abnormal === this.abnormal) return;
    this.abnormal = abnormal;
    for (const listener of this.abnormalListeners) listener(abnormal);
  }
}

let shared: AccountStream | null = null;

/** The page's one account stream (browser only). */
export function accountStream(): AccountStream {
  shared ??= browserStream('/ws/account', (options) => new AccountStream(options));
  return shared;
}

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TAccountEvent } from '@broker/contracts/account-stream';
import { AppErrorCode } from '@broker/domain/result-codes';
import { levelText } from '@broker/domain/trading/calculations';
import type { TEngineEvent } from '@broker/domain/trading/engine-core';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import { RemoteAccounts } from '../cluster/remote-accounts';
import { findSession, onSessionsRevoked } from '../modules/identity';
import { accountSnapshot, fromScaled, money, unitsToLots } from '../modules/trading';
import { COOKIE, type TServices } from './context';
import { heartbeatRound } from './socket-heartbeat';

export const ACCOUNT_STREAM_PATH = '/ws/account';

/** Every timing and bound of the account stream in one place. */
export const ACCOUNT_STREAM_LIMITS = {
  /** Pushes after trading events: the first at once, then at most one per account per 100 ms. */
  eventCoalesceMs: 100,
  /** Floating profit after price ticks: at most every 250 ms, for accounts with open positions. */
  tickPushMs: 250,
  heartbeatMs: 15_000,
  /** The session is looked up again this often; a revoked or expired one closes the socket (4401). */
  sessionCheckMs: 30_000,
  /** Above this many unsent bytes a client is slow: it skips pushes and gets the newest one later. */
  slowClientBytes: 256 * 1024,
  accountsPerSocket: 10,
  socketsPerUser: 16,
  /** Messages a client may send per second; more close the socket (1008). */
  messagesPerSecond: 20,
  /** Events kept for a slow client; older ones are dropped (the snapshot is still exact). */
  pendingEvents: 200,
} as const;

/** Close code for a session that was revoked or expired while the socket was open. */
export const SESSION_ENDED_CLOSE_CODE = 4401;

interface TSubscription {
  /** The last snapshot this client got, serialized: a push goes out only when it differs. */
  sentJson: string | null;
  events: TAccountEvent[];
}

interface TClient {
  socket: WebSocket;
  tenantId: string;
  userId: string;
  /** The session cookie's token, to look the session up again. */
  token: string;
  subscriptions: Map<number, TSubscription>;
  alive: boolean;
  messageWindowStart: number;
  messagesInWindow: number;
}

/** The subscribers of one account; its snapshot is built and serialized once per push for all. */
interface TAccountFeed {
  accountId: number;
  clients: Set<TClient>;
  hasPositions: boolean;
  /** When trading events were last pushed: the next push after events waits out the 100 ms. */
  lastEventPushAt: number;
  timer: NodeJS.Timeout | null;
}

type TClientMessage =
  | { op: 'subscribe' | 'unsubscribe'; accountId: number }
  | { op: 'refresh'; accountId: number; ref: number | null }
  | { op: 'ping' };

function parseMessage(raw: string): TClientMessage | null {
  try {
    const message = JSON.parse(raw) as Record<string, unknown>;
    if (message.op === 'ping') return { op: 'ping' };
    const accountId = message.account_id;
    if (typeof accountId !== 'number' || !Number.isSafeInteger(accountId) || accountId <= 0) return null;
    if (message.op === 'subscribe' || message.op === 'unsubscribe') return { op: message.op, accountId };
    if (message.op === 'refresh')
      return {
        op: 'refresh',
        accountId,
        ref: typeof message.ref === 'number' && Number.isSafeInteger(message.ref) ? message.ref : null,
      };
    return null;
  } catch {
    return null;
  }
}

function accountOf(event: TEngineEvent): number {
  switch (event.type) {
    case 'position_opened':
      return event.position.accountId;
    case 'order_placed':
    case 'order_modified':
      return event.order.accountId;
    default:
      return event.accountId;
  }
}

/** Answers an upgrade it will not accept with a plain HTTP status, as `ws` does. */
function refuse(socket: Duplex, status: number, reason: string) {
  if (!socket.writable) return socket.destroy();
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
  );
}

const streams = new WeakMap<FastifyInstance, AccountStream>();

/**
 * The trader's account stream at /ws/account: after a subscribe, a snapshot of the account's figures,
 * positions and pending orders (exactly what `info`, `positions` and `pendingorders` answer), then a
 * new snapshot right after every committed trading event of the account (at most one per 100 ms)
 * and, while it has open positions, after price ticks (at most every 250 ms), each only when it
 * changed; and the trading events themselves for notifications. The upgrade needs the trader's
 * session cookie and a same-host Origin; the session is checked again every 30 s.
 */
export class AccountStream {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 4 * 1024,
    perMessageDeflate: false,
  });
  private readonly clients = new Set<TClient>();
  private readonly feeds = new Map<number, TAccountFeed>();
  private readonly socketsByUser = new Map<string, number>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribers: (() => void)[] = [];
  private ticked = false;
  private checkingSessions: Promise<void> | null = null;
  private checkAgain = false;
  /**
   * On a standby (another instance leads the engine): the watched accounts as the leader answers
   * them; the leader's events arrive over the bus (issue 20).
   */
  private readonly remote: RemoteAccounts;
  private refreshing = false;

  constructor(private readonly services: TServices) {
    this.remote = new RemoteAccounts(services.cluster);
    this.unsubscribers.push(
      services.engine.onEvents((events) => this.onEngineEvents(events)),
      services.cluster.onRemoteEvents((events) => this.onRemoteEvents(events)),
      services.cluster.onUserMessage((tenantId, userId, message) =>
        this.sendToUser(tenantId, userId, message),
      ),
      services.market.onAcceptedTick(() => {
        this.ticked = true;
      }),
      // A sign-out or revocation closes that session's sockets now, not at the next 30 s check.
      onSessionsRevoked(() => void this.checkSessions()),
    );
    this.wss.on('connection', (socket: WebSocket, client: Omit<TClient, 'socket'>) =>
      this.onConnection({ ...client, socket }),
    );
    const every = (ms: number, run: () => void) => {
      const timer = setInterval(run, ms);
      timer.unref?.();
      this.timers.push(timer);
    };
    every(ACCOUNT_STREAM_LIMITS.tickPushMs, () =>
      this.services.cluster.forwarding ? void this.refreshRemote() : this.onTickTimer(),
    );
    every(ACCOUNT_STREAM_LIMITS.heartbeatMs, () => this.heartbeat());
    every(ACCOUNT_STREAM_LIMITS.sessionCheckMs, () => void this.checkSessions());
  }

  /** Makes the stream for the app and closes it with the app. */
  static attach(app: FastifyInstance, services: TServices): AccountStream {
    const stream = new AccountStream(services);
    streams.set(app, stream);
    app.addHook('onClose', async () => stream.close());
    return stream;
  }

  /** The stream attached to an app (tests reach it to check sessions without waiting 30 s). */
  static of(app: FastifyInstance): AccountStream | undefined {
    return streams.get(app);
  }

  /** Takes the upgrade when it is for /ws/account (answers false otherwise). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = (request.url ?? '').split('?')[0];
    if (path !== ACCOUNT_STREAM_PATH) return false;
    // The socket has no other error listener while the session is looked up.
    const onError = () => socket.destroy();
    socket.on('error', onError);
    this.authenticate(request).then(
      (outcome) => {
        socket.off('error', onError);
        if ('refused' in outcome) return refuse(socket, outcome.refused, outcome.reason);
        this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, outcome));
      },
      () => {
        socket.off('error', onError);
        refuse(socket, 500, 'Internal Server Error');
      },
    );
    return true;
  }

  private async authenticate(
    request: IncomingMessage,
  ): Promise<Omit<TClient, 'socket'> | { refused: number; reason: string }> {
    const host = request.headers.host;
    // Cross-site WebSocket hijacking: a browser always sends Origin, and it must be this host (an
    // opaque "null" origin too is refused: no page of ours has one). Other clients send none.
    const origin = request.headers.origin;
    if (origin !== undefined) {
      let originHost = '';
      try {
        originHost = new URL(origin).host;
      } catch {
        // "null" or unparsable: refused below
      }
      if (originHost !== host) return { refused: 403, reason: 'Forbidden' };
    }
    let tenantId: string;
    try {
      tenantId = (await this.services.resolveTenant({ host, hostspecific: undefined })).id;
    } catch {
      return { refused: 404, reason: 'Not Found' };
    }
    const token = fastifyCookie.parse(request.headers.cookie ?? '')[COOKIE.userToken] ?? '';
    const session = token
      ? await findSession({ db: this.services.database.db, token, subjectKind: 'user', tenantId })
      : null;
    if (!session) return { refused: 401, reason: 'Unauthorized' };
    if (
      (this.socketsByUser.get(`${tenantId}|${session.subjectId}`) ?? 0) >=
      ACCOUNT_STREAM_LIMITS.socketsPerUser
    )
      return { refused: 429, reason: 'Too Many Requests' };
    return {
      tenantId,
      userId: session.subjectId,
      token,
      subscriptions: new Map(),
      alive: true,
      messageWindowStart: 0,
      messagesInWindow: 0,
    };
  }

  close() {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    for (const feed of this.feeds.values()) if (feed.timer) clearTimeout(feed.timer);
    for (const client of this.clients) client.socket.terminate();
    this.wss.close();
  }

  /** Looks every connected session up again; sockets of a revoked or expired one are closed (4401). */
  checkSessions(): Promise<void> {
    if (this.checkingSessions) {
      // A check already running may have read the session before this revocation: run once more.
      this.checkAgain = true;
      return this.checkingSessions;
    }
    this.checkingSessions = this.recheck().finally(() => {
      this.checkingSessions = null;
      if (this.checkAgain) {
        this.checkAgain = false;
        void this.checkSessions();
      }
    });
    return this.checkingSessions;
  }

  private async recheck() {
    const byToken = new Map<string, TClient[]>();
    for (const client of this.clients) {
      const key = `${client.tenantId}|${client.token}`;
      byToken.set(key, [...(byToken.get(key) ?? []), client]);
    }
    await Promise.all(
      [...byToken.values()].map(async (clients) => {
        const { tenantId, token, userId } = clients[0] as TClient;
        const session = await findSession({
          db: this.services.database.db,
          token,
          subjectKind: 'user',
          tenantId,
        }).catch(() => undefined);
        // A failed lookup (database down) keeps the socket; only a definite "no session" closes it.
        if (session === undefined || session?.subjectId === userId) return;
        for (const client of clients) client.socket.close(SESSION_ENDED_CLOSE_CODE, 'session ended');
      }),
    );
  }

  private onConnection(client: TClient) {
    this.clients.add(client);
    const userKey = `${client.tenantId}|${client.userId}`;
    this.socketsByUser.set(userKey, (this.socketsByUser.get(userKey) ?? 0) + 1);
    const { socket } = client;
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('message', (data) => this.onMessage(client, data.toString()));
    socket.on('close', () => this.drop(client));
    socket.on('error', () => socket.terminate());
    this.send(client, {
      type: 'welcome',
      time: Date.now(),
      heartbeatMs: ACCOUNT_STREAM_LIMITS.heartbeatMs,
    });
  }

  private drop(client: TClient) {
    if (!this.clients.delete(client)) return;
    const userKey = `${client.tenantId}|${client.userId}`;
    const sockets = (this.socketsByUser.get(userKey) ?? 1) - 1;
    if (sockets > 0) this.socketsByUser.set(userKey, sockets);
    else this.socketsByUser.delete(userKey);
    for (const accountId of client.subscriptions.keys()) this.unsubscribe(client, accountId);
  }

  private tooChatty(client: TClient): boolean {
    const now = Date.now();
    if (now - client.messageWindowStart >= 1000) {
      client.messageWindowStart = now;
      client.messagesInWindow = 0;
    }
    return ++client.messagesInWindow > ACCOUNT_STREAM_LIMITS.messagesPerSecond;
  }

  private onMessage(client: TClient, raw: string) {
    if (this.tooChatty(client)) return client.socket.close(1008, 'too many messages');
    const message = parseMessage(raw);
    if (!message)
      return this.send(client, {
        type: 'error',
        code: AppErrorCode.VALIDATION_FAILED,
        message: 'bad message',
      });
    if (message.op === 'ping') return this.send(client, { type: 'pong', time: Date.now() });
    const { accountId } = message;
    if (message.op === 'unsubscribe') {
      this.unsubscribe(client, accountId);
      return this.send(client, { type: 'unsubscribed', account_id: accountId });
    }
    if (message.op === 'refresh') {
      const subscription = client.subscriptions.get(accountId);
      if (!subscription)
        return this.send(client, {
          type: 'error',
          code: AppErrorCode.ACCOUNT_NOT_FOUND,
          message: 'not subscribed',
          account_id: accountId,
          ref: message.ref,
        });
      return this.pushSnapshot(client, subscription, accountId, message.ref);
    }
    if (this.services.cluster.forwarding)
      return void this.remote.load([accountId]).then(
        () => this.subscribe(client, accountId),
        () =>
          this.send(client, {
            type: 'error',
            code: AppErrorCode.SERVICE_UNAVAILABLE,
            message: 'trading engine unavailable',
            account_id: accountId,
          }),
      );
    this.subscribe(client, accountId);
  }

  /** The owner of an account and whether it exists: the local engine's, or the leader's answer on a standby. */
  private ownerOf(accountId: number): { tenantId: string; userId: string } | undefined {
    if (this.services.cluster.forwarding) return this.remote.get(accountId) ?? undefined;
    const owner = this.services.engine.ownerOf(accountId);
    return owner && this.services.engine.core.account(accountId) ? owner : undefined;
  }

  private subscribe(client: TClient, accountId: number) {
    if (!this.clients.has(client)) return;
    const owner = this.ownerOf(accountId);
    // Another trader's account answers "not found", as the trading calls do: no probing.
    if (!owner || owner.userId !== client.userId || owner.tenantId !== client.tenantId)
      return this.send(client, {
        type: 'error',
        code: AppErrorCode.ACCOUNT_NOT_FOUND,
        message: 'account not found',
        account_id: accountId,
      });
    let subscription = client.subscriptions.get(accountId);
    if (!subscription) {
      if (client.subscriptions.size >= ACCOUNT_STREAM_LIMITS.accountsPerSocket)
        return this.send(client, {
          type: 'error',
          code: AppErrorCode.RATE_LIMITED,
          message: 'too many accounts on one connection',
          account_id: accountId,
        });
      subscription = { sentJson: null, events: [] };
      client.subscriptions.set(accountId, subscription);
      let feed = this.feeds.get(accountId);
      if (!feed) {
        feed = { accountId, clients: new Set(), hasPositions: false, lastEventPushAt: 0, timer: null };
        this.feeds.set(accountId, feed);
      }
      feed.clients.add(client);
    }
    this.pushSnapshot(client, subscription, accountId, null);
  }

  private unsubscribe(client: TClient, accountId: number) {
    client.subscriptions.delete(accountId);
    const feed = this.feeds.get(accountId);
    if (!feed) return;
    feed.clients.delete(client);
    if (feed.clients.size > 0) return;
    if (feed.timer) clearTimeout(feed.timer);
    this.feeds.delete(accountId);
    this.remote.forget(accountId);
  }

  /** The account's snapshot serialized (undefined when the engine no longer has it). */
  private snapshotJson(feed: TAccountFeed): string | undefined {
    if (this.services.cluster.forwarding) {
      const remote = this.remote.get(feed.accountId);
      if (!remote) return undefined;
      feed.hasPositions = remote.hasPositions;
      return remote.json;
    }
    try {
      const snapshot = accountSnapshot(this.services.engine, feed.accountId);
      if (!snapshot) return undefined;
      feed.hasPositions = snapshot.positions.length > 0;
      return JSON.stringify(snapshot);
    } catch {
      return undefined;
    }
  }

  /** A snapshot for one client now (subscribe, refresh), whether or not it changed. */
  private pushSnapshot(client: TClient, subscription: TSubscription, accountId: number, ref: number | null) {
    const feed = this.feeds.get(accountId);
    const json = feed && this.snapshotJson(feed);
    if (json === undefined)
      return this.send(client, {
        type: 'error',
        code: AppErrorCode.ACCOUNT_NOT_FOUND,
        message: 'account not found',
        account_id: accountId,
        ...(ref === null ? {} : { ref }),
      });
    subscription.sentJson = json;
    this.sendRaw(
      client,
      `{"type":"account","account_id":${accountId}${ref === null ? '' : `,"ref":${ref}`},"data":${json}}`,
    );
  }

  /**
   * The leader's events on a standby: the accounts they touch that clients here watch are asked
   * for again, then pushed with their events.
   */
  private onRemoteEvents(events: readonly TEngineEvent[]) {
    const touched = new Set<number>();
    for (const event of events) if (this.feeds.has(accountOf(event))) touched.add(accountOf(event));
    if (touched.size === 0) return;
    this.remote.load([...touched]).then(
      () => this.onEngineEvents(events),
      () => this.onEngineEvents(events),
    );
  }

  /** A standby's tick push: the watched accounts with positions, asked for in one request. */
  private async refreshRemote() {
    if (this.refreshing || !this.ticked) return;
    this.ticked = false;
    const ids = [...this.feeds.values()].filter((f) => f.hasPositions && !f.timer).map((f) => f.accountId);
    if (ids.length === 0) return;
    this.refreshing = true;
    try {
      await this.remote.load(ids);
      for (const id of ids) {
        const feed = this.feeds.get(id);
        if (feed && !feed.timer) this.flush(feed);
      }
    } catch {
      // the leader did not answer (a failover): the next tick asks again
    } finally {
      this.refreshing = false;
    }
  }

  private onEngineEvents(events: readonly TEngineEvent[]) {
    for (const event of events) {
      const feed = this.feeds.get(accountOf(event));
      if (!feed) continue;
      const pushed = this.toAccountEvent(event);
      if (pushed)
        for (const client of feed.clients) {
          const events = client.subscriptions.get(feed.accountId)?.events;
          if (!events) continue;
          events.push(pushed);
          if (events.length > ACCOUNT_STREAM_LIMITS.pendingEvents) events.shift();
        }
      this.schedule(feed);
    }
  }

  /**
   * The first push after a quiet spell goes out on the next turn (with every event of the same
   * commit); later ones wait out the 100 ms. Tick pushes do not delay event pushes.
   */
  private schedule(feed: TAccountFeed, minimumDelay = 0) {
    if (feed.timer) return;
    const wait = Math.max(
      minimumDelay,
      feed.lastEventPushAt + ACCOUNT_STREAM_LIMITS.eventCoalesceMs - Date.now(),
    );
    feed.timer = setTimeout(() => {
      feed.timer = null;
      feed.lastEventPushAt = Date.now();
      this.flush(feed);
    }, wait);
  }

  private onTickTimer() {
    if (!this.ticked) return;
    this.ticked = false;
    for (const feed of this.feeds.values()) if (feed.hasPositions && !feed.timer) this.flush(feed);
  }

  /** Sends each subscriber the account's snapshot if it changed for them, then its pending events. */
  private flush(feed: TAccountFeed) {
    const json = this.snapshotJson(feed);
    if (json === undefined) return;
    const message = `{"type":"account","account_id":${feed.accountId},"data":${json}}`;
    let slow = false;
    for (const client of feed.clients) {
      const subscription = client.subscriptions.get(feed.accountId);
      if (!subscription) continue;
      if (subscription.sentJson === json && subscription.events.length === 0) continue;
      if (client.socket.bufferedAmount > ACCOUNT_STREAM_LIMITS.slowClientBytes) {
        slow = true;
        continue;
      }
      if (subscription.sentJson !== json) {
        subscription.sentJson = json;
        this.sendRaw(client, message);
      }
      if (subscription.events.length > 0) {
        this.send(client, { type: 'events', account_id: feed.accountId, data: subscription.events });
        subscription.events = [];
      }
    }
    // A slow client gets the newest snapshot once its buffer drains, never a backlog.
    if (slow) this.schedule(feed, ACCOUNT_STREAM_LIMITS.tickPushMs);
  }

  private toAccountEvent(event: TEngineEvent): TAccountEvent | null {
    const digits = (symbol: string) => this.services.engine.digits(symbol) ?? 5;
    // Margin levels in the spec 5 form of the account (a ratio, or a percentage for MT accounts).
    const level = (accountId: number, bp: number) =>
      levelText(
        bp,
        (this.services.cluster.forwarding
          ? this.remote.get(accountId)?.accountType
          : this.services.engine.core.account(accountId)?.accountType) ?? 0,
      );
    switch (event.type) {
      case 'position_opened': {
        const p = event.position;
        return {
          type: event.orderId === null ? 'opened' : 'filled',
          position_id: p.positionId,
          order_id: event.orderId,
          symbol: p.symbol,
          side: p.side,
          volume: unitsToLots(p.volume),
          price: fromScaled(p.openPrice, digits(p.symbol)),
          time: event.time,
        };
      }
      case 'position_closed':
        return {
          type: 'closed',
          position_id: event.positionId,
          symbol: event.symbol,
          side: event.side,
          volume: unitsToLots(event.volume),
          remaining_volume: unitsToLots(event.remainingVolume),
          close_price: fromScaled(event.closePrice, digits(event.symbol)),
          profit: money(event.profit),
          reason: event.reason,
          time: event.time,
        };
      case 'order_placed':
        return {
          type: 'placed',
          order_id: event.order.orderId,
          symbol: event.order.symbol,
          order_type: event.order.type,
          volume: unitsToLots(event.order.volume),
          time: event.time,
        };
      case 'order_cancelled':
        return { type: 'cancelled', order_id: event.orderId, reason: event.reason, time: event.time };
      case 'margin_call':
        return {
          type: 'margin_call',
          active: event.active,
          margin_level: level(event.accountId, event.marginLevelBp),
          time: event.time,
        };
      case 'stop_out':
        return {
          type: 'stop_out',
          margin_level: level(event.accountId, event.marginLevelBp),
          time: event.time,
        };
      default:
        return null;
    }
  }

  private heartbeat() {
    heartbeatRound(
      this.clients,
      (client) => this.drop(client),
      (client, message) => this.send(client, message),
    );
  }

  /**
   * Sends a message to every socket of one trader, whatever accounts they watch (a price alert that
   * fired). Answers how many sockets it went to.
   */
  sendToUser(tenantId: string, userId: string, message: unknown): number {
    let sent = 0;
    const json = JSON.stringify(message);
    for (const client of this.clients)
      if (client.userId === userId && client.tenantId === tenantId) {
        this.sendRaw(client, json);
        sent++;
      }
    return sent;
  }

  private send(client: TClient, message: unknown) {
    this.sendRaw(client, JSON.stringify(message));
  }

  private sendRaw(client: TClient, json: string) {
    if (client.socket.readyState !== client.socket.OPEN) return;
    client.socket.send(json);
  }
}

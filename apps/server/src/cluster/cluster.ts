import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TEngineEvent } from '@broker/domain/trading/engine-core';
import type { EngineLease } from '../modules/leadership';
import type { MarketService, TTick } from '../modules/market';
import type { EngineHost } from '../modules/trading';
import { BusNoResponders, BusTimeout, decodeJson, encodeJson, type TBus } from './bus';
import type { LeaderFeed } from './leader-feed';

/** The bus subjects (each prefixed by BUS_PREFIX on NATS). */
export const SUBJECT = {
  /** A gateway call for the engine leader (request/reply, one responder: the leader). */
  engineCall: 'engine.call',
  /** Account owners and snapshots for a standby's account stream (request/reply). */
  engineAccounts: 'engine.accounts',
  /** The engine's committed events (fan-out). */
  events: 'engine.events',
  /** Every tick the leader's feed accepted (fan-out). */
  quotes: 'market.quotes',
  /** A broker's market configuration was made live by the leader (fan-out). */
  marketConfig: 'config.market',
  /** A message for every open terminal of one trader, on whichever instance (fan-out). */
  userMessage: 'user.message',
  /** An HTTP request outside the gateway for the leader (request/reply). */
  raw: 'http.raw',
  /** A leader announces itself (fan-out): standbys ask again at once. */
  leader: 'cluster.leader',
} as const;

export interface TClusterOptions {
  bus: TBus;
  engine: EngineHost;
  lease: EngineLease;
  market: MarketService;
  feed: LeaderFeed;
  log: {
    info(message: string): void;
    warn(message: string): void;
    error(details: object, message: string): void;
  };
  /** How long a forwarded call waits for the leader's answer. */
  forwardTimeoutMs: number;
  /** How long a forwarded call waits for a leader to exist (a failover under way). */
  leaderWaitMs: number;
}

type TPart = () => Promise<(() => Promise<void> | void) | undefined | void>;

interface TUserMessage {
  tenantId: string;
  userId: string;
  message: unknown;
}

/**
 * An instance's place among several (issue 20, ADR 014). Every instance serves HTTP, WebSockets and
 * pages; the one whose engine leads (it holds the lease) runs the engine, the price feed and the
 * leader-only jobs, and answers the engine calls the others forward over the bus. Roles follow the
 * engine: when it starts leading the leader parts start, when it steps down they stop.
 *
 * Without NATS_URL the bus is in-process and the one instance leads: nothing is forwarded and the
 * fan-out subjects are not used (the parts that run only on the leader simply run).
 */
export class Cluster {
  private readonly parts: { name: string; start: TPart; stop: (() => Promise<void> | void) | null }[] = [];
  private readonly unsubscribers: (() => void)[] = [];
  private leaderUnsubscribers: (() => void)[] = [];
  private readonly eventListeners = new Set<(events: readonly TEngineEvent[]) => void>();
  private readonly userListeners = new Set<(tenantId: string, userId: string, message: unknown) => void>();
  private callRunner: ((data: Uint8Array) => Promise<Uint8Array>) | null = null;
  private accountsRunner: ((data: Uint8Array) => Promise<Uint8Array>) | null = null;
  private rawRunner: ((data: Uint8Array) => Promise<Uint8Array>) | null = null;
  private transition: Promise<void> = Promise.resolve();
  /**
   * Forwarded requests waiting for an answer: when a new leader announces itself, the ones sent
   * before are answered -9005 at once (the leader they went to is gone or fenced off) instead of
   * waiting out FORWARD_TIMEOUT_MS; the client repeats them with their idempotency keys.
   */
  private readonly inFlight = new Set<(error: Error) => void>();
  private started = false;
  readonly stats = { forwarded: 0, forwardRetries: 0, forwardFailures: 0 };

  constructor(private readonly options: TClusterOptions) {}

  /** Several instances share the engine over NATS (false: one process, in-process bus). */
  get multiInstance(): boolean {
    return this.options.bus.kind === 'nats';
  }

  get bus(): TBus {
    return this.options.bus;
  }

  /** Whether this instance's engine leads now. */
  get leading(): boolean {
    return this.options.engine.isLeading;
  }

  /** Whether a call needing the engine goes to another instance. */
  get forwarding(): boolean {
    return !this.options.engine.isLeading;
  }

  /** A part that runs only while this instance leads: started when it starts leading, stopped when it stops. */
  whileLeading(name: string, start: TPart): void {
    this.parts.push({ name, start, stop: null });
  }

  /** What answers the forwarded gateway calls on the leader. */
  serveCalls(runner: (data: Uint8Array) => Promise<Uint8Array>): void {
    this.callRunner = runner;
  }

  /** What answers a standby's account stream on the leader. */
  serveAccounts(runner: (data: Uint8Array) => Promise<Uint8Array>): void {
    this.accountsRunner = runner;
  }

  /** What answers the HTTP requests outside the gateway that standbys forward. */
  serveRaw(runner: (data: Uint8Array) => Promise<Uint8Array>): void {
    this.rawRunner = runner;
  }

  /** The leader's committed engine events, heard on a standby. */
  onRemoteEvents(listener: (events: readonly TEngineEvent[]) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Messages for a trader's terminals, whichever instance produced them. */
  onUserMessage(listener: (tenantId: string, userId: string, message: unknown) => void): () => void {
    this.userListeners.add(listener);
    return () => this.userListeners.delete(listener);
  }

  /** Sends a message to every open terminal of a trader, on every instance. */
  sendToUser(tenantId: string, userId: string, message: unknown): void {
    if (!this.multiInstance) {
      for (const listener of this.userListeners) listener(tenantId, userId, message);
      return;
    }
    this.options.bus.publish(
      SUBJECT.userMessage,
      encodeJson({ tenantId, userId, message } satisfies TUserMessage),
    );
  }

  /** Starts following the engine's role: call once the whole app is wired. */
  async start(): Promise<void> {
    const { bus, engine, market, feed } = this.options;
    this.started = true;
    if (this.multiInstance) {
      this.unsubscribers.push(
        bus.subscribe(SUBJECT.quotes, (data) => {
          if (feed.isActive) return;
          const [symbol, time, bid, ask] = decodeJson<[string, number, number, number]>(data);
          market.onTick({ symbol, time, bid, ask } satisfies TTick, true);
        }),
        bus.subscribe(SUBJECT.events, (data) => {
          if (engine.isLeading) return;
          const events = decodeJson<TEngineEvent[]>(data);
          for (const listener of this.eventListeners) listener(events);
        }),
        bus.subscribe(SUBJECT.marketConfig, (data) => {
          if (engine.isLeading) return;
          const { tenantId } = decodeJson<{ tenantId: string }>(data);
          engine
            .refreshMarketConfig(tenantId)
            .catch((error: unknown) =>
              this.options.log.error({ err: error, tenantId }, 'cluster: market configuration not refreshed'),
            );
        }),
        bus.subscribe(SUBJECT.leader, () => {
          const waiting = [...this.inFlight];
          this.inFlight.clear();
          for (const reject of waiting)
            reject(new AppError(AppErrorCode.SERVICE_UNAVAILABLE, undefined, 'the engine leader changed'));
        }),
        bus.subscribe(SUBJECT.userMessage, (data) => {
          const { tenantId, userId, message } = decodeJson<TUserMessage>(data);
          for (const listener of this.userListeners) listener(tenantId, userId, message);
        }),
      );
    }
    this.unsubscribers.push(engine.onLeadingChange((leading) => this.follow(leading)));
    if (engine.isLeading) this.follow(true);
    else {
      market.writer = false;
      feed.setActive(false);
    }
    await this.transition;
  }

  /** Starts or stops the leader parts, one transition at a time, in order. */
  private follow(leading: boolean) {
    this.transition = this.transition.then(() => (leading ? this.becomeLeader() : this.becomeStandby()));
  }

  private async becomeLeader() {
    if (!this.started || !this.options.engine.isLeading) return;
    const { bus, engine, market, feed, log } = this.options;
    market.writer = true;
    feed.setActive(true);
    if (this.multiInstance) {
      this.leaderUnsubscribers.push(
        market.onAcceptedTick((tick) => {
          if (feed.isActive)
            bus.publish(SUBJECT.quotes, encodeJson([tick.symbol, tick.time, tick.bid, tick.ask]));
        }),
        engine.onEvents((events) => bus.publish(SUBJECT.events, encodeJson(events))),
        engine.onMarketConfigApplied((tenantId) =>
          bus.publish(SUBJECT.marketConfig, encodeJson({ tenantId })),
        ),
      );
    }
    if (this.callRunner) this.leaderUnsubscribers.push(bus.serve(SUBJECT.engineCall, this.callRunner));
    if (this.accountsRunner)
      this.leaderUnsubscribers.push(bus.serve(SUBJECT.engineAccounts, this.accountsRunner));
    if (this.rawRunner) this.leaderUnsubscribers.push(bus.serve(SUBJECT.raw, this.rawRunner));
    for (const part of this.parts) {
      if (!engine.isLeading) break;
      try {
        part.stop = (await part.start()) ?? null;
      } catch (error) {
        log.error({ err: error }, `cluster: leader part ${part.name} did not start`);
      }
    }
    if (this.multiInstance) {
      bus.publish(
        SUBJECT.leader,
        encodeJson({ instance: this.options.lease.instance, epoch: this.options.lease.epoch }),
      );
      log.info(`cluster: this instance leads the engine (epoch ${this.options.lease.epoch})`);
    }
  }

  private async becomeStandby() {
    const { market, feed, log } = this.options;
    for (const stop of this.leaderUnsubscribers.splice(0)) stop();
    if (this.multiInstance) {
      market.writer = false;
      feed.setActive(false);
    }
    for (const part of [...this.parts].reverse()) {
      const stop = part.stop;
      part.stop = null;
      if (!stop) continue;
      try {
        await stop();
      } catch (error) {
        log.error({ err: error }, `cluster: leader part ${part.name} did not stop cleanly`);
      }
    }
    if (this.multiInstance)
      log.warn('cluster: this instance no longer leads the engine; it forwards engine calls');
  }

  /**
   * Asks the leader. While no instance leads (a failover: the lease is being taken and the engine
   * rebuilt), asks again every 100 ms for up to `leaderWaitMs`; an answer that does not come within
   * `forwardTimeoutMs` is -9005 (the call may or may not have been carried out: the client repeats
   * it with the same idempotency key and gets the first answer).
   */
  async request(subject: string, payload: unknown): Promise<unknown> {
    const { bus, forwardTimeoutMs, leaderWaitMs } = this.options;
    const data = encodeJson(payload);
    const until = Date.now() + leaderWaitMs;
    this.stats.forwarded++;
    for (;;) {
      try {
        let reject: (error: Error) => void = () => undefined;
        const superseded = new Promise<never>((_, no) => {
          reject = no;
        });
        this.inFlight.add(reject);
        let raw: Uint8Array;
        try {
          raw = await Promise.race([bus.request(subject, data, forwardTimeoutMs), superseded]);
        } finally {
          this.inFlight.delete(reject);
        }
        const answer = decodeJson<{ notLeader?: true }>(raw);
        if (!answer.notLeader) {
          return answer;
        }
      } catch (error) {
        if (error instanceof AppError) {
          this.stats.forwardFailures++;
          throw error;
        }
        if (error instanceof BusTimeout) {
          this.stats.forwardFailures++;
          throw new AppError(AppErrorCode.SERVICE_UNAVAILABLE, undefined, error.message);
        }
        if (!(error instanceof BusNoResponders)) {
          this.stats.forwardFailures++;
          throw new AppError(AppErrorCode.SERVICE_UNAVAILABLE, undefined, String(error));
        }
      }
      if (Date.now() >= until) {
        this.stats.forwardFailures++;
        throw new AppError(AppErrorCode.SERVICE_UNAVAILABLE, undefined, 'no engine leader');
      }
      this.stats.forwardRetries++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const stop of this.unsubscribers.splice(0)) stop();
    await this.transition;
    await this.becomeStandby();
  }
}

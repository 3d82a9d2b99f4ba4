import {
  connect,
  type NatsConnection,
  RequestError,
  type Subscription,
  TimeoutError,
} from '@nats-io/transport-node';
import { BusNoResponders, BusTimeout, emptyBusStats, type TBus, type TBusStats } from './bus';

/** The queue group of every responder: one answer per request, whichever instance serves it. */
const QUEUE = 'serve';

/**
 * The bus over NATS (core NATS: request/reply and fan-out). Subjects are prefixed with the
 * deployment's own prefix (BUS_PREFIX), so brokers on separate databases can share one NATS.
 * The client reconnects forever; while it does, publishes are buffered by the client and requests
 * fail (the caller answers -9005 and the client retries).
 */
export class NatsBus implements TBus {
  readonly kind = 'nats' as const;
  readonly stats: TBusStats = emptyBusStats();
  private up = true;
  private readonly subscriptions = new Set<Subscription>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    log: { warn(message: string): void; info(message: string): void },
  ) {
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect') {
          this.up = false;
          log.warn('bus: disconnected from NATS; reconnecting');
        } else if (status.type === 'reconnect') {
          this.up = true;
          this.stats.reconnects++;
          log.info('bus: reconnected to NATS');
        }
      }
    })().catch(() => undefined);
  }

  static async connect(
    url: string,
    prefix: string,
    name: string,
    log: { warn(message: string): void; info(message: string): void },
    token?: string,
  ): Promise<NatsBus> {
    const nc = await connect({
      servers: url.split(',').map((s) => s.trim().replace(/^nats:\/\//, '')),
      name,
      ...(token ? { token } : {}),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      pingInterval: 5_000,
      maxPingOut: 2,
    });
    return new NatsBus(nc, prefix, log);
  }

  get connected(): boolean {
    return this.up && !this.nc.isClosed();
  }

  private subject(name: string) {
    return `${this.prefix}.${name}`;
  }

  publish(subject: string, data: Uint8Array): void {
    this.stats.published++;
    try {
      this.nc.publish(this.subject(subject), data);
    } catch {
      // closed or draining: the event is lost with the connection, as it would be on a crash
    }
  }

  subscribe(subject: string, listener: (data: Uint8Array, subject: string) => void): () => void {
    const strip = this.prefix.length + 1;
    const sub = this.nc.subscribe(this.subject(subject), {
      callback: (error, msg) => {
        if (error) return;
        this.stats.received++;
        try {
          listener(msg.data, msg.subject.slice(strip));
        } catch {
          // a listener's failure stays with it
        }
      },
    });
    this.subscriptions.add(sub);
    return () => {
      this.subscriptions.delete(sub);
      sub.unsubscribe();
    };
  }

  serve(subject: string, responder: (data: Uint8Array) => Promise<Uint8Array>): () => void {
    const sub = this.nc.subscribe(this.subject(subject), {
      queue: QUEUE,
      callback: (error, msg) => {
        if (error) return;
        responder(msg.data).then(
          (answer) => {
            this.stats.served++;
            msg.respond(answer);
          },
          () => undefined,
        );
      },
    });
    this.subscriptions.add(sub);
    return () => {
      this.subscriptions.delete(sub);
      sub.unsubscribe();
    };
  }

  async request(subject: string, data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    this.stats.requests++;
    try {
      const msg = await this.nc.request(this.subject(subject), data, { timeout: timeoutMs });
      return msg.data;
    } catch (error) {
      this.stats.requestFailures++;
      if (error instanceof RequestError && error.isNoResponders()) throw new BusNoResponders(subject);
      if (
        error instanceof TimeoutError ||
        (error instanceof RequestError && error.cause instanceof TimeoutError)
      )
        throw new BusTimeout(subject, timeoutMs);
      throw error;
    }
  }

  /** Round trip to the NATS server, for health. */
  async rtt(): Promise<number> {
    return this.nc.rtt();
  }

  get natsConnection(): NatsConnection {
    return this.nc;
  }

  async close(): Promise<void> {
    for (const sub of this.subscriptions) sub.unsubscribe();
    this.subscriptions.clear();
    await this.nc.drain().catch(() => this.nc.close());
  }
}

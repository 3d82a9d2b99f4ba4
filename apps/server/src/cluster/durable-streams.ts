import { type JetStreamClient, type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { TAuditSink, TRelayedAuditEvent } from '../modules/audit';
import type { NatsBus } from './nats-bus';

/** How long the stream drops a repeated entry (a leader that died between storing and moving on). */
const DUPLICATE_WINDOW_NS = 10 * 60 * 1_000_000_000;

/**
 * The durable streams on NATS JetStream (issue 20, ADR 014): `<PREFIX>_AUDIT` carries every broker's
 * audit trail in chain order, one subject per broker (`<prefix>.audit.<tenant>`), each entry's id
 * being `<tenant>:<seq>` so that a repeat is stored once. File storage, kept 90 days.
 */
export class DurableStreams implements TAuditSink {
  private constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly prefix: string,
  ) {}

  static async open(bus: NatsBus, prefix: string): Promise<DurableStreams> {
    const nc = bus.natsConnection;
    const jsm = await jetstreamManager(nc);
    const name = `${prefix.toUpperCase()}_AUDIT`;
    const config = {
      subjects: [`${prefix}.audit.>`],
      max_age: 90 * 24 * 3600 * 1_000_000_000,
      duplicate_window: DUPLICATE_WINDOW_NS,
    };
    try {
      await jsm.streams.info(name);
      await jsm.streams.update(name, config);
    } catch {
      await jsm.streams.add({ name, ...config });
    }
    return new DurableStreams(jetstream(nc), jsm, prefix);
  }

  get auditStream(): string {
    return `${this.prefix.toUpperCase()}_AUDIT`;
  }

  auditSubject(tenantId: string): string {
    return `${this.prefix}.audit.${tenantId}`;
  }

  async lastSeq(tenantId: string): Promise<number> {
    const last = await this.jsm.streams
      .getMessage(this.auditStream, { last_by_subj: this.auditSubject(tenantId) })
      .catch(() => null);
    if (!last) return 0;
    return (last.json() as TRelayedAuditEvent).seq;
  }

  async publish(event: TRelayedAuditEvent): Promise<void> {
    await this.js.publish(this.auditSubject(event.tenantId), JSON.stringify(event), {
      msgID: `${event.tenantId}:${event.seq}`,
    });
  }
}

import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/** One audit entry as it leaves the database for the durable stream. */
export interface TRelayedAuditEvent {
  tenantId: string;
  seq: number;
  id: string;
  createdAt: string;
  actorKind: string;
  actorId: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  hash: string;
  prevHash: string;
}

/** Where the entries go (a JetStream stream), and how far it already has each broker's chain. */
export interface TAuditSink {
  /** The last chain position of the broker the sink holds (0: none). */
  lastSeq(tenantId: string): Promise<number>;
  /** Stores one entry; resolves once it is stored (a repeat of the same entry is stored once). */
  publish(event: TRelayedAuditEvent): Promise<void>;
}

const BATCH = 500;

type TAuditRow = {
  id: string;
  tenant_id: string;
  seq: string | number;
  created_at: Date | string;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  hash: string;
  prev_hash: string;
};

/**
 * Copies the audit trail to a durable stream (issue 20), in each broker's chain order, from where
 * the stream stands: the trail in PostgreSQL stays the record (written in the change's own
 * transaction), the stream is what other systems read without querying the database. Each broker's
 * `seq` is gapless and given in commit order (migration 015: one lock per broker), so "after the last
 * position the stream holds" never skips an entry committed late. Started on the engine leader only;
 * a new leader resumes from the stream, and a repeat (a leader that died between storing and
 * moving on) is stored once (the stream drops duplicates by id).
 */
export class AuditRelay {
  private readonly cursors = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  relayed = 0;

  constructor(
    private readonly db: TDb,
    private readonly sink: TAuditSink,
    private readonly log: { error(details: object, message: string): void },
    private readonly everyMs = 500,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round()
        .then(() => undefined)
        .catch((error: unknown) => this.log.error({ err: error }, 'audit relay: a round failed'))
        .finally(() => this.schedule(this.everyMs));
    }, ms);
    this.timer.unref?.();
  }

  /** Copies what is new; answers how many entries it stored. */
  async round(): Promise<number> {
    let stored = 0;
    for (const tenantId of await this.tenants()) {
      let cursor: number = this.cursors.get(tenantId) ?? (await this.sink.lastSeq(tenantId));
      this.cursors.set(tenantId, cursor);
      for (;;) {
        if (this.stopped) return stored;
        const rows: TAuditRow[] = await this.db
          .selectFrom('audit_events')
          .selectAll()
          .where('tenant_id', '=', tenantId)
          .where('seq', '>', String(cursor) as never)
          .orderBy('seq')
          .limit(BATCH)
          .execute();
        for (const row of rows) {
          const seq: number = Number(row.seq);
          await this.sink.publish({
            tenantId,
            seq,
            id: String(row.id),
            createdAt: new Date(row.created_at).toISOString(),
            actorKind: row.actor_kind,
            actorId: row.actor_id,
            action: row.action,
            target: row.target,
            ip: row.ip,
            details: row.details,
            hash: row.hash,
            prevHash: row.prev_hash,
          });
          cursor = seq;
          this.cursors.set(tenantId, cursor);
          stored++;
          this.relayed++;
        }
        if (rows.length < BATCH) break;
      }
    }
    return stored;
  }

  /** The brokers with an audit trail: a skip scan of the (tenant_id, seq) index. */
  private async tenants(): Promise<string[]> {
    const { rows } = await sql<{ tenant_id: string }>`
      with recursive t as (
        (select tenant_id from audit_events order by tenant_id limit 1)
        union all
        select (select a.tenant_id from audit_events a where a.tenant_id > t.tenant_id
                 order by a.tenant_id limit 1)
          from t where t.tenant_id is not null)
      select tenant_id from t where tenant_id is not null`.execute(this.db);
    return rows.map((r) => r.tenant_id);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running.catch(() => undefined);
    // The next leader (this one again, or another) reads where the stream stands.
    this.cursors.clear();
  }
}

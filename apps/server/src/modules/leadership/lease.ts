import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { TDatabase, TSession } from '../../db/database';

/** The advisory lock of the engine lease (the migrations take 7_340_021). */
export const ENGINE_LEASE_LOCK_ID = 7_340_020;

/** How often the leader asks its lease session whether it still leads, and how long it waits. */
const HEARTBEAT_MS = 2_000;
const HEARTBEAT_TIMEOUT_MS = 10_000;
/**
 * The server ends a lease session silent for this long (idle_session_timeout), and one whose sent
 * data goes unacknowledged for this long (tcp_user_timeout): a paused, partitioned or dead leader
 * gives the lock back within it, instead of the hours TCP keepalives take by default.
 */
const SESSION_SILENCE_S = 15;
/** A lost lease is tried again this often (one instance without a bus: it leads again at once). */
const RETRY_MS = 1_000;
/**
 * How long a start waits for a held lease before refusing: a predecessor just killed (a restart by
 * a supervisor) gives it back as soon as the server has seen its connection close.
 */
const START_WAIT_MS = 5_000;

export type TLeaseKind = 'embedded' | 'advisory-lock';

export interface TLeaseStatus {
  role: 'leader' | 'standby';
  lease: TLeaseKind;
  /** The epoch the engine's commits carry while this instance leads; null otherwise. */
  epoch: number | null;
  instance: string;
  host: string;
  pid: number;
  /** When this instance won the lease it holds. */
  since: string | null;
  /** Leases this instance lost since it started. */
  losses: number;
}

interface TLog {
  info(message: string): void;
  error(message: string): void;
}

/** Another live instance holds the lease, and there is no bus to share its engine over. */
export class EngineLeaseHeldError extends Error {}

type THolder = {
  epoch: string;
  holder: string;
  host: string;
  pid: number;
  acquired_at: Date | string;
  client_addr: string | null;
};

/**
 * The trading engine's lease (ADR 013): the instance that holds it runs the engine, the single
 * writer, and its group commits carry the epoch it took when it won (engine_fence refuses any other).
 *
 * - PostgreSQL server: `pg_try_advisory_lock` on a session of its own, kept open and checked every
 *   2 s; the server gives the lock back when that session ends (process killed, connection lost,
 *   15 s of silence). Winning takes the next epoch in `engine_epoch` on that session.
 * - PGlite: the database lives inside this process, which is the only one that can reach it: the
 *   lease is held by construction. The epoch is still taken and checked, so the commit path and
 *   its fencing are the same on both databases.
 *
 * When the lease is lost (the session ended or stopped answering, or a commit was fenced off) the
 * listeners hear `null` at once and the engine stops writing; without a bus this instance is the
 * only one, so it tries again every second and, once it wins, the listeners hear the new epoch and
 * the engine rebuilds itself from the database.
 */
export class EngineLease {
  readonly instance = randomUUID().slice(0, 8);
  readonly host = hostname();
  readonly pid = process.pid;
  readonly kind: TLeaseKind;
  private session: TSession | null = null;
  private current: number | null = null;
  private since: Date | null = null;
  private losses = 0;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private beating = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private retryProblem: string | null = null;
  /** How often a lease not held is tried (a standby: how soon it takes over from a dead leader). */
  private retryMs = RETRY_MS;
  private stopped = false;
  private readonly listeners = new Set<(epoch: number | null) => void>();

  private constructor(
    private readonly database: TDatabase,
    private readonly log: TLog,
  ) {
    this.kind = database.session ? 'advisory-lock' : 'embedded';
  }

  /**
   * Wins the lease for this instance, or refuses with EngineLeaseHeldError when another live
   * instance holds it (a database that cannot be reached fails the start as any other query would).
   */
  static async acquire(
    database: TDatabase,
    log: TLog,
    options: { waitMs?: number; standby?: boolean; retryMs?: number } = {},
  ): Promise<EngineLease> {
    const lease = new EngineLease(database, log);
    if (options.retryMs) lease.retryMs = options.retryMs;
    // With a bus, an instance that finds the lease held starts as a standby at once: it serves
    // HTTP and WebSockets, forwards engine calls to the leader, and takes the lease when it is free.
    const until = Date.now() + (options.standby ? 0 : (options.waitMs ?? START_WAIT_MS));
    for (;;) {
      const holder = await lease.tryAcquire();
      if (holder === null) return lease;
      if (options.standby) {
        log.info(`engine lease held by ${describe(holder)}: this instance starts as a standby`);
        lease.retryProblem = `held by another instance: ${describe(holder)}`;
        lease.scheduleRetry();
        return lease;
      }
      if (Date.now() >= until) throw new EngineLeaseHeldError(refusal(holder));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** The epoch this instance's commits carry, or null while it does not lead. */
  get epoch(): number | null {
    return this.current;
  }

  status(): TLeaseStatus {
    return {
      role: this.current === null ? 'standby' : 'leader',
      lease: this.kind,
      epoch: this.current,
      instance: this.instance,
      host: this.host,
      pid: this.pid,
      since: this.since?.toISOString() ?? null,
      losses: this.losses,
    };
  }

  /** Hears `null` when the lease is lost, and the new epoch when it is won again. */
  onChange(listener: (epoch: number | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Whether `epoch` is still this instance's lease, asked on the lease session after a commit
   * failed: a session that errs or does not answer loses the lease.
   */
  async confirm(epoch: number): Promise<boolean> {
    if (this.current !== epoch) return false;
    if (!this.session) return true; // embedded: held by construction
    await this.beat();
    return this.current === epoch;
  }

  /** The engine gives up `epoch` (a commit of it was fenced off, or it could not be rebuilt). */
  lost(epoch: number, reason: string): void {
    if (this.current === epoch) this.lose(reason);
  }

  /** Gives the lease back (the server stops): ends the term and the session, tries no more. */
  async release(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retry) clearTimeout(this.retry);
    this.heartbeat = null;
    this.retry = null;
    const epoch = this.current;
    const session = this.session;
    this.current = null;
    this.session = null;
    if (epoch !== null) {
      const ended: Promise<unknown> = session
        ? session.rows('update engine_terms set ended_at = now() where epoch = $1', [epoch])
        : sql`update engine_terms set ended_at = now() where epoch = ${epoch}`.execute(this.database.db);
      await within(ended, 2_000).catch(() => undefined);
    }
    await session?.close();
  }

  /** Null when won; otherwise who holds it. */
  private async tryAcquire(): Promise<THolder | null> {
    if (!this.database.session) {
      const epoch = await this.bump(null);
      if (!this.stopped) this.won(epoch);
      return null;
    }
    const session = await this.database.session(`broker engine ${this.instance}`);
    try {
      const [row] = await session.rows<{ won: boolean }>('select pg_try_advisory_lock($1) as won', [
        ENGINE_LEASE_LOCK_ID,
      ]);
      if (!row?.won) {
        const holder = await describeHolder(session);
        await session.close();
        return holder;
      }
      // Best effort: a server without one of these settings still fences every commit.
      for (const setting of [
        `set idle_session_timeout = '${SESSION_SILENCE_S}s'`,
        `set tcp_user_timeout = ${SESSION_SILENCE_S * 1000}`,
        'set tcp_keepalives_idle = 5',
        'set tcp_keepalives_interval = 5',
        'set tcp_keepalives_count = 3',
        "set statement_timeout = '10s'",
      ])
        await session.rows(setting).catch(() => undefined);
      const epoch = await this.bump(session);
      if (this.stopped) {
        await session.close();
        return null;
      }
      this.session = session;
      session.onEnd((error) =>
        this.lose(`its database session ended${error ? ` (${error.message.split('\n', 1)[0]})` : ''}`),
      );
      this.won(epoch);
      this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
      this.heartbeat.unref();
      return null;
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  /**
   * Takes the next epoch and opens its term, in one statement. Its UPDATE waits for a commit of the
   * previous epoch in flight (engine_fence holds the row FOR SHARE), so whatever is read after it
   * includes every commit the previous leader could still acknowledge.
   */
  private async bump(session: TSession | null): Promise<number> {
    const text = `with bumped as (
        update engine_epoch set epoch = epoch + 1, holder = $1, host = $2, pid = $3, acquired_at = now()
         where id = 1 returning epoch),
      ended as (update engine_terms set ended_at = now() where ended_at is null),
      term as (insert into engine_terms (epoch, holder, host, pid, lease)
               select epoch, $1, $2, $3, $4 from bumped)
      select epoch from bumped`;
    const values = [this.instance, this.host, this.pid, this.kind];
    const rows = session
      ? await session.rows<{ epoch: string }>(text, values)
      : (
          await sql<{ epoch: string }>`with bumped as (
              update engine_epoch set epoch = epoch + 1, holder = ${this.instance}, host = ${this.host},
                     pid = ${this.pid}, acquired_at = now()
               where id = 1 returning epoch),
            ended as (update engine_terms set ended_at = now() where ended_at is null),
            term as (insert into engine_terms (epoch, holder, host, pid, lease)
                     select epoch, ${this.instance}, ${this.host}, ${this.pid}, ${this.kind} from bumped)
            select epoch from bumped`.execute(this.database.db)
        ).rows;
    const epoch = Number(rows[0]?.epoch);
    if (!Number.isSafeInteger(epoch) || epoch < 1) throw new Error('engine_epoch: no epoch row');
    return epoch;
  }

  private won(epoch: number) {
    const again = this.losses > 0;
    this.current = epoch;
    this.since = new Date();
    this.retryProblem = null;
    if (again) this.log.info(`engine lease won again: epoch ${epoch}; the engine rebuilds from the database`);
    this.notify(epoch);
  }

  private lose(reason: string) {
    if (this.current === null) return;
    const epoch = this.current;
    this.current = null;
    this.since = null;
    this.losses++;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const session = this.session;
    this.session = null;
    void session?.close();
    this.log.error(`engine lease lost (epoch ${epoch}): ${reason}; the engine stops writing`);
    this.notify(null);
    this.scheduleRetry();
  }

  /** Asks the lease session for the current epoch; an error, a silence or another epoch loses it. */
  private async beat() {
    const session = this.session;
    if (!session || this.beating) return;
    this.beating = true;
    try {
      const rows = await within(
        session.rows<{ epoch: string }>('select epoch from engine_epoch where id = 1'),
        HEARTBEAT_TIMEOUT_MS,
      );
      if (this.session === session && Number(rows[0]?.epoch) !== this.current)
        this.lose(`a newer epoch (${rows[0]?.epoch}) was taken`);
    } catch (error) {
      if (this.session === session) this.lose(`its database session did not answer (${message(error)})`);
    } finally {
      this.beating = false;
    }
  }

  private scheduleRetry() {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped || this.current !== null) return;
      this.tryAcquire().then(
        (holder) => {
          if (!holder) return;
          this.report(
            holder.holder === this.instance
              ? 'still held by the session this instance lost (the server has not ended it yet)'
              : `held by another instance: ${describe(holder)}`,
          );
          this.scheduleRetry();
        },
        (error: unknown) => {
          this.report(`the database did not answer (${message(error)})`);
          this.scheduleRetry();
        },
      );
    }, this.retryMs);
    this.retry.unref();
  }

  /** Logs why the lease cannot be won again, once per reason. */
  private report(problem: string) {
    if (problem === this.retryProblem) return;
    this.retryProblem = problem;
    if (this.losses === 0) {
      // A standby that never led: waiting is its normal state.
      this.log.info(`engine lease (standby): ${problem}; trying every ${this.retryMs / 1000} s`);
      return;
    }
    this.log.error(`engine lease not won back yet: ${problem}; trying again every ${this.retryMs / 1000} s`);
  }

  private notify(epoch: number | null) {
    for (const listener of this.listeners) listener(epoch);
  }
}

async function describeHolder(session: TSession): Promise<THolder> {
  const [row] = await session.rows<THolder>(
    `select e.epoch, e.holder, e.host, e.pid, e.acquired_at,
            (select a.client_addr::text from pg_locks l join pg_stat_activity a on a.pid = l.pid
              where l.locktype = 'advisory' and l.granted and l.classid = 0 and l.objid = $1
                and l.objsubid = 1
                and l.database = (select oid from pg_database where datname = current_database())
              limit 1) as client_addr
       from engine_epoch e where e.id = 1`,
    [ENGINE_LEASE_LOCK_ID],
  );
  return row ?? { epoch: '?', holder: '?', host: '?', pid: 0, acquired_at: new Date(0), client_addr: null };
}

function describe(holder: THolder): string {
  const since = new Date(holder.acquired_at).toISOString();
  const from = holder.client_addr ? `, connected from ${holder.client_addr}` : '';
  return `instance ${holder.holder} on ${holder.host || '?'}, pid ${holder.pid}, epoch ${holder.epoch} since ${since}${from}`;
}

/** The start's refusal: what is wrong, and what to do. */
function refusal(holder: THolder): string {
  return [
    `Refusing to start the trading engine: another live instance holds its lease on this database (${describe(holder)}).`,
    'Without a bus (NATS_URL), one instance runs the engine: a second one on the same database would trade the same accounts from its own memory.',
    'Stop the other instance first, or give this one a database of its own. To run several instances on one database, start every one of them with NATS_URL (the bus that carries their engine calls to the one leader; docs/operations.md, "Several instances").',
  ].join('\n');
}

function message(error: unknown): string {
  return String((error as { message?: unknown })?.message ?? error).split('\n', 1)[0] ?? '';
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

import { AUDIT_EXPORT_MAX_ROWS } from '@broker/contracts/admin/audit-rules';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { recordAudit } from '../audit';

export interface TOperationFilter {
  actor?: string | undefined;
  actorKind?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** LIKE pattern text with its wildcards taken literally (backslash is PostgreSQL's default escape). */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const DAY_MS = 86_400_000;

type TIds = { tenantId: string; ids: readonly string[] };
type TText = { tenantId: string; contains: string };

/**
 * Who the trail's actors are: the staff (access) and the traders (identity). Both record into the
 * trail, so audit cannot import them; the HTTP layer hands their queries in (ADR 011).
 */
export interface TActorDirectory {
  staffNames(db: TDb, input: TIds): Promise<ReadonlyMap<string, { username: string }>>;
  userNames(
    db: TDb,
    input: TIds,
  ): Promise<ReadonlyMap<string, { email: string | null; phone: string | null }>>;
  /** The staff whose username contains the text, in any case. */
  staffIdsByUsername(db: TDb, input: TText): Promise<readonly string[]>;
  /** The traders whose email or phone contains the text, in any case. */
  userIdsByContact(db: TDb, input: TText): Promise<readonly string[]>;
}

/** What reading the operation history works with: the database and the directory of its actors. */
export interface TOperationPorts {
  db: TDb;
  actors: TActorDirectory;
}

/** The entries of one broker that match the filter (dates are UTC days, both included). */
async function filtered({ db, actors }: TOperationPorts, tenantId: string, filter: TOperationFilter) {
  let query = db.selectFrom('audit_events as e').where('e.tenant_id', '=', tenantId);
  if (filter.actorKind) query = query.where('e.actor_kind', '=', filter.actorKind);
  if (filter.action) query = query.where('e.action', 'like', `${likeLiteral(filter.action)}%`);
  if (filter.target) query = query.where('e.target', 'ilike', `%${likeLiteral(filter.target)}%`);
  if (filter.from) query = query.where('e.created_at', '>=', new Date(`${filter.from}T00:00:00Z`));
  if (filter.to)
    query = query.where('e.created_at', '<', new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS));
  const actor = filter.actor;
  if (actor) {
    // The actor's id, or a staff member's username, or a trader's email or phone containing it.
    const named = [
      ...(await actors.staffIdsByUsername(db, { tenantId, contains: actor })),
      ...(await actors.userIdsByContact(db, { tenantId, contains: actor })),
    ];
    query = query.where((eb) =>
      eb.or([
        eb('e.actor_id', '=', actor),
        ...(named.length > 0 ? [sql<boolean>`e.actor_id = any(${named})`] : []),
      ]),
    );
  }
  return query;
}

/** The entry columns every answer shows. */
const ENTRY = [
  'e.id',
  'e.seq',
  'e.created_at',
  'e.actor_kind',
  'e.actor_id',
  'e.action',
  'e.target',
  'e.ip',
] as const;

interface TEntryRow {
  id: string | number;
  seq: string | number;
  created_at: Date;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
}

/**
 * The entries with their actor's current name (staff username, trader email or phone), asked of
 * access and identity once for all the entries.
 */
async function withActorNames<R extends TEntryRow>(
  { db, actors }: TOperationPorts,
  tenantId: string,
  rows: readonly R[],
): Promise<(R & { actor_name: string | null })[]> {
  const idsOf = (kind: string) =>
    rows.flatMap((r) => (r.actor_kind === kind && r.actor_id !== null ? [r.actor_id] : []));
  const [staff, users] = await Promise.all([
    actors.staffNames(db, { tenantId, ids: idsOf('staff') }),
    actors.userNames(db, { tenantId, ids: idsOf('user') }),
  ]);
  const nameOf = (row: TEntryRow): string | null => {
    if (row.actor_id === null) return null;
    if (row.actor_kind === 'staff') return staff.get(row.actor_id)?.username ?? null;
    if (row.actor_kind !== 'user') return null;
    const user = users.get(row.actor_id);
    return user?.email ?? user?.phone ?? null;
  };
  return rows.map((row) => ({ ...row, actor_name: nameOf(row) }));
}

const entryOf = (row: TEntryRow & { actor_name: string | null }) => ({
  id: String(row.id),
  seq: Number(row.seq),
  createdAt: new Date(row.created_at).toISOString(),
  actorKind: row.actor_kind,
  actorId: row.actor_id,
  actorName: row.actor_name,
  action: row.action,
  target: row.target,
  ip: row.ip,
});

export type TOperationEntry = ReturnType<typeof entryOf>;

/** One page of the broker's history, newest first, and how many entries match. */
export async function listOperations(
  ports: TOperationPorts,
  {
    actor,
    filter,
    page,
    pageSize,
  }: { actor: TActor; filter: TOperationFilter; page: number; pageSize: number },
) {
  const { tenantId } = actor;
  const query = await filtered(ports, tenantId, filter);
  const [rows, count] = await Promise.all([
    query
      .select(ENTRY)
      .orderBy('e.seq', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    query.select(sql<string | number>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  const named = await withActorNames(ports, tenantId, rows);
  return { rows: named.map(entryOf), total: Number(count?.n ?? 0), page, pageSize };
}

/** One entry of this broker with its details, hashes and whether its hash still matches. */
export async function operationDetail(ports: TOperationPorts, { actor, id }: { actor: TActor; id: string }) {
  const found = await ports.db
    .selectFrom('audit_events as e')
    .where('e.tenant_id', '=', actor.tenantId)
    .where('e.id', '=', id)
    .select(ENTRY)
    .select([
      'e.details',
      'e.hash',
      'e.prev_hash',
      sql<string>`audit_event_hash(e.tenant_id, e.seq, e.created_at, e.actor_kind, e.actor_id, e.action,
        e.target, e.ip, e.details, e.prev_hash)`.as('recomputed'),
    ])
    .executeTakeFirst();
  const [row] = await withActorNames(ports, actor.tenantId, found ? [found] : []);
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return {
    ...entryOf(row),
    details: row.details ?? {},
    hash: row.hash,
    prevHash: row.prev_hash,
    hashValid: row.recomputed === row.hash,
  };
}

/** The distinct actions of this broker's history, for the filter's suggestions. */
export async function operationActions({ db }: { db: TDb }, { actor }: { actor: TActor }) {
  const rows = await db
    .selectFrom('audit_events')
    .select('action')
    .distinct()
    .where('tenant_id', '=', actor.tenantId)
    .orderBy('action')
    .limit(500)
    .execute();
  return { actions: rows.map((r) => r.action) };
}

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; text that a spreadsheet would
 * run as a formula (= + - @ at the start) gets a leading apostrophe.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const CSV_HEADER = [
  'seq',
  'time_utc',
  'actor_kind',
  'actor_id',
  'actor',
  'action',
  'target',
  'ip',
  'details',
  'hash',
  'prev_hash',
] as const;

/**
 * The filtered history as CSV, newest first, capped at AUDIT_EXPORT_MAX_ROWS rows (`capped` says
 * more matched). UTF-8 with a byte-order mark so spreadsheet programs read Chinese text right. An
 * export takes the trail out of the system: it is recorded itself, with its filter and size.
 */
export async function exportOperations(
  ports: TOperationPorts,
  { actor, filter, now = new Date() }: { actor: TActor; filter: TOperationFilter; now?: Date },
) {
  const { db } = ports;
  const rows = await (await filtered(ports, actor.tenantId, filter))
    .select(ENTRY)
    .select(['e.details', 'e.hash', 'e.prev_hash'])
    .orderBy('e.seq', 'desc')
    .limit(AUDIT_EXPORT_MAX_ROWS + 1)
    .execute();
  const capped = rows.length > AUDIT_EXPORT_MAX_ROWS;
  const kept = await withActorNames(
    ports,
    actor.tenantId,
    capped ? rows.slice(0, AUDIT_EXPORT_MAX_ROWS) : rows,
  );
  const lines = [CSV_HEADER.join(',')];
  for (const row of kept) {
    const entry = entryOf(row);
    lines.push(
      [
        entry.seq,
        entry.createdAt,
        entry.actorKind,
        entry.actorId,
        entry.actorName,
        entry.action,
        entry.target,
        entry.ip,
        JSON.stringify(row.details ?? {}),
        row.hash,
        row.prev_hash,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const filename = `operations-${stamp}.csv`;
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'operations.export',
    target: filename,
    ip: actor.ip,
    details: { filter, rows: kept.length, capped },
  });
  return { filename, csv: `\uFEFF${lines.join('\r\n')}\r\n`, rows: kept.length, capped };
}

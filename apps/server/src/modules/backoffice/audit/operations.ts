import { AUDIT_EXPORT_MAX_ROWS } from '@broker/contracts/admin/audit-rules';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { TDb } from '../../../db/database';
import type { TDatabaseSchema } from '../../../db/schema';

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

type TFrom = TDatabaseSchema & { e: TDatabaseSchema['audit_events'] };

/** The entries of one broker that match the filter (dates are UTC days, both included). */
function filtered(db: TDb, tenantId: string, filter: TOperationFilter) {
  let query = db.selectFrom('audit_events as e').where('e.tenant_id', '=', tenantId);
  if (filter.actorKind) query = query.where('e.actor_kind', '=', filter.actorKind);
  if (filter.action) query = query.where('e.action', 'like', `${likeLiteral(filter.action)}%`);
  if (filter.target) query = query.where('e.target', 'ilike', `%${likeLiteral(filter.target)}%`);
  if (filter.from) query = query.where('e.created_at', '>=', new Date(`${filter.from}T00:00:00Z`));
  if (filter.to)
    query = query.where('e.created_at', '<', new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS));
  const actor = filter.actor;
  if (actor) {
    const pattern = `%${likeLiteral(actor)}%`;
    query = query.where((eb: ExpressionBuilder<TFrom, 'e'>) =>
      eb.or([
        eb('e.actor_id', '=', actor),
        eb(
          'e.actor_id',
          'in',
          eb
            .selectFrom('staff')
            .select('staff.id')
            .where('staff.tenant_id', '=', tenantId)
            .where('staff.username', 'ilike', pattern),
        ),
        eb(
          'e.actor_id',
          'in',
          eb
            .selectFrom('users')
            .select('users.id')
            .where('users.tenant_id', '=', tenantId)
            .where((u) => u.or([u('users.email', 'ilike', pattern), u('users.phone', 'ilike', pattern)])),
        ),
      ]),
    );
  }
  return query;
}

/** Entry columns with the actor's current name (staff username, trader email or phone). */
function withActor(query: SelectQueryBuilder<TFrom, 'e', object>) {
  return query
    .leftJoin('staff as s', (join) =>
      join
        .onRef('s.id', '=', 'e.actor_id')
        .onRef('s.tenant_id', '=', 'e.tenant_id')
        .on('e.actor_kind', '=', 'staff'),
    )
    .leftJoin('users as u', (join) =>
      join
        .onRef('u.id', '=', 'e.actor_id')
        .onRef('u.tenant_id', '=', 'e.tenant_id')
        .on('e.actor_kind', '=', 'user'),
    )
    .select([
      'e.id',
      'e.seq',
      'e.created_at',
      'e.actor_kind',
      'e.actor_id',
      'e.action',
      'e.target',
      'e.ip',
      sql<string | null>`coalesce(s.username, u.email, u.phone)`.as('actor_name'),
    ]);
}

interface TEntryRow {
  id: string | number;
  seq: string | number;
  created_at: Date;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  actor_name: string | null;
}

const entryOf = (row: TEntryRow) => ({
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
export async function listOperations({
  db,
  tenantId,
  filter,
  page,
  pageSize,
}: {
  db: TDb;
  tenantId: string;
  filter: TOperationFilter;
  page: number;
  pageSize: number;
}) {
  const [rows, count] = await Promise.all([
    withActor(filtered(db, tenantId, filter))
      .orderBy('e.seq', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    filtered(db, tenantId, filter).select(sql<string | number>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  return { rows: rows.map(entryOf), total: Number(count?.n ?? 0), page, pageSize };
}

/** One entry of this broker with its details, hashes and whether its hash still matches. */
export async function operationDetail({ db, tenantId, id }: { db: TDb; tenantId: string; id: string }) {
  const row = await withActor(db.selectFrom('audit_events as e').where('e.tenant_id', '=', tenantId))
    .where('e.id', '=', id)
    .select([
      'e.details',
      'e.hash',
      'e.prev_hash',
      sql<string>`audit_event_hash(e.tenant_id, e.seq, e.created_at, e.actor_kind, e.actor_id, e.action,
        e.target, e.ip, e.details, e.prev_hash)`.as('recomputed'),
    ])
    .executeTakeFirst();
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
export async function operationActions({ db, tenantId }: { db: TDb; tenantId: string }) {
  const rows = await db
    .selectFrom('audit_events')
    .select('action')
    .distinct()
    .where('tenant_id', '=', tenantId)
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
 * more matched). UTF-8 with a byte-order mark so spreadsheet programs read Chinese text right.
 */
export async function exportOperations({
  db,
  tenantId,
  filter,
  now = new Date(),
}: {
  db: TDb;
  tenantId: string;
  filter: TOperationFilter;
  now?: Date;
}) {
  const rows = await withActor(filtered(db, tenantId, filter))
    .select(['e.details', 'e.hash', 'e.prev_hash'])
    .orderBy('e.seq', 'desc')
    .limit(AUDIT_EXPORT_MAX_ROWS + 1)
    .execute();
  const capped = rows.length > AUDIT_EXPORT_MAX_ROWS;
  const kept = capped ? rows.slice(0, AUDIT_EXPORT_MAX_ROWS) : rows;
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
  return {
    filename: `operations-${stamp}.csv`,
    csv: `\uFEFF${lines.join('\r\n')}\r\n`,
    rows: kept.length,
    capped,
  };
}

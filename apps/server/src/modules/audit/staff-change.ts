import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TDb } from '../../db/database';
import { recordAudit } from './audit';

/** Who made a back-office change: the history entry names them and where they came from. */
export interface TStaffActor {
  tenantId: string;
  staffId: string;
  ip: string;
}

/** Writes a staff member's change to the broker's history. */
export function recordStaffChange(
  db: TDb,
  { tenantId, staffId, ip }: TStaffActor,
  change: { action: string; target: string; details: Record<string, unknown> },
) {
  return recordAudit(db, {
    tenantId,
    actorKind: 'staff',
    actorId: staffId,
    action: change.action,
    target: change.target,
    ip,
    details: change.details,
  });
}

/**
 * The row an edit is about to replace, locked by the caller: -6009 when it is gone, -6017 when the
 * editor read an older revision (no revision given: the edit does not check).
 */
export function currentRevision<TRow extends { revision: number }>(
  row: TRow | undefined,
  revision: number | undefined,
): TRow {
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  if (revision !== undefined && row.revision !== revision) throw new AppError(AppErrorCode.STALE_UPDATE);
  return row;
}

/** Whether the database refused a row for a unique index (PostgreSQL 23505). */
export const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

/** Field -> { from, to } for every field whose value differs. */
export function changes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      out[key] = { from: before[key] ?? null, to: after[key] ?? null };
  }
  return out;
}

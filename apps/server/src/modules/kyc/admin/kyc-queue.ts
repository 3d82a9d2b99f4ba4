import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TKycPorts } from '../ports';
import type { TKycLevel, TKycSubmissionStatus } from '../schema';
import { submissionColumns, toSubmission } from '../submissions';
import { presentSubmissions } from './present';

const STATES: readonly TKycSubmissionStatus[] = ['pending', 'approved', 'rejected'];

/**
 * The broker's KYC submissions for review, one page: filtered by state, level and customer; the
 * waiting ones first, oldest first, then the decided ones, latest decision first; with the count
 * in each state (under the level and customer filters).
 */
export async function kycQueue(
  ports: TKycPorts,
  {
    actor,
    status,
    level,
    userId,
    page,
    size,
  }: {
    actor: TActor;
    status?: 'none' | TKycSubmissionStatus | undefined;
    level?: TKycLevel | undefined;
    userId?: string | undefined;
    page: number;
    size: number;
  },
) {
  const { db } = ports;
  let scope = db.selectFrom('kyc_submissions').where('tenant_id', '=', actor.tenantId);
  if (level) scope = scope.where('level', '=', level);
  if (userId) scope = scope.where('user_id', '=', userId);
  const perState = await scope
    .select(['status', sql<string>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  const counts: Record<string, number> = Object.fromEntries(STATES.map((s) => [s, 0]));
  for (const row of perState) counts[row.status] = Number(row.n);
  // "Not submitted" has no submission to list.
  if (status === 'none') return { items: [], total: 0, counts, page, size };
  const filtered = status ? scope.where('status', '=', status) : scope;
  const total = status ? (counts[status] ?? 0) : Object.values(counts).reduce((a, b) => a + b, 0);
  const rows = await filtered
    .select(submissionColumns)
    .orderBy(sql`(status = 'pending')`, 'desc')
    .orderBy(sql`case when status = 'pending' then submitted_at end`, 'asc')
    .orderBy(sql`coalesce(reviewed_at, submitted_at)`, 'desc')
    .orderBy('id')
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  const items = await presentSubmissions(db, actor.tenantId, rows.map(toSubmission));
  return { items, total, counts, page, size };
}

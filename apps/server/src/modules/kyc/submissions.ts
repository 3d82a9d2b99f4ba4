import type { TDb } from '../../db/database';
import type { TKycFileRole, TKycLevel, TKycSubmissionStatus } from './schema';

export type TKycState = 'none' | TKycSubmissionStatus;

export interface TBasicDetails {
  firstName: string;
  lastName: string;
  birthDate: string;
  country: string;
  documentType: 'passport' | 'id_card' | 'driving_licence';
  documentNumber: string;
}

export interface TSeniorDetails {
  addressLine: string;
  city: string;
  postalCode: string;
}

export interface TSubmissionFile {
  role: TKycFileRole;
  fileId: string;
}

/** A submission row with its JSON read. */
export interface TSubmission {
  id: string;
  tenantId: string;
  userId: string;
  level: TKycLevel;
  status: TKycSubmissionStatus;
  details: TBasicDetails | TSeniorDetails;
  files: TSubmissionFile[];
  locale: string | null;
  submittedAt: Date;
  reviewedAt: Date | null;
  reviewedBy: string | null;
  rejectReason: string | null;
}

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export const submissionColumns = [
  'id',
  'tenant_id',
  'user_id',
  'level',
  'status',
  'details',
  'files',
  'locale',
  'submitted_at',
  'reviewed_at',
  'reviewed_by',
  'reject_reason',
] as const;

export function toSubmission(row: {
  id: string;
  tenant_id: string;
  user_id: string;
  level: TKycLevel;
  status: TKycSubmissionStatus;
  details: unknown;
  files: unknown;
  locale: string | null;
  submitted_at: Date;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  reject_reason: string | null;
}): TSubmission {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    level: row.level,
    status: row.status,
    details: json(row.details),
    files: json(row.files),
    locale: row.locale,
    submittedAt: new Date(row.submitted_at),
    reviewedAt: row.reviewed_at ? new Date(row.reviewed_at) : null,
    reviewedBy: row.reviewed_by,
    rejectReason: row.reject_reason,
  };
}

/** The trader's latest submission of each level (absent when never submitted). */
export async function latestSubmissions(
  db: TDb,
  { tenantId, userId }: { tenantId: string; userId: string },
): Promise<Partial<Record<TKycLevel, TSubmission>>> {
  const rows = await db
    .selectFrom('kyc_submissions')
    .select(submissionColumns)
    .distinctOn('level')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('level')
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const latest: Partial<Record<TKycLevel, TSubmission>> = {};
  for (const row of rows) latest[row.level] = toSubmission(row);
  return latest;
}

/**
 * The trader's state of the basic level: `approved` lets them deposit and withdraw (spec 6). For
 * the funding module and anyone else who gates on KYC.
 */
export async function kycStatusOf(
  db: TDb,
  { tenantId, userId }: { tenantId: string; userId: string },
): Promise<TKycState> {
  const row = await db
    .selectFrom('kyc_submissions')
    .select('status')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('level', '=', 'basic')
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.status ?? 'none';
}

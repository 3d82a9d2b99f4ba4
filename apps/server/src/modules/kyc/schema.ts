import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../db/columns';

export type TKycLevel = 'basic' | 'senior';
export type TKycSubmissionStatus = 'pending' | 'approved' | 'rejected';
export type TKycFileRole = 'front' | 'back' | 'selfie' | 'proof' | 'video';

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** One submission of a KYC level; the trader's state of a level is their latest submission's. */
export interface KycSubmissionsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  level: TKycLevel;
  status: ColumnType<TKycSubmissionStatus, TKycSubmissionStatus | undefined, TKycSubmissionStatus>;
  /** JSON: the basic level's identity details or the senior level's address. */
  details: ColumnType<unknown, string, string>;
  /** JSON: `[{ role, fileId }]`. */
  files: ColumnType<unknown, string, string>;
  locale: Nullable<string>;
  submitted_at: Timestamp;
  reviewed_at: Nullable<Date>;
  reviewed_by: Nullable<string>;
  reject_reason: Nullable<string>;
}

/** The tables the kyc module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TKycSchema {
  kyc_submissions: KycSubmissionsTable;
}

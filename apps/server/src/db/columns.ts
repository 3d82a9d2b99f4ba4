import type { ColumnType } from 'kysely';

/** Column types the modules' table declarations share. */

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CredentialColumns {
  id: string;
  tenant_id: string;
  password_hash: string;
  display_name: string;
  status: ColumnType<'active' | 'disabled', 'active' | 'disabled' | undefined>;
  failed_attempts: ColumnType<number, number | undefined>;
  locked_until: Date | null;
  /** The authenticator time step last used (codes are single use). */
  totp_last_step: ColumnType<string | number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
}

export type BigintColumn = ColumnType<string | number, number | string, number | string>;

export type NullableBigint = ColumnType<
  string | number | null,
  number | string | null,
  number | string | null
>;

import type { ColumnType } from 'kysely';
import type { CredentialColumns, Timestamp } from '../../db/columns';

export interface StaffTable extends CredentialColumns {
  username: string;
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  last_sign_in_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  password_changed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface RolesTable {
  id: string;
  tenant_id: string;
  name: string;
  parent_id: string | null;
  permissions: string[];
  created_at: Timestamp;
  is_system: ColumnType<boolean, boolean | undefined, boolean>;
  description: ColumnType<string, string | undefined, string>;
}

export interface StaffRolesTable {
  staff_id: string;
  role_id: string;
}

/** Tables of the back office's access area: broker security settings, menu layouts, enrolments. */
export interface AccessSettingsTable {
  tenant_id: string;
  password_min_length: ColumnType<number, number | undefined, number>;
  money_two_factor: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: Timestamp;
}

/** One side-menu section as stored: an optional heading and the menu keys in order. */
export interface TStoredMenuSection {
  title: string | null;
  keys: string[];
}

export interface AccessMenuLayoutsTable {
  tenant_id: string;
  sections: ColumnType<TStoredMenuSection[], string, string>;
  hidden: ColumnType<string[], string | undefined, string>;
  updated_by: string | null;
  updated_at: Timestamp;
}

export interface StaffEnrolmentsTable {
  token_hash: string;
  tenant_id: string;
  staff_id: string;
  secret: string;
  attempts: ColumnType<number, number | undefined, number>;
  expires_at: Date;
  created_at: Timestamp;
}

/** A weakening change of the sign-in rules waiting for (or decided by) a second staff member (019). */
export type TAccessPolicyStatus = 'pending' | 'approved' | 'rejected' | 'cancelled';

export interface AccessPolicyRequestsTable {
  id: string;
  tenant_id: string;
  requested_by: string;
  requested_at: Timestamp;
  password_min_length: number;
  money_two_factor: boolean;
  status: ColumnType<TAccessPolicyStatus, TAccessPolicyStatus | undefined, TAccessPolicyStatus>;
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
  decided_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The tables the access module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TAccessSchema {
  access_menu_layouts: AccessMenuLayoutsTable;
  access_policy_requests: AccessPolicyRequestsTable;
  access_settings: AccessSettingsTable;
  roles: RolesTable;
  staff: StaffTable;
  staff_enrolments: StaffEnrolmentsTable;
  staff_roles: StaffRolesTable;
}

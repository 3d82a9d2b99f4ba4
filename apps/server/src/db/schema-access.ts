import type { ColumnType } from 'kysely';
import type { Timestamp } from './schema';

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

export interface TAccessSchema {
  access_settings: AccessSettingsTable;
  access_menu_layouts: AccessMenuLayoutsTable;
  staff_enrolments: StaffEnrolmentsTable;
}

// Columns this area's migration (012) adds to the foundation's staff and roles tables.
declare module './schema' {
  interface StaffTable {
    totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
    totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
    last_sign_in_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    password_changed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  }
  interface RolesTable {
    is_system: ColumnType<boolean, boolean | undefined, boolean>;
    description: ColumnType<string, string | undefined, string>;
  }
}

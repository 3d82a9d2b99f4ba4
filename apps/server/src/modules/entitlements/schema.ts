import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../db/columns';

/** App releases per platform (migration 015). */
export interface AppVersionsTable {
  id: string;
  tenant_id: string;
  platform: 'ios' | 'android' | 'windows' | 'macos' | 'web';
  version: string;
  build_number: number;
  force_update: boolean;
  min_supported_version: string | null;
  /** Release notes by language code. */
  notes: ColumnType<Record<string, string>, string, string>;
  download_url: string;
  released_at: ColumnType<Date, Date | string, Date | string>;
  revision: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Subscription packages the platform operator defines (migration 015). */
export interface PackagesTable {
  id: string;
  tenant_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  /** Optional modules (menu keys) that are on. */
  modules: string[];
  max_staff: number | null;
  max_customers: number | null;
  max_trading_accounts: number | null;
  max_symbols: number | null;
  revision: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Which package a broker has; a broker without a row has everything. */
export interface PackageAssignmentsTable {
  tenant_id: string;
  package_id: string;
  assigned_by: string | null;
  assigned_at: Timestamp;
}

/** The tables the entitlements module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TEntitlementsSchema {
  app_versions: AppVersionsTable;
  package_assignments: PackageAssignmentsTable;
  packages: PackagesTable;
}

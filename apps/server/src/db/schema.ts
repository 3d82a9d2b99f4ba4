import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface TenantsTable {
  id: string;
  slug: string;
  name: string;
  status: ColumnType<'active' | 'suspended', 'active' | 'suspended' | undefined>;
  is_default: ColumnType<boolean, boolean | undefined>;
  created_at: Timestamp;
}
export interface TenantDomainsTable {
  host: string;
  tenant_id: string;
}
interface CredentialColumns {
  id: string;
  tenant_id: string;
  password_hash: string;
  display_name: string;
  status: ColumnType<'active' | 'disabled', 'active' | 'disabled' | undefined>;
  failed_attempts: ColumnType<number, number | undefined>;
  locked_until: Date | null;
  created_at: Timestamp;
}
export interface UsersTable extends CredentialColumns {
  email: string;
  phone: ColumnType<string | null, string | null | undefined, string | null>;
  country_code: string | null;
}
export interface StaffTable extends CredentialColumns {
  username: string;
}
export interface RolesTable {
  id: string;
  tenant_id: string;
  name: string;
  parent_id: string | null;
  permissions: string[];
  created_at: Timestamp;
}
export interface StaffRolesTable {
  staff_id: string;
  role_id: string;
}
export interface SessionsTable {
  token_hash: string;
  tenant_id: string;
  subject_kind: 'user' | 'staff';
  subject_id: string;
  csrf_token: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  idle_expires_at: Date;
  absolute_expires_at: Date;
  revoked_at: Date | null;
}
export interface PageViewsTable {
  id: Generated<string>;
  tenant_id: string;
  path: string;
  lang: string | null;
  device: string;
  status: number;
  user_agent: string | null;
  created_at: Timestamp;
}
export interface AuditEventsTable {
  id: Generated<string>;
  tenant_id: string;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
}
export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
}

export interface TDatabaseSchema {
  tenants: TenantsTable;
  tenant_domains: TenantDomainsTable;
  users: UsersTable;
  staff: StaffTable;
  roles: RolesTable;
  staff_roles: StaffRolesTable;
  sessions: SessionsTable;
  page_views: PageViewsTable;
  audit_events: AuditEventsTable;
  schema_migrations: SchemaMigrationsTable;
}

import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../db/columns';

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

/** The tables the tenancy module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TTenancySchema {
  tenant_domains: TenantDomainsTable;
  tenants: TenantsTable;
}

import type { TAccessSchema } from '../modules/access/schema';
import type { TAlertsSchema } from '../modules/alerts/schema';
import type { TAuditSchema } from '../modules/audit/schema';
import type { TChartsSchema } from '../modules/charts/schema';
import type { TContentSchema } from '../modules/content/schema';
import type { TCopySchema } from '../modules/copy/schema';
import type { TCustomersSchema } from '../modules/customers/schema';
import type { TEntitlementsSchema } from '../modules/entitlements/schema';
import type { TFilesSchema } from '../modules/files/schema';
import type { TFundingSchema } from '../modules/funding/schema';
import type { TIdentitySchema } from '../modules/identity/schema';
import type { TKycSchema } from '../modules/kyc/schema';
import type { TLeadershipSchema } from '../modules/leadership/schema';
import type { TLiquiditySchema } from '../modules/liquidity/schema';
import type { TMarketSchema } from '../modules/market/schema';
import type { TNotifySchema } from '../modules/notify/schema';
import type { TTenancySchema } from '../modules/tenancy/schema';
import type { TTradingSchema } from '../modules/trading/schema';
import type { Timestamp } from './columns';

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
}

/**
 * The whole database: each module declares the tables it owns in its own schema.ts (the boundary
 * test holds every module to writing only those); migrations are in apps/server/migrations.
 */
export interface TDatabaseSchema
  extends TAccessSchema,
    TAlertsSchema,
    TAuditSchema,
    TChartsSchema,
    TContentSchema,
    TCopySchema,
    TCustomersSchema,
    TEntitlementsSchema,
    TFilesSchema,
    TFundingSchema,
    TIdentitySchema,
    TKycSchema,
    TLeadershipSchema,
    TLiquiditySchema,
    TMarketSchema,
    TNotifySchema,
    TTenancySchema,
    TTradingSchema {
  schema_migrations: SchemaMigrationsTable;
}

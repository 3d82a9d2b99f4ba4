import type { TDb } from '../../db/database';

/** The broker's approval threshold in US-dollar cents (default 1,000.00 USD). */
export async function approvalThresholdUsdMinor(db: TDb, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('customer_settings')
    .select('approval_threshold_usd_minor')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row ? Number(row.approval_threshold_usd_minor) : 100_000;
}

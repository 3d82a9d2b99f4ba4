import type { TDb } from '../../db/database';

/** The broker's copy rules, with the defaults of a broker that saved none. */
export interface TCopyRules {
  autoApprove: boolean;
  minTradingDays: number;
  /** Minor units of the applying account's currency. */
  minEquity: number;
  maxFeeBp: number;
}

export const DEFAULT_COPY_RULES: TCopyRules = {
  autoApprove: false,
  minTradingDays: 0,
  minEquity: 0,
  maxFeeBp: 3_000,
};

export async function copyRules(db: TDb, tenantId: string): Promise<TCopyRules> {
  const row = await db
    .selectFrom('copy_settings')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) return DEFAULT_COPY_RULES;
  return {
    autoApprove: row.auto_approve,
    minTradingDays: row.min_trading_days,
    minEquity: Number(row.min_equity),
    maxFeeBp: row.max_fee_bp,
  };
}

export async function saveCopyRules(db: TDb, tenantId: string, rules: TCopyRules, staffId: string) {
  await db
    .insertInto('copy_settings')
    .values({
      tenant_id: tenantId,
      auto_approve: rules.autoApprove,
      min_trading_days: rules.minTradingDays,
      min_equity: rules.minEquity,
      max_fee_bp: rules.maxFeeBp,
      updated_by: staffId,
    })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({
        auto_approve: rules.autoApprove,
        min_trading_days: rules.minTradingDays,
        min_equity: rules.minEquity,
        max_fee_bp: rules.maxFeeBp,
        updated_by: staffId,
        updated_at: new Date(),
      }),
    )
    .execute();
}

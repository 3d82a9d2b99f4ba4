import { DEFAULT_INSTRUMENTS } from '@broker/domain/market/instruments';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/** How many symbols the broker has switched on: what its package's symbol limit counts. */
export async function countEnabledSymbols(db: TDb, { tenantId }: { tenantId: string }): Promise<number> {
  const row = await db
    .selectFrom('instruments')
    .select(sql<string | number>`count(*)`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('enabled', '=', true)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Gives a broker the default instrument catalogue when it has none. */
export async function ensureInstruments({ db, tenantId }: { db: TDb; tenantId: string }): Promise<void> {
  const existing = await db
    .selectFrom('instruments')
    .select('symbol')
    .where('tenant_id', '=', tenantId)
    .limit(1)
    .executeTakeFirst();
  if (existing) return;
  await db
    .insertInto('instruments')
    .values(
      DEFAULT_INSTRUMENTS.map((spec, sort) => ({
        tenant_id: tenantId,
        symbol: spec.symbol,
        category: spec.category,
        base: spec.base,
        quote: spec.quote,
        digits: spec.digits,
        contract_size: spec.contractSize,
        min_volume: spec.minVolume,
        volume_step: spec.volumeStep,
        max_volume: spec.maxVolume,
        default_leverage: spec.defaultLeverage,
        margin_currency: spec.marginCurrency,
        profit_currency: spec.profitCurrency,
        sessions: JSON.stringify(spec.sessions),
        swap_long: spec.swapLong,
        swap_short: spec.swapShort,
        enabled: spec.enabled,
        close_only: spec.closeOnly,
        short_allowed: spec.shortAllowed,
        hot: spec.hot,
        sort,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

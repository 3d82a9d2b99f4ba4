import {
  canonicalDecimal,
  type TInstrumentConfig,
  type TLeverageTier,
} from '@broker/domain/market/market-config';
import type { TSessionWindow } from '@broker/domain/market/sessions';
import { sql } from 'kysely';
import type { TDb } from '../../../db/database';

/** SQL of the market configuration; every query is scoped to one broker (tenant). */

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export interface TInstrumentRecord {
  symbol: string;
  category: 'forex' | 'metals' | 'energy' | 'indices' | 'crypto';
  base: string;
  quote: string;
  digits: number;
  contractSize: string;
  defaultLeverage: number;
  marginCurrency: string;
  profitCurrency: string;
  hot: boolean;
  sort: number;
  config: TInstrumentConfig;
  /** `updated_at` as PostgreSQL prints it, to the microsecond (the optimistic-concurrency token). */
  version: string;
  updatedAt: string;
}

function instrumentQuery(db: TDb, tenantId: string) {
  return db
    .selectFrom('instruments')
    .select([
      'symbol',
      'category',
      'base',
      'quote',
      'digits',
      'contract_size',
      'default_leverage',
      'margin_currency',
      'profit_currency',
      'hot',
      'sort',
      'enabled',
      'close_only',
      'short_allowed',
      'markup_points',
      'stops_level_points',
      'min_volume',
      'volume_step',
      'max_volume',
      'max_leverage',
      'leverage_tiers',
      'sessions',
      'swap_long',
      'swap_short',
      'commission_per_lot',
      'updated_at',
      sql<string>`updated_at::text`.as('version'),
    ])
    .where('tenant_id', '=', tenantId);
}

type TInstrumentRow = Awaited<ReturnType<ReturnType<typeof instrumentQuery>['executeTakeFirstOrThrow']>>;

function toRecord(row: TInstrumentRow): TInstrumentRecord {
  return {
    symbol: row.symbol,
    category: row.category as TInstrumentRecord['category'],
    base: row.base,
    quote: row.quote,
    digits: row.digits,
    contractSize: canonicalDecimal(String(row.contract_size)),
    defaultLeverage: row.default_leverage,
    marginCurrency: row.margin_currency,
    profitCurrency: row.profit_currency,
    hot: row.hot,
    sort: row.sort,
    config: {
      enabled: row.enabled,
      closeOnly: row.close_only,
      shortAllowed: row.short_allowed,
      markupPoints: row.markup_points,
      stopsLevelPoints: row.stops_level_points,
      minVolume: canonicalDecimal(String(row.min_volume)),
      volumeStep: canonicalDecimal(String(row.volume_step)),
      maxVolume: canonicalDecimal(String(row.max_volume)),
      maxLeverage: row.max_leverage,
      leverageTiers: (json<TLeverageTier[]>(row.leverage_tiers) ?? []).map((t) => ({
        upToLots: canonicalDecimal(String(t.upToLots)),
        maxLeverage: t.maxLeverage,
      })),
      sessions: json<TSessionWindow[]>(row.sessions).map((w) => ({ from: w.from, to: w.to })),
      swapLong: canonicalDecimal(String(row.swap_long)),
      swapShort: canonicalDecimal(String(row.swap_short)),
      commissionPerLot: canonicalDecimal(String(row.commission_per_lot)),
    },
    version: row.version,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** Every instrument row of the broker as stored, by sort order (the engine compiles its terms from them). */
export function instrumentRows(db: TDb, tenantId: string) {
  return db.selectFrom('instruments').selectAll().where('tenant_id', '=', tenantId).orderBy('sort').execute();
}

export async function listInstrumentRecords(db: TDb, tenantId: string): Promise<TInstrumentRecord[]> {
  const rows = await instrumentQuery(db, tenantId).orderBy('sort').orderBy('symbol').execute();
  return rows.map(toRecord);
}

export async function findInstrumentRecord(
  db: TDb,
  tenantId: string,
  symbol: string,
  { forUpdate = false } = {},
): Promise<TInstrumentRecord | null> {
  let query = instrumentQuery(db, tenantId).where('symbol', '=', symbol);
  if (forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** Writes an instrument's terms when its version is still `version`; returns the new version, or null. */
export async function updateInstrumentConfig(
  db: TDb,
  input: { tenantId: string; symbol: string; version: string; config: TInstrumentConfig },
): Promise<string | null> {
  const c = input.config;
  const row = await db
    .updateTable('instruments')
    .set({
      enabled: c.enabled,
      close_only: c.closeOnly,
      short_allowed: c.shortAllowed,
      markup_points: c.markupPoints,
      stops_level_points: c.stopsLevelPoints,
      min_volume: c.minVolume,
      volume_step: c.volumeStep,
      max_volume: c.maxVolume,
      max_leverage: c.maxLeverage,
      leverage_tiers: JSON.stringify(c.leverageTiers),
      sessions: JSON.stringify(c.sessions),
      swap_long: c.swapLong,
      swap_short: c.swapShort,
      commission_per_lot: c.commissionPerLot,
      // A new token even when two saves fall in the same transaction timestamp.
      updated_at: sql<Date>`greatest(now(), updated_at + interval '1 microsecond')`,
    })
    .where('tenant_id', '=', input.tenantId)
    .where('symbol', '=', input.symbol)
    .where(sql<boolean>`updated_at::text = ${input.version}`)
    .returning(sql<string>`updated_at::text`.as('version'))
    .executeTakeFirst();
  return row?.version ?? null;
}

/** What one entry of the change history says: what changed, from what, to what. */
export interface THistoryChange {
  scope: 'instrument' | 'group_terms' | 'group';
  symbol?: string | null;
  groupId?: string | null;
  before: unknown;
  after: unknown;
}

/** One row of the change history (written in the transaction of the change). */
export async function insertHistory(
  db: TDb,
  entry: THistoryChange & { tenantId: string; staffId: string | null },
): Promise<string> {
  const row = await db
    .insertInto('market_config_history')
    .values({
      tenant_id: entry.tenantId,
      staff_id: entry.staffId,
      scope: entry.scope,
      symbol: entry.symbol ?? null,
      group_id: entry.groupId ?? null,
      before: entry.before === null ? null : JSON.stringify(entry.before),
      after: entry.after === null ? null : JSON.stringify(entry.after),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

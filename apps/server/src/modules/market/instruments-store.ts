import { DEFAULT_INSTRUMENTS, type TInstrumentSpec } from '@broker/domain/market/instruments';
import type { TSessionWindow } from '@broker/domain/market/sessions';
import type { TDb } from '../../db/database';

export interface TInstrument {
  symbol: string;
  category: TInstrumentSpec['category'];
  base: string;
  quote: string;
  digits: number;
  contractSize: string;
  minVolume: string;
  volumeStep: string;
  maxVolume: string;
  defaultLeverage: number;
  marginCurrency: string;
  profitCurrency: string;
  sessions: TSessionWindow[];
  swapLong: string;
  swapShort: string;
  enabled: boolean;
  closeOnly: boolean;
  shortAllowed: boolean;
  hot: boolean;
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

const trim = (value: string) => (value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value);

export async function listInstruments({
  db,
  tenantId,
}: {
  db: TDb;
  tenantId: string;
}): Promise<TInstrument[]> {
  const rows = await db
    .selectFrom('instruments')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('sort')
    .execute();
  return rows.map((r) => ({
    symbol: r.symbol,
    category: r.category as TInstrument['category'],
    base: r.base,
    quote: r.quote,
    digits: r.digits,
    contractSize: trim(String(r.contract_size)),
    minVolume: trim(String(r.min_volume)),
    volumeStep: trim(String(r.volume_step)),
    maxVolume: trim(String(r.max_volume)),
    defaultLeverage: r.default_leverage,
    marginCurrency: r.margin_currency,
    profitCurrency: r.profit_currency,
    sessions: (typeof r.sessions === 'string' ? JSON.parse(r.sessions) : r.sessions) as TSessionWindow[],
    swapLong: trim(String(r.swap_long)),
    swapShort: trim(String(r.swap_short)),
    enabled: r.enabled,
    closeOnly: r.close_only,
    shortAllowed: r.short_allowed,
    hot: r.hot,
  }));
}

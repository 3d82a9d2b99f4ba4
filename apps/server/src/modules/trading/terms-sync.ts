import { DEFAULT_INSTRUMENTS, type TInstrumentSpec } from '@broker/domain/market/instruments';
import type { TGroupOverrides, TLeverageTier } from '@broker/domain/market/market-config';
import type { TSessionWindow } from '@broker/domain/market/sessions';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { AccountType } from '@broker/domain/trading/calculations';
import { compileInstrument, type TInstrumentTerms } from '@broker/domain/trading/instrument-terms';
import { parseScaled } from '@broker/domain/trading/money';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { instrumentRows } from '../market';

/**
 * The bridge between the broker's market configuration (instruments, account groups, per-group
 * overrides) and the live engine and quote stream. The back office saves to the database and then
 * calls `applyMarketConfig`; when it resolves, new orders and the portal's quotes follow the new
 * terms (the design is in docs/adr/007-market-configuration.md).
 */

/** One instrument row of the broker's catalogue, as the database answers it. */
export interface TInstrumentRow {
  symbol: string;
  min_volume: string;
  volume_step: string;
  max_volume: string;
  default_leverage: number;
  sessions: unknown;
  swap_long: string;
  swap_short: string;
  enabled: boolean;
  close_only: boolean;
  short_allowed: boolean;
  hot: boolean;
  markup_points: number;
  stops_level_points: number;
  commission_per_lot: string;
  max_leverage: number | null;
  leverage_tiers?: unknown;
}

function tiersOf(value: unknown): TLeverageTier[] {
  const list = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(list) ? (list as TLeverageTier[]) : [];
}

export interface TGroupConfig {
  id: string;
  isDefault: boolean;
  marginCallBp: number;
  stopOutBp: number;
  negativeBalanceProtection: boolean;
  /** The engine terms of every symbol for accounts in this group. */
  terms: TInstrumentTerms[];
  /** The same as specifications (volume grid, sessions, switches), for the group's traders' screens. */
  specs: Map<string, TInstrumentSpec>;
}

export interface TTenantMarketConfig {
  tenantId: string;
  /** The catalogue as the broker's default group sees it (what the portal shows). */
  specs: Map<string, TInstrumentSpec>;
  markups: Map<string, number>;
  stopsLevels: Map<string, number>;
  groups: TGroupConfig[];
}

const CATALOGUE = new Map(DEFAULT_INSTRUMENTS.map((spec) => [spec.symbol, spec]));

/** NUMERIC text without trailing zeros after the point ('0.0100' -> '0.01', '5.000' -> '5'). */
export function tidyDecimal(text: string | number): string {
  const value = String(text);
  if (!value.includes('.')) return value;
  return value.replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * One instrument's spec and engine terms for a group: the catalogue entry, the broker's row, then the
 * group's overrides. Pure; throws on values the engine cannot represent.
 */
export function compileTerms(
  row: TInstrumentRow,
  overrides: TGroupOverrides = {},
): { spec: TInstrumentSpec; terms: TInstrumentTerms } | null {
  const catalogue = CATALOGUE.get(row.symbol);
  if (!catalogue) return null;
  const sessions = (typeof row.sessions === 'string' ? JSON.parse(row.sessions) : row.sessions) as
    | TSessionWindow[]
    | null;
  const spec: TInstrumentSpec = {
    ...catalogue,
    minVolume: tidyDecimal(overrides.minVolume ?? row.min_volume),
    volumeStep: tidyDecimal(overrides.volumeStep ?? row.volume_step),
    maxVolume: tidyDecimal(overrides.maxVolume ?? row.max_volume),
    defaultLeverage: row.default_leverage,
    sessions: overrides.sessions ?? sessions ?? catalogue.sessions,
    swapLong: tidyDecimal(overrides.swapLong ?? row.swap_long),
    swapShort: tidyDecimal(overrides.swapShort ?? row.swap_short),
    enabled: overrides.enabled ?? row.enabled,
    closeOnly: overrides.closeOnly ?? row.close_only,
    shortAllowed: overrides.shortAllowed ?? row.short_allowed,
    hot: row.hot,
  };
  const commission = tidyDecimal(overrides.commissionPerLot ?? row.commission_per_lot);
  const terms = compileInstrument(spec, {
    markupPoints: row.markup_points,
    stopsLevelPoints: row.stops_level_points,
    commissionPerLotMinor: parseScaled(commission, 2),
    commissionCurrency: 'USD',
    maxLeverage: overrides.maxLeverage ?? row.max_leverage ?? row.default_leverage,
    leverageTiers: (overrides.leverageTiers ?? tiersOf(row.leverage_tiers)).map((t) => ({
      upToVolume: parseScaled(tidyDecimal(t.upToLots), 2),
      maxLeverage: t.maxLeverage,
    })),
  });
  return { spec, terms };
}

/** Reads a broker's instruments, groups and overrides and compiles them. */
export async function loadTenantMarketConfig(db: TDb, tenantId: string): Promise<TTenantMarketConfig> {
  await ensureDefaultGroup(db, tenantId);
  const [rows, groups, overrides] = await Promise.all([
    instrumentRows(db, tenantId),
    db.selectFrom('account_groups').selectAll().where('tenant_id', '=', tenantId).execute(),
    db.selectFrom('instrument_group_terms').selectAll().where('tenant_id', '=', tenantId).execute(),
  ]);
  const specs = new Map<string, TInstrumentSpec>();
  const markups = new Map<string, number>();
  const stopsLevels = new Map<string, number>();
  for (const row of rows) {
    const compiled = compileTerms(row as TInstrumentRow);
    if (!compiled) continue;
    specs.set(row.symbol, compiled.spec);
    markups.set(row.symbol, row.markup_points);
    stopsLevels.set(row.symbol, row.stops_level_points);
  }
  const byGroup = new Map<string, Map<string, TGroupOverrides>>();
  for (const o of overrides) {
    const map = byGroup.get(o.group_id) ?? new Map<string, TGroupOverrides>();
    map.set(
      o.symbol,
      (typeof o.overrides === 'string' ? JSON.parse(o.overrides) : o.overrides) as TGroupOverrides,
    );
    byGroup.set(o.group_id, map);
  }
  return {
    tenantId,
    specs,
    markups,
    stopsLevels,
    groups: groups.map((g) => {
      const compiled = rows.flatMap((row) => {
        const one = compileTerms(row as TInstrumentRow, byGroup.get(g.id)?.get(row.symbol));
        return one ? [one] : [];
      });
      return {
        id: g.id,
        isDefault: g.is_default,
        marginCallBp: g.margin_call_bp,
        stopOutBp: g.stop_out_bp,
        negativeBalanceProtection: g.negative_balance_protection,
        terms: compiled.map((c) => c.terms),
        specs: new Map(compiled.map((c) => [c.spec.symbol, c.spec])),
      };
    }),
  };
}

/**
 * Negative-balance protection of an account in a group: the group's switch, for real and experience
 * accounts only (demo balances are play money; MT accounts follow their own server).
 */
export function protectedByGroup(
  group: { negativeBalanceProtection: boolean },
  accountType: number,
): boolean {
  return (
    group.negativeBalanceProtection &&
    (accountType === AccountType.REAL || accountType === AccountType.EXPERIENCE)
  );
}

/** The broker's default account group (created on first use); every new trading account joins it. */
export async function ensureDefaultGroup(db: TDb, tenantId: string): Promise<string> {
  const existing = await db
    .selectFrom('account_groups')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  if (existing) return existing.id;
  const id = newId();
  await db
    .insertInto('account_groups')
    .values({ id, tenant_id: tenantId, name: 'Standard', description: '', is_default: true })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const again = await db
    .selectFrom('account_groups')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_default', '=', true)
    .executeTakeFirstOrThrow();
  return again.id;
}

/** What makes a saved configuration live: the engine host (named here to keep the two files apart). */
interface TLiveConfig {
  applyMarketConfig(tenantId: string): Promise<void>;
  ownerOf(accountId: number): { tenantId: string } | undefined;
  moveAccountToGroup(input: { tenantId: string; accountId: number; groupId: string }): Promise<void>;
}

/**
 * Reads the broker's instruments, groups and overrides and makes them live in the engine (new
 * orders, swaps, margin-call and stop-out levels of every account in each group) and in the quote
 * stream (spread markup). Resolves once applied.
 */
export async function applyMarketConfig(host: TLiveConfig, tenantId: string): Promise<void> {
  await host.applyMarketConfig(tenantId);
}

/**
 * Moves a trading account to another group of the same broker. Refused (-6012) while the account has
 * open positions or pending orders, since their terms belong to the old group.
 */
export async function moveAccountToGroup(
  host: TLiveConfig,
  input: { tenantId: string; accountId: number; groupId: string },
): Promise<void> {
  const owner = host.ownerOf(input.accountId);
  if (owner?.tenantId !== input.tenantId) throw new AppError(AppErrorCode.ACCOUNT_NOT_FOUND);
  await host.moveAccountToGroup(input);
}

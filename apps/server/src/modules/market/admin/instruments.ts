import type { TMarketInstrument, TMarketQuote } from '@broker/contracts/admin/market-routes';
import {
  canonicalConfig,
  changedKeys,
  mergeOverrides,
  type TGroupOverrides,
  type TInstrumentConfig,
  validateInstrumentConfig,
} from '@broker/domain/market/market-config';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { recordAudit } from '../../audit';
import { assertWithinLimit } from '../../entitlements';
import { countEnabledSymbols } from '../instruments-store';
import type { MarketService, TQuote } from '../market-service';
import { recordConfigChange } from './history';
import { applyLive, type TLivePorts } from './live';
import { configInvalid, throwIfProblems } from './problems';
import {
  findInstrumentRecord,
  listInstrumentRecords,
  type TInstrumentRecord,
  updateInstrumentConfig,
} from './store';

function toQuote(quote: TQuote): TMarketQuote {
  return {
    symbol: quote.symbol,
    bid: quote.bid,
    ask: quote.ask,
    spread: quote.spread,
    digits: quote.digits,
    time: quote.time,
    status: quote.status,
  };
}

/** An account group's overrides of one instrument. */
export interface TGroupOverridesRecord {
  groupId: string;
  groupName: string;
  symbol: string;
  overrides: TGroupOverrides;
}

/**
 * The account groups' overrides of the broker's instruments (all, or one symbol's), read in `db` (the
 * transaction of a save). The groups belong to the trading module, which depends on this one: the
 * composition hands in its query.
 */
export type TGroupOverridesOf = (
  db: TDb,
  tenantId: string,
  filter?: { symbol?: string },
) => Promise<readonly TGroupOverridesRecord[]>;

/** What the instrument pages read: the database, the feed's quotes and the groups' overrides. */
export interface TInstrumentPorts {
  db: TDb;
  market: Pick<MarketService, 'quote' | 'quotes'>;
  groupOverrides: TGroupOverridesOf;
}

/** What saving an instrument's terms works with: the same, and the engine that makes them live. */
export type TMarketAdminPorts = TInstrumentPorts & TLivePorts;

function toInstrument(
  market: TInstrumentPorts['market'],
  record: TInstrumentRecord,
  terms: readonly TGroupOverridesRecord[],
): TMarketInstrument {
  const quote = market.quote(record.symbol);
  return {
    symbol: record.symbol,
    category: record.category,
    base: record.base,
    quote: record.quote,
    digits: record.digits,
    contractSize: record.contractSize,
    defaultLeverage: record.defaultLeverage,
    marginCurrency: record.marginCurrency,
    profitCurrency: record.profitCurrency,
    hot: record.hot,
    config: record.config,
    groups: terms
      .filter((t) => t.symbol === record.symbol)
      .map((t) => ({ groupId: t.groupId, groupName: t.groupName, overrides: t.overrides })),
    lastQuote: quote ? toQuote(quote) : null,
    version: record.version,
    updatedAt: record.updatedAt,
  };
}

/** Every instrument of the broker with its terms and the groups that override them. */
export async function listInstruments(
  ports: TInstrumentPorts,
  { actor }: { actor: TActor },
): Promise<TMarketInstrument[]> {
  const { db } = ports;
  const [records, terms] = await Promise.all([
    listInstrumentRecords(db, actor.tenantId),
    ports.groupOverrides(db, actor.tenantId),
  ]);
  return records.map((r) => toInstrument(ports.market, r, terms));
}

/** The feed's latest quote of each of the broker's instruments (before the broker's markup). */
export async function marketQuotes(
  ports: TInstrumentPorts,
  { actor }: { actor: TActor },
): Promise<TMarketQuote[]> {
  const symbols = await ports.db
    .selectFrom('instruments')
    .select('symbol')
    .where('tenant_id', '=', actor.tenantId)
    .execute();
  return ports.market.quotes(symbols.map((s) => s.symbol)).map(toQuote);
}

/**
 * Saves an instrument's terms: refused (-6017) when the row changed since `version` was read, and
 * (-6013) when the terms break a rule or would make a group's overrides break one. The change and
 * its history and audit rows commit together; then the live engine and quote stream take it.
 */
export async function saveInstrument(
  ports: TMarketAdminPorts,
  { actor, ...input }: { actor: TActor; symbol: string; version: string; config: TInstrumentConfig },
): Promise<{ item: TMarketInstrument; changed: boolean; applied: boolean }> {
  const { db } = ports;
  const tenantId = actor.tenantId;
  const changed = await db.transaction().execute(async (trx) => {
    const current = await findInstrumentRecord(trx, tenantId, input.symbol, { forUpdate: true });
    if (!current) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    if (current.version !== input.version) throw new AppError(AppErrorCode.STALE_UPDATE);
    const rules = { defaultLeverage: current.defaultLeverage };
    throwIfProblems(validateInstrumentConfig(input.config, rules));
    const after = canonicalConfig(input.config);
    // The new terms must leave every group's overrides valid too.
    for (const terms of await ports.groupOverrides(trx, tenantId, { symbol: input.symbol })) {
      const merged = validateInstrumentConfig(mergeOverrides(after, terms.overrides), rules);
      const clashes = Object.fromEntries(
        Object.entries(merged).map(([path, problem]) => [path.split('.')[0] as string, problem]),
      );
      if (Object.keys(clashes).length > 0)
        throw configInvalid(
          clashes,
          `clashes with the overrides of group ${terms.groupName}`,
          terms.groupName,
        );
    }
    const changes = changedKeys(current.config, after);
    if (changes.length === 0) return false;
    // Turning a symbol on counts against the broker's package.
    if (after.enabled && !current.config.enabled)
      await assertWithinLimit(trx, tenantId, 'symbols', countEnabledSymbols);
    const version = await updateInstrumentConfig(trx, {
      tenantId,
      symbol: input.symbol,
      version: input.version,
      config: after,
    });
    if (version === null) throw new AppError(AppErrorCode.STALE_UPDATE);
    const historyId = await recordConfigChange(
      { db: trx },
      {
        actor,
        scope: 'instrument',
        symbol: input.symbol,
        before: current.config,
        after,
      },
    );
    await recordAudit(trx, {
      tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'market.instrumentUpdate',
      target: input.symbol,
      ip: actor.ip,
      // The changed fields with their values before and after, readable in the audit trail itself.
      details: {
        symbol: input.symbol,
        changes,
        before: pickKeys(current.config, changes),
        after: pickKeys(after, changes),
        historyId,
      },
    });
    return true;
  });
  const applied = changed ? await applyLive(ports, tenantId) : true;
  const [record, terms] = await Promise.all([
    findInstrumentRecord(db, tenantId, input.symbol),
    ports.groupOverrides(db, tenantId, { symbol: input.symbol }),
  ]);
  if (!record) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return { item: toInstrument(ports.market, record, terms), changed, applied };
}

/** The named fields of a configuration (absent ones as null), for an audit entry. */
function pickKeys(config: object, keys: readonly string[]): Record<string, unknown> {
  const record = config as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, record[key] ?? null]));
}

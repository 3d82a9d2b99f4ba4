import type { TMarketInstrument, TMarketQuote } from '@broker/contracts/admin/market-routes';
import {
  canonicalConfig,
  changedKeys,
  mergeOverrides,
  type TInstrumentConfig,
  validateInstrumentConfig,
} from '@broker/domain/market/market-config';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TCallContext } from '../../../http/context';
import { recordAudit } from '../../audit/audit';
import type { TQuote } from '../../market/market-service';
import { assertWithinLimit } from '../audit/packages';
import { applyLive } from './live';
import { configInvalid, throwIfProblems } from './problems';
import {
  findInstrumentRecord,
  insertHistory,
  listGroupTerms,
  listInstrumentRecords,
  type TGroupTermsRecord,
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

function toInstrument(
  ctx: TCallContext,
  record: TInstrumentRecord,
  terms: readonly TGroupTermsRecord[],
): TMarketInstrument {
  const quote = ctx.services.market.quote(record.symbol);
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
export async function listInstruments(ctx: TCallContext): Promise<TMarketInstrument[]> {
  const db = ctx.services.database.db;
  const [records, terms] = await Promise.all([
    listInstrumentRecords(db, ctx.tenant.id),
    listGroupTerms(db, ctx.tenant.id),
  ]);
  return records.map((r) => toInstrument(ctx, r, terms));
}

/** The feed's latest quote of each of the broker's instruments (before the broker's markup). */
export async function marketQuotes(ctx: TCallContext): Promise<TMarketQuote[]> {
  const symbols = await ctx.services.database.db
    .selectFrom('instruments')
    .select('symbol')
    .where('tenant_id', '=', ctx.tenant.id)
    .execute();
  return ctx.services.market.quotes(symbols.map((s) => s.symbol)).map(toQuote);
}

/**
 * Saves an instrument's terms: refused (-6017) when the row changed since `version` was read, and
 * (-6013) when the terms break a rule or would make a group's overrides break one. The change and
 * its history and audit rows commit together; then the live engine and quote stream take it.
 */
export async function saveInstrument(
  ctx: TCallContext,
  input: { symbol: string; version: string; config: TInstrumentConfig },
): Promise<{ item: TMarketInstrument; changed: boolean; applied: boolean }> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  const staffId = ctx.staff?.staffId ?? null;
  const changed = await db.transaction().execute(async (trx) => {
    const current = await findInstrumentRecord(trx, tenantId, input.symbol, { forUpdate: true });
    if (!current) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    if (current.version !== input.version) throw new AppError(AppErrorCode.STALE_UPDATE);
    const rules = { defaultLeverage: current.defaultLeverage };
    throwIfProblems(validateInstrumentConfig(input.config, rules));
    const after = canonicalConfig(input.config);
    // The new terms must leave every group's overrides valid too.
    for (const terms of await listGroupTerms(trx, tenantId, { symbol: input.symbol })) {
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
    if (after.enabled && !current.config.enabled) await assertWithinLimit(trx, tenantId, 'symbols');
    const version = await updateInstrumentConfig(trx, {
      tenantId,
      symbol: input.symbol,
      version: input.version,
      config: after,
    });
    if (version === null) throw new AppError(AppErrorCode.STALE_UPDATE);
    const historyId = await insertHistory(trx, {
      tenantId,
      staffId,
      scope: 'instrument',
      symbol: input.symbol,
      before: current.config,
      after,
    });
    await recordAudit(trx, {
      tenantId,
      actorKind: 'staff',
      actorId: staffId,
      action: 'market.instrumentUpdate',
      target: input.symbol,
      ip: ctx.ip,
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
  const applied = changed ? await applyLive(ctx) : true;
  const [record, terms] = await Promise.all([
    findInstrumentRecord(db, tenantId, input.symbol),
    listGroupTerms(db, tenantId, { symbol: input.symbol }),
  ]);
  if (!record) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return { item: toInstrument(ctx, record, terms), changed, applied };
}

/** The named fields of a configuration (absent ones as null), for an audit entry. */
function pickKeys(config: object, keys: readonly string[]): Record<string, unknown> {
  const record = config as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, record[key] ?? null]));
}

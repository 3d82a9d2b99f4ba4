import type { TInstrumentSpec } from '@broker/domain/market/instruments';
import { sessionOpenedAt } from '@broker/domain/market/sessions';
import { bucketStart } from '@broker/domain/market/timeframes';
import { changePercent, fromPoints } from '@broker/domain/price-format';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TCallContext } from '../http/context';
import type { THandlers } from '../http/gateway';
import { formatCandle } from '../http/market-stream';
import { serverTranslator } from '../i18n';
import type { TQuote } from '../modules/market';
import { assetKind, assetName, convert, convertibleCurrencies, symbolName } from '../modules/market';

type TQuoteHandlers = Pick<
  THandlers,
  | 'symbols'
  | 'kline'
  | 'klinetoday'
  | 'currencydetail'
  | 'currencylist'
  | 'currencyhot'
  | 'hotall'
  | 'currencyother'
  | 'currencyall'
  | 'currencystat'
  | 'currencystats'
  | 'pairs'
  | 'fullname'
>;

function requireSpec(ctx: TCallContext, symbol: string): TInstrumentSpec {
  const spec = ctx.services.market.spec(symbol, ctx.tenant.id);
  if (!spec) throw new AppError(AppErrorCode.SYMBOL_DISABLED, { symbol });
  return spec;
}

function info(ctx: TCallContext, spec: TInstrumentSpec) {
  const t = serverTranslator(ctx.locale);
  return {
    symbol: spec.symbol,
    name: symbolName(spec, ctx.locale, t),
    category: spec.category,
    base: spec.base,
    quote: spec.quote,
    digits: spec.digits,
    contractSize: spec.contractSize,
    minVolume: spec.minVolume,
    volumeStep: spec.volumeStep,
    maxVolume: spec.maxVolume,
    defaultLeverage: spec.defaultLeverage,
    marginCurrency: spec.marginCurrency,
    profitCurrency: spec.profitCurrency,
    swapLong: spec.swapLong,
    swapShort: spec.swapShort,
    enabled: spec.enabled,
    closeOnly: spec.closeOnly,
    shortAllowed: spec.shortAllowed,
    hot: spec.hot,
    sessions: [...spec.sessions],
    // From this spec's own sessions: a group may trade other hours than the broker's default.
    open: ctx.services.market.isSpecOpen(spec),
    stopsLevel: ctx.services.market.stopsLevelOf(spec.symbol, ctx.tenant.id),
    nextOpen: nextOpen(spec, Date.now()),
  };
}

function named(ctx: TCallContext, quotes: TQuote[]) {
  const t = serverTranslator(ctx.locale);
  return quotes.map((q) => {
    const spec = ctx.services.market.spec(q.symbol, ctx.tenant.id) as TInstrumentSpec;
    return { ...q, name: symbolName(spec, ctx.locale, t), category: spec.category };
  });
}

/** The next time a closed symbol opens, searching minute by minute through the coming week. */
function nextOpen(spec: TInstrumentSpec, now: number): number | null {
  if (sessionOpenedAt(spec.sessions, now) !== null) return null;
  for (let t = Math.ceil(now / 60_000) * 60_000; t < now + 8 * 86_400_000; t += 60_000) {
    if (sessionOpenedAt(spec.sessions, t) !== null) return t;
  }
  return null;
}

export const quoteHandlers: TQuoteHandlers = {
  symbols: async (input, ctx) => {
    let own: ReadonlyMap<string, TInstrumentSpec> | undefined;
    if (input.account_id !== undefined) {
      // Only the caller's own account: another's group terms are the broker's business.
      const owner = ctx.services.engine.ownerOf(input.account_id);
      if (!ctx.userSession || owner?.tenantId !== ctx.tenant.id || owner.userId !== ctx.userSession.subjectId)
        throw new AppError(AppErrorCode.ACCOUNT_NOT_FOUND);
      own = ctx.services.engine.specsForAccount(input.account_id);
    }
    return ctx.services.market
      .symbols(ctx.tenant.id)
      .map((s) => own?.get(s.symbol) ?? s)
      .filter((s) => !input.category || s.category === input.category)
      .map((s) => info(ctx, s));
  },

  kline: async (input, ctx) => {
    const spec = requireSpec(ctx, input.symbol);
    if (input.from !== undefined && input.to !== undefined && input.from > input.to) {
      throw new AppError(AppErrorCode.VALIDATION_FAILED);
    }
    const candles = await ctx.services.market.candles(spec.symbol, input.timeframe, input);
    return {
      symbol: spec.symbol,
      timeframe: input.timeframe,
      digits: spec.digits,
      candles: candles.map((c) => formatCandle(c, spec.digits)),
    };
  },

  klinetoday: async (input, ctx) => {
    const spec = requireSpec(ctx, input.symbol);
    const market = ctx.services.market;
    const dayStart = bucketStart('D1', Date.now(), market.serverTimeZone);
    const candles = await market.candles(spec.symbol, 'M5', { from: dayStart, limit: 288 });
    return {
      symbol: spec.symbol,
      digits: spec.digits,
      dayStart,
      candles: candles.map((c) => formatCandle(c, spec.digits)),
    };
  },

  currencydetail: async (input, ctx) => {
    const spec = requireSpec(ctx, input.symbol);
    return {
      info: info(ctx, spec),
      quote: ctx.services.market.quote(spec.symbol, ctx.tenant.id),
      nextOpen: nextOpen(spec, Date.now()),
    };
  },

  currencylist: async (input, ctx) => {
    const t = serverTranslator(ctx.locale);
    const search = input.search?.toLowerCase();
    const specs = ctx.services.market
      .symbols(ctx.tenant.id)
      .filter((s) => !input.category || s.category === input.category)
      .filter(
        (s) =>
          !search ||
          s.symbol.toLowerCase().includes(search) ||
          symbolName(s, ctx.locale, t).toLowerCase().includes(search),
      );
    const page = specs.slice((input.page - 1) * input.size, input.page * input.size);
    return {
      total: specs.length,
      page: input.page,
      size: input.size,
      items: named(
        ctx,
        ctx.services.market.quotes(
          page.map((s) => s.symbol),
          ctx.tenant.id,
        ),
      ),
    };
  },

  currencyhot: async (_input, ctx) =>
    named(
      ctx,
      ctx.services.market.quotes(
        ctx.services.market
          .symbols(ctx.tenant.id)
          .filter((s) => s.hot)
          .map((s) => s.symbol),
        ctx.tenant.id,
      ),
    ),

  hotall: async (_input, ctx) => {
    const quotes = named(ctx, ctx.services.market.quotes(undefined, ctx.tenant.id));
    return (['forex', 'metals', 'energy', 'indices', 'crypto'] as const).map((category) => ({
      category,
      items: quotes
        .filter((q) => q.category === category)
        .sort((a, b) => Math.abs(Number(b.changePercent)) - Math.abs(Number(a.changePercent)))
        .slice(0, 3),
    }));
  },

  currencyother: async (input, ctx) => {
    const spec = requireSpec(ctx, input.symbol);
    const related = ctx.services.market
      .symbols(ctx.tenant.id)
      .filter(
        (s) => s.symbol !== spec.symbol && [s.base, s.quote].some((c) => c === spec.base || c === spec.quote),
      );
    return named(
      ctx,
      ctx.services.market.quotes(
        related.map((s) => s.symbol),
        ctx.tenant.id,
      ),
    );
  },

  currencyall: async (_input, ctx) => named(ctx, ctx.services.market.quotes(undefined, ctx.tenant.id)),

  currencystat: async (input, ctx) => {
    const spec = requireSpec(ctx, input.symbol);
    const market = ctx.services.market;
    const daily = await market.candles(spec.symbol, 'D1', { limit: 100 });
    const now = Date.now();
    const ranges = (
      [
        ['1D', 1],
        ['1W', 7],
        ['1M', 30],
        ['3M', 91],
      ] as const
    ).map(([period, days]) => {
      const since = bucketStart('D1', now - (days - 1) * 86_400_000, market.serverTimeZone);
      const recent = daily.filter((c) => c.time >= since);
      // On a closed day the latest session's candle stands for the day.
      const window = recent.length > 0 ? recent : daily.slice(-1);
      const first = window[0] ?? daily.at(-1);
      const last = daily.at(-1);
      if (!first || !last) throw new AppError(AppErrorCode.SERVICE_UNAVAILABLE);
      const high = Math.max(...window.map((c) => c.high), last.close);
      const low = Math.min(...window.map((c) => c.low), last.close);
      return {
        period,
        open: fromPoints(first.open, spec.digits),
        high: fromPoints(high, spec.digits),
        low: fromPoints(low, spec.digits),
        changePercent: changePercent(first.open, last.close),
      };
    });
    return { symbol: spec.symbol, ranges };
  },

  currencystats: async (input, ctx) => {
    const quotes = named(ctx, ctx.services.market.quotes(undefined, ctx.tenant.id)).filter(
      (q) => !input.category || q.category === input.category,
    );
    const sorted = [...quotes].sort((a, b) => Number(b.changePercent) - Number(a.changePercent));
    return {
      gainers: sorted.filter((q) => Number(q.changePercent) > 0).slice(0, input.limit),
      losers: sorted
        .filter((q) => Number(q.changePercent) < 0)
        .reverse()
        .slice(0, input.limit),
    };
  },

  pairs: async (input, ctx) => {
    const market = ctx.services.market;
    const specs = market.symbols(ctx.tenant.id);
    const t = serverTranslator(ctx.locale);
    const codes = convertibleCurrencies(specs);
    const currencies = codes.map((code) => ({
      code,
      kind: assetKind(code, specs),
      name: assetName(code, ctx.locale, t),
    }));
    if (!input.from && !input.to) return { currencies, conversion: null };
    if (!input.from || !input.to || !codes.includes(input.from) || !codes.includes(input.to)) {
      throw new AppError(AppErrorCode.VALIDATION_FAILED);
    }
    const amount = input.amount ?? '1';
    const result = convert({
      from: input.from,
      to: input.to,
      amount,
      specs,
      quotes: market.quotes(undefined, ctx.tenant.id),
    });
    if (!result) throw new AppError(AppErrorCode.SERVICE_UNAVAILABLE);
    return { currencies, conversion: { from: input.from, to: input.to, amount, ...result } };
  },

  fullname: async (input, ctx) => {
    const t = serverTranslator(ctx.locale);
    const specs = ctx.services.market
      .symbols(ctx.tenant.id)
      .filter((s) => !input.symbols || input.symbols.includes(s.symbol));
    return Object.fromEntries(specs.map((s) => [s.symbol, symbolName(s, ctx.locale, t)]));
  },
};

/** Symbols and quotes: terms profiles, markup, conversions between currencies, position buckets. */
import { PositionBucket } from '../exposure';
import type { TInstrumentTerms } from '../instrument-terms';
import { applyMarkup, conversionPath, conversionRates, pathSymbols } from '../money';
import { SymbolTriggers } from '../trigger-book';
import {
  type Account,
  type Bucket,
  type Converter,
  EngineState,
  type Position,
  type SymbolState,
  type TEngineConfig,
} from './state';

/** The key of a profile's state of a symbol in the symbol map. */
const profileKey = (symbol: string, profile: string) => `${symbol}@${profile}`;

function newSymbolState(key: string, terms: TInstrumentTerms): SymbolState {
  return {
    key,
    terms,
    bid: 0,
    ask: 0,
    rawBid: 0,
    rawAsk: 0,
    digits: terms.digits,
    hasQuote: false,
    time: 0,
    triggers: new SymbolTriggers(),
    affected: [],
    bots: null,
    converters: [],
  };
}

/** A new engine state with the configured base terms and profiles, and no accounts or quotes. */
export function createState(config: TEngineConfig): EngineState {
  const st = new EngineState(config);
  for (const terms of config.instruments) st.symbols.set(terms.symbol, newSymbolState(terms.symbol, terms));
  for (const [profile, list] of Object.entries(config.profiles ?? {})) setProfile(st, profile, list);
  return st;
}

/**
 * Defines or replaces a profile's terms (the broker changed its market configuration). The catalogue
 * fields (digits, contract size, currencies) must equal the base terms. Quotes keep their values
 * until the next tick of each symbol applies the new markup; the host replays the last tick at once.
 */
export function setProfile(st: EngineState, profile: string, list: readonly TInstrumentTerms[]): void {
  for (const terms of list) {
    const base = st.symbols.get(terms.symbol);
    if (base === undefined) throw new Error(`profile ${profile}: unknown symbol ${terms.symbol}`);
    const b = base.terms;
    if (
      terms.digits !== b.digits ||
      terms.profitCurrency !== b.profitCurrency ||
      terms.marginCurrency !== b.marginCurrency ||
      terms.contractSize.num !== b.contractSize.num ||
      terms.contractSize.den !== b.contractSize.den
    )
      throw new Error(`profile ${profile}: ${terms.symbol} changes catalogue fields`);
    const key = profileKey(terms.symbol, profile);
    const existing = st.symbols.get(key);
    if (existing !== undefined) {
      existing.terms = terms;
      continue;
    }
    const state = newSymbolState(key, terms);
    if (base.hasQuote) quoteState(state, base.rawBid, base.rawAsk, base.time);
    st.symbols.set(key, state);
    const list2 = st.profileStates.get(terms.symbol);
    if (list2) list2.push(state);
    else st.profileStates.set(terms.symbol, [state]);
  }
}

/** The symbol state an account trades `symbol` on: its profile's, else the base terms. */
export function stateFor(st: EngineState, account: Account, symbol: string): SymbolState | undefined {
  if (account.profile !== null) {
    const own = st.symbols.get(profileKey(symbol, account.profile));
    if (own !== undefined) return own;
  }
  return st.symbols.get(symbol);
}

/** Takes a raw quote and applies the terms' markup to it. */
export function quoteState(sym: SymbolState, rawBid: number, rawAsk: number, time: number): void {
  sym.rawBid = rawBid;
  sym.rawAsk = rawAsk;
  const markup = sym.terms.markupPoints;
  if (markup > 0) {
    const q = applyMarkup(rawBid, rawAsk, markup);
    sym.bid = q.bid;
    sym.ask = q.ask;
  } else {
    sym.bid = rawBid;
    sym.ask = rawAsk;
  }
  sym.hasQuote = true;
  sym.time = time;
}

/** The conversion from one currency into another, made once and re-rated on the ticks it reads. */
export function converterFor(st: EngineState, from: string, to: string): Converter | undefined {
  const key = `${from}|${to}`;
  let converter = st.converters.get(key);
  if (converter === undefined) {
    const path = conversionPath(from, to, st.hasSymbol, st.pegs);
    if (path === undefined) return undefined;
    converter = { path, rates: conversionRates(path, st.quoteOf) };
    st.converters.set(key, converter);
    for (const symbol of pathSymbols(path)) st.symbols.get(symbol)?.converters.push(converter);
  }
  return converter;
}

/** The bucket of a symbol's positions in one account currency, made on first use. */
export function bucketFor(st: EngineState, sym: SymbolState, currency: string): Bucket {
  const key = `${sym.key}|${currency}`;
  let bucket = st.buckets.get(key);
  if (bucket === undefined) {
    const converter = converterFor(st, sym.terms.profitCurrency, currency);
    if (converter === undefined) throw new Error(`no conversion ${sym.terms.profitCurrency} -> ${currency}`);
    bucket = { sym, converter, store: new PositionBucket<Position>() };
    st.buckets.set(key, bucket);
    sym.affected.push(bucket);
    for (const symbol of pathSymbols(converter.path)) {
      const other = st.symbols.get(symbol);
      if (other !== undefined && other !== sym && !other.affected.includes(bucket))
        other.affected.push(bucket);
    }
  }
  return bucket;
}

/** The quote after markup, or undefined before the first tick. */
export function quote(
  st: EngineState,
  symbol: string,
  profile: string | null = null,
): { bid: number; ask: number; time: number } | undefined {
  const s =
    (profile !== null ? st.symbols.get(profileKey(symbol, profile)) : undefined) ?? st.symbols.get(symbol);
  return s?.hasQuote ? { bid: s.bid, ask: s.ask, time: s.time } : undefined;
}

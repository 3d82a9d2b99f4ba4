import type { TInstrumentSpec } from '@broker/domain/market/instruments';
import { priceDecimals } from '@broker/domain/price-format';
import Big from 'big.js';
import type { TQuote } from './market-service';

export type TAssetKind = 'fiat' | 'crypto' | 'metal';

/** Tether is treated as pegged 1:1 to the US dollar, the only peg the converter assumes. */
const PEGS: ReadonlyArray<[string, string]> = [['USDT', 'USD']];

export function assetKind(code: string, specs: readonly TInstrumentSpec[]): TAssetKind {
  if (code === 'XAU' || code === 'XAG') return 'metal';
  if (specs.some((s) => s.category === 'crypto' && s.base === code) || code === 'USDT') return 'crypto';
  return 'fiat';
}

/** Currencies the converter can price: every forex, metal and crypto leg of the catalogue. */
export function convertibleCurrencies(specs: readonly TInstrumentSpec[]): string[] {
  const codes = new Set<string>();
  for (const s of specs) {
    if (s.category === 'forex' || s.category === 'metals' || s.category === 'crypto') {
      codes.add(s.base);
      codes.add(s.quote);
    }
  }
  return [...codes].sort();
}

interface TEdge {
  to: string;
  rate: Big;
  symbol: string;
  time: number;
}

/**
 * Converts through the live mid prices, taking the path with the fewest legs (a direct pair, else
 * a cross through another currency such as USD). Exact decimal arithmetic throughout.
 */
export function convert({
  from,
  to,
  amount,
  specs,
  quotes,
}: {
  from: string;
  to: string;
  amount: string;
  specs: readonly TInstrumentSpec[];
  quotes: readonly TQuote[];
}): { rate: string; result: string; time: number; path: string[] } | null {
  const graph = new Map<string, TEdge[]>();
  const add = (a: string, edge: TEdge) => graph.set(a, [...(graph.get(a) ?? []), edge]);
  const bySymbol = new Map(quotes.map((q) => [q.symbol, q]));
  for (const spec of specs) {
    if (spec.category !== 'forex' && spec.category !== 'metals' && spec.category !== 'crypto') continue;
    const quote = bySymbol.get(spec.symbol);
    if (!quote) continue;
    const mid = new Big(quote.bid).plus(quote.ask).div(2);
    if (mid.lte(0)) continue;
    add(spec.base, { to: spec.quote, rate: mid, symbol: spec.symbol, time: quote.time });
    add(spec.quote, { to: spec.base, rate: new Big(1).div(mid), symbol: spec.symbol, time: quote.time });
  }
  for (const [a, b] of PEGS) {
    add(a, { to: b, rate: new Big(1), symbol: `${a}=${b}`, time: 0 });
    add(b, { to: a, rate: new Big(1), symbol: `${a}=${b}`, time: 0 });
  }
  if (from === to) return { rate: '1', result: new Big(amount).toFixed(), time: Date.now(), path: [] };
  const previous = new Map<string, { node: string; edge: TEdge }>();
  const queue = [from];
  const seen = new Set([from]);
  while (queue.length > 0 && !seen.has(to)) {
    const node = queue.shift() as string;
    for (const edge of graph.get(node) ?? []) {
      if (seen.has(edge.to)) continue;
      seen.add(edge.to);
      previous.set(edge.to, { node, edge });
      queue.push(edge.to);
    }
  }
  if (!seen.has(to)) return null;
  let rate = new Big(1);
  let time = 0;
  const path: string[] = [];
  for (let node = to; node !== from; ) {
    const step = previous.get(node) as { node: string; edge: TEdge };
    rate = rate.times(step.edge.rate);
    time = Math.max(time, step.edge.time);
    path.unshift(step.edge.symbol);
    node = step.node;
  }
  const rateDecimals = Math.max(priceDecimals(rate.toFixed(12)), 2);
  const result = new Big(amount).times(rate);
  const resultDecimals = Math.max(priceDecimals(result.abs().toFixed(12)), 2);
  return {
    rate: rate.toFixed(rateDecimals, Big.roundHalfUp),
    result: result.toFixed(resultDecimals, Big.roundHalfUp),
    time,
    path,
  };
}

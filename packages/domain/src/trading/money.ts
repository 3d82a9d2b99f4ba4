/**
 * Integer money and price arithmetic of the trading core (docs/trading.md, "Units and rounding").
 *
 * Units: prices are integer points (price x 10^digits), volumes integer hundredths of a lot
 * (0.01 lot = 1), money integer minor units (hundredths) of a currency. Every division rounds
 * explicitly: half away from zero (`'half_up'`, as big.js `roundHalfUp`) unless a function says
 * `'ceil'` (margin, never under-reserved). Arithmetic runs on plain numbers while every intermediate
 * stays within Number.MAX_SAFE_INTEGER (checked, not assumed) and falls back to BigInt otherwise, so a
 * result is always exact.
 */

export type TRounding = 'half_up' | 'ceil' | 'floor';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function isSafe(value: number): boolean {
  return value <= MAX_SAFE && value >= -MAX_SAFE;
}

function bigDivide(n: bigint, d: bigint, rounding: TRounding): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  let q = n / d; // truncates toward zero
  const r = n - q * d;
  if (r === 0n) return q;
  if (rounding === 'ceil') return r > 0n ? q + 1n : q;
  if (rounding === 'floor') return r < 0n ? q - 1n : q;
  const twice = r < 0n ? -2n * r : 2n * r;
  if (twice >= d) q += n < 0n ? -1n : 1n;
  return q;
}

function toSafeNumber(value: bigint): number {
  const out = Number(value);
  if (!Number.isSafeInteger(out)) throw new RangeError(`money result out of safe range: ${value}`);
  return out;
}

/**
 * n / d rounded as asked; n and d integers, d non-zero. Exact: for safe integers `n % d` is exact
 * (IEEE remainder never rounds) and n - r is a multiple of d, so (n - r) / d is exact too.
 */
export function divide(n: number, d: number, rounding: TRounding = 'half_up'): number {
  if (d < 0) {
    n = -n;
    d = -d;
  }
  if (!isSafe(n) || d > MAX_SAFE) return toSafeNumber(bigDivide(BigInt(n), BigInt(d), rounding));
  const r = n % d; // has the sign of n
  const q = (n - r) / d; // truncated toward zero
  if (r === 0) return q;
  if (rounding === 'half_up') {
    if (r > 0) return r + r >= d ? q + 1 : q;
    return -(r + r) >= d ? q - 1 : q;
  }
  if (rounding === 'ceil') return r > 0 ? q + 1 : q;
  return r < 0 ? q - 1 : q;
}

/** Whether a product or sum can be trusted as an exact integer. */
export function isSafeMagnitude(value: number): boolean {
  return value <= MAX_SAFE && value >= -MAX_SAFE;
}

/** a x b / d rounded, exact. */
export function mulDiv(a: number, b: number, d: number, rounding: TRounding = 'half_up'): number {
  const product = a * b;
  if (isSafe(product)) return divide(product, d, rounding);
  return toSafeNumber(bigDivide(BigInt(a) * BigInt(b), BigInt(d), rounding));
}

/** a x b x c / (d x e) rounded, exact; the profit, margin and swap kernels. */
export function mulMulDiv(
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  rounding: TRounding = 'half_up',
): number {
  const ab = a * b;
  const abc = ab * c;
  const de = d * e;
  if (isSafe(ab) && isSafe(abc) && isSafe(de)) return divide(abc, de, rounding);
  return toSafeNumber(bigDivide(BigInt(a) * BigInt(b) * BigInt(c), BigInt(d) * BigInt(e), rounding));
}

/**
 * Product of `nums` over product of `dens`, rounded once: on numbers while every partial product is
 * safe (a product past 2^53 always shows as one, since rounding is monotonic), on BigInt otherwise.
 */
export function ratio(nums: readonly number[], dens: readonly number[], rounding: TRounding): number {
  let n = 1;
  let d = 1;
  let safe = true;
  for (let i = 0; safe && i < nums.length; i++) {
    n *= nums[i]!;
    safe = isSafe(n);
  }
  for (let i = 0; safe && i < dens.length; i++) {
    d *= dens[i]!;
    safe = isSafe(d);
  }
  if (safe) return divide(n, d, rounding);
  let bigN = 1n;
  for (const x of nums) bigN *= BigInt(x);
  let bigD = 1n;
  for (const x of dens) bigD *= BigInt(x);
  return toSafeNumber(bigDivide(bigN, bigD, rounding));
}

export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

export const POW10: readonly number[] = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** A decimal string as an integer of `decimals` places: ('0.01', 2) -> 1, ('-6.5', 2) -> -650. */
export function parseScaled(text: string, decimals: number): number {
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Error(`not a decimal: ${text}`);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  if (fraction.length > decimals && !/^0*$/.test(fraction.slice(decimals)))
    throw new Error(`too many decimals in ${text} (at most ${decimals})`);
  const value =
    Number(whole) * 10 ** decimals + Number(fraction.slice(0, decimals).padEnd(decimals, '0') || '0');
  if (!Number.isSafeInteger(value)) throw new RangeError(`out of range: ${text}`);
  return negative ? -value : value;
}

/** An integer of `decimals` places as a decimal string: (-650, 2) -> '-6.50'. */
export function formatScaled(value: number, decimals: number): string {
  const negative = value < 0;
  const digits = String(Math.abs(value)).padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${text}` : text;
}

/** Money in minor units as a 2-decimal string: 123456 -> '1234.56'. */
export function formatMoney(minor: number): string {
  return formatScaled(minor, 2);
}

/** A rational number num/den (den > 0), both safe integers. */
export interface TRate {
  num: number;
  den: number;
}

export const RATE_ONE: TRate = Object.freeze({ num: 1, den: 1 });

export function rate(num: number, den: number): TRate {
  if (den <= 0 || !Number.isSafeInteger(num) || !Number.isSafeInteger(den)) throw new RangeError('bad rate');
  const g = gcd(num, den) || 1;
  return { num: num / g, den: den / g };
}

export function multiplyRates(a: TRate, b: TRate): TRate {
  // cross-reduce first so that the products stay small
  const g1 = gcd(a.num, b.den) || 1;
  const g2 = gcd(b.num, a.den) || 1;
  const num = (a.num / g1) * (b.num / g2);
  const den = (a.den / g2) * (b.den / g1);
  if (!isSafe(num) || !isSafe(den)) throw new RangeError('conversion rate out of safe range');
  return { num, den };
}

/**
 * How to turn an amount of one currency into another at the current quotes. `low <= high`; the
 * trading core always uses the one worse for the client: `low` for a gain (positive amount), `high` for
 * a loss or a charge (margin, negative swap, commission).
 */
export interface TConversion {
  low: TRate;
  high: TRate;
}

export const CONVERSION_IDENTITY: TConversion = Object.freeze({ low: RATE_ONE, high: RATE_ONE });

/** Converts a signed amount with the rate worse for the client. */
export function convert(amount: number, conversion: TConversion, rounding: TRounding = 'half_up'): number {
  const r = amount >= 0 ? conversion.low : conversion.high;
  return mulDiv(amount, r.num, r.den, rounding);
}

/**
 * Currencies fixed to another one: USDT trades at par with USD, and USC (the US cent of experience
 * accounts) is 1/100 USD. `{ to, num, den }`: 1 unit = num/den units of `to`.
 */
export interface TPeg {
  to: string;
  num: number;
  den: number;
}

export const DEFAULT_PEGS: Readonly<Record<string, TPeg>> = Object.freeze({
  USDT: { to: 'USD', num: 1, den: 1 },
  USC: { to: 'USD', num: 1, den: 100 },
});

export type TConversionStep =
  | { kind: 'peg'; rate: TRate }
  /** The symbol is FROM+TO: amount x price. */
  | { kind: 'direct'; symbol: string }
  /** The symbol is TO+FROM: amount / price. */
  | { kind: 'inverse'; symbol: string };

export interface TQuote {
  bid: number;
  ask: number;
  digits: number;
}

/**
 * The chain of pegs and pairs that converts `from` into `to`: pegs to the anchor currency, then the
 * direct pair, the inverse pair, or two legs through USD. Undefined when no chain exists.
 */
export function conversionPath(
  from: string,
  to: string,
  hasSymbol: (symbol: string) => boolean,
  pegs: Readonly<Record<string, TPeg>> = DEFAULT_PEGS,
): TConversionStep[] | undefined {
  if (from === to) return [];
  const steps: TConversionStep[] = [];
  const fromPeg = pegs[from];
  const fromAnchor = fromPeg ? fromPeg.to : from;
  if (fromPeg) steps.push({ kind: 'peg', rate: rate(fromPeg.num, fromPeg.den) });
  const toPeg = pegs[to];
  const toAnchor = toPeg ? toPeg.to : to;
  const leg = (a: string, b: string): TConversionStep | undefined => {
    if (hasSymbol(a + b)) return { kind: 'direct', symbol: a + b };
    if (hasSymbol(b + a)) return { kind: 'inverse', symbol: b + a };
    return undefined;
  };
  if (fromAnchor !== toAnchor) {
    const single = leg(fromAnchor, toAnchor);
    if (single) steps.push(single);
    else {
      const first = fromAnchor === 'USD' ? undefined : leg(fromAnchor, 'USD');
      const second = toAnchor === 'USD' ? undefined : leg('USD', toAnchor);
      if ((fromAnchor !== 'USD' && !first) || (toAnchor !== 'USD' && !second)) return undefined;
      if (first) steps.push(first);
      if (second) steps.push(second);
    }
  }
  if (toPeg) steps.push({ kind: 'peg', rate: rate(toPeg.den, toPeg.num) });
  return steps;
}

/** The symbols whose quotes a conversion path reads. */
export function pathSymbols(path: readonly TConversionStep[]): string[] {
  const out: string[] = [];
  for (const step of path) if (step.kind !== 'peg') out.push(step.symbol);
  return out;
}

/** Low and high rates of a path at the given quotes; undefined when a quote is missing. */
export function conversionRates(
  path: readonly TConversionStep[],
  quoteOf: (symbol: string) => TQuote | undefined,
): TConversion | undefined {
  let low = RATE_ONE;
  let high = RATE_ONE;
  for (const step of path) {
    if (step.kind === 'peg') {
      low = multiplyRates(low, step.rate);
      high = multiplyRates(high, step.rate);
      continue;
    }
    const quote = quoteOf(step.symbol);
    if (!quote || quote.bid <= 0 || quote.ask <= 0) return undefined;
    const scale = POW10[quote.digits] ?? 10 ** quote.digits;
    if (step.kind === 'direct') {
      low = multiplyRates(low, rate(quote.bid, scale));
      high = multiplyRates(high, rate(quote.ask, scale));
    } else {
      low = multiplyRates(low, rate(scale, quote.ask));
      high = multiplyRates(high, rate(scale, quote.bid));
    }
  }
  return { low, high };
}

/**
 * Money value of one point of price move on 0.01 lot, in minor units of the profit currency, as a
 * reduced fraction: contractSize / 10^digits. EURUSD 1/1, USDJPY 100/1, US500 1/10, BTCUSDT 1/100.
 */
export function pointValue(contractSize: TRate, digits: number): TRate {
  return rate(contractSize.num, contractSize.den * (POW10[digits] ?? 10 ** digits));
}

/**
 * Floating or realised profit of a position in account-currency minor units:
 * diff x volume x pointValue, converted with the rate worse for the client, rounded half-up once.
 * `diffPoints` is closePrice - openPrice for a buy and openPrice - closePrice for a sell.
 */
export function profitMinor(
  diffPoints: number,
  volume: number,
  point: TRate,
  conversion: TConversion,
): number {
  const raw = diffPoints * volume; // its sign is right even when it is too large to be exact
  const r = raw >= 0 ? conversion.low : conversion.high;
  if (!isSafe(raw)) return ratio([diffPoints, volume, point.num, r.num], [point.den, r.den], 'half_up');
  return mulMulDiv(raw, point.num, r.num, point.den, r.den);
}

/**
 * Margin in account-currency minor units, rounded up (never under-reserved):
 * volume x contractSize [x price / 10^digits when the margin currency is the quote] / leverage,
 * converted from the margin currency with the high rate.
 * Base-currency margin (forex) needs no price: 1 lot EURUSD at 1:100 is 1,000 EUR.
 */
export function marginMinor(options: {
  volume: number;
  contractSize: TRate;
  digits: number;
  /** Open price in points; read only when `marginInQuote`. */
  price: number;
  marginInQuote: boolean;
  leverage: number;
  conversion: TConversion;
}): number {
  const { volume, contractSize, digits, price, marginInQuote, leverage, conversion } = options;
  const nums = [volume, contractSize.num, conversion.high.num];
  const dens = [contractSize.den, leverage, conversion.high.den];
  if (marginInQuote) {
    nums.push(price);
    dens.push(POW10[digits] ?? 10 ** digits);
  }
  return ratio(nums, dens, 'ceil');
}

/** Commission for a volume at a rate per lot per side, both in the same currency, rounded half-up. */
export function commissionMinor(volume: number, perLotMinor: number): number {
  return mulDiv(perLotMinor, volume, 100);
}

/**
 * Swap for one rollover in account-currency minor units, rounded half-up once. `swapCentiPoints` is
 * the instrument's swap in hundredths of a point per lot per night ('-6.5' -> -650).
 */
export function swapMinor(options: {
  volume: number;
  swapCentiPoints: number;
  point: TRate;
  multiplier: number;
  conversion: TConversion;
}): number {
  const { volume, swapCentiPoints, point, multiplier, conversion } = options;
  const raw = swapCentiPoints * multiplier;
  const r = raw >= 0 ? conversion.low : conversion.high;
  return ratio([raw, volume, point.num, r.num], [100, point.den, r.den], 'half_up');
}

/**
 * How many nights one rollover charges. Forex and metals settle spot (T+2), so Wednesday's rollover
 * carries the weekend and counts three times; energy and index CFDs carry it on Friday; crypto rolls
 * every calendar day once. `weekdayUtc` is 0 (Sunday) to 6 (Saturday) of the trading day that ends.
 */
export function swapMultiplier(category: string, weekdayUtc: number): number {
  if (category === 'crypto') return 1;
  if (weekdayUtc === 0 || weekdayUtc === 6) return 0;
  const tripleDay = category === 'forex' || category === 'metals' ? 3 : 5;
  return weekdayUtc === tripleDay ? 3 : 1;
}

/**
 * Widens a raw quote by a markup in points: the bid moves down by floor(m/2), the ask up by the rest,
 * so the spread grows by exactly m points.
 */
export function applyMarkup(bid: number, ask: number, markupPoints: number): { bid: number; ask: number } {
  const down = Math.floor(markupPoints / 2);
  return { bid: bid - down, ask: ask + (markupPoints - down) };
}

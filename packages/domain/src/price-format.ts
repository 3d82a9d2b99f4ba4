import Big from 'big.js';

/** Decimals to show for a price without digits of its own (spec 5, price decimals by magnitude). */
export function priceDecimals(price: string | number): number {
  const magnitude = new Big(price).abs();
  if (magnitude.lt(1)) return 8;
  if (magnitude.lt(10)) return 5;
  if (magnitude.lt(100)) return 4;
  if (magnitude.lt(1000)) return 3;
  if (magnitude.lt(10000)) return 2;
  if (magnitude.lt(100000)) return 1;
  return 0;
}

/** A price rounded half-up to its decimals, as a string (never a float round trip). */
export function formatPriceString(price: string | number, digits?: number): string {
  const decimals = digits ?? priceDecimals(price);
  return new Big(price).toFixed(decimals, Big.roundHalfUp);
}

/** An integer number of points as a decimal string: (123456, 3) -> "123.456". */
export function fromPoints(points: number, digits: number): string {
  if (digits === 0) return String(points);
  const negative = points < 0;
  const text = String(Math.abs(points)).padStart(digits + 1, '0');
  const out = `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative ? `-${out}` : out;
}

/** A decimal price string as integer points; throws on more decimals than the symbol has. */
export function toPoints(price: string, digits: number): number {
  if (!/^-?\d+(\.\d+)?$/.test(price)) throw new Error(`not a price: ${price}`);
  const [whole = '0', fraction = ''] = price.replace('-', '').split('.');
  if (fraction.length > digits) throw new Error(`too many decimals: ${price}`);
  const points = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return price.startsWith('-') ? -points : points;
}

/** Percentage change from `from` to `to` (integers), two decimals, as a string. */
export function changePercent(from: number, to: number): string {
  if (from === 0) return '0.00';
  return new Big(to - from).times(100).div(from).toFixed(2, Big.roundHalfUp);
}

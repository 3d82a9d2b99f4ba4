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

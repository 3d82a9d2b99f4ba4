/**
 * A formatter of the decimal strings the server sends (prices, volumes) that keeps every digit the
 * string has: "67337.50" stays "67,337.50" (a price of a 2-digit symbol), never "67,337.5", and
 * gets the language's separators. Intl formats numeric strings exactly, without a float.
 */
export function exactDecimalFormat(intl: string): (value: string) => string {
  const byDigits = new Map<number, Intl.NumberFormat>();
  return (value: string) => {
    const digits = Math.min(20, /\.(\d+)$/.exec(value.trim())?.[1]?.length ?? 0);
    let format = byDigits.get(digits);
    if (!format) {
      format = new Intl.NumberFormat(intl, { minimumFractionDigits: digits, maximumFractionDigits: digits });
      byDigits.set(digits, format);
    }
    return format.format(value as unknown as number);
  };
}

/** Longest whole part and most decimals the converter accepts (the `pairs` call's amount format). */
export const MAX_WHOLE_DIGITS = 15;
export const MAX_DECIMALS = 8;

export type TAmountCheck =
  | { ok: true; value: string }
  | { ok: false; error: 'empty' | 'format' | 'decimals' | 'tooLarge' };

/**
 * The amount typed by the user: digits with at most one decimal separator ("." or ","), up to 8
 * decimals. The value is the canonical decimal string sent to the server ("1.000,5" is refused,
 * "12," is 12, "0012.50" is "12.50").
 */
export function parseAmount(text: string): TAmountCheck {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, error: 'empty' };
  const match = /^(\d*)(?:[.,](\d*))?$/.exec(trimmed);
  if (!match || (!match[1] && !match[2])) return { ok: false, error: 'format' };
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const fraction = match[2] ?? '';
  if (fraction.length > MAX_DECIMALS) return { ok: false, error: 'decimals' };
  if (whole.length > MAX_WHOLE_DIGITS) return { ok: false, error: 'tooLarge' };
  return { ok: true, value: fraction ? `${whole}.${fraction}` : whole };
}

/** A peg step of a conversion path ("USDT=USD") as opposed to a symbol ("EURUSD"). */
export function isPeg(step: string): boolean {
  return step.includes('=');
}

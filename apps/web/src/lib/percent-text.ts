import { numberFormat } from './intl-cache';
import { decimalsOf } from './market-format';

/**
 * A percentage from the server ("12.34" percent points) in the reader's locale with at most 2 decimals
 * ("12.34%", "12,34 %", "%12,34"); `sign` writes + on a gain; "—" when unknown.
 */
export function percentText(intl: string, value: string | null, { sign = false } = {}): string {
  if (value === null || !/^-?\d+(\.\d+)?$/.test(value)) return '—';
  const digits = Math.min(decimalsOf(value), 2);
  return numberFormat(intl, {
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    ...(sign ? { signDisplay: 'exceptZero' as const } : {}),
  }).format(`${value}E-2` as `${number}`);
}

/** Pure helpers of the audit area's pages (formatting, ranges, chart scales). */

const DAY_MS = 86_400_000;

/** A decimal string shown with grouping and exactly `digits` decimals (no float rounding on the way). */
export function formatDecimal(text: string, intl: string, digits = 2): string {
  const format = new Intl.NumberFormat(intl, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return format.format(text as Intl.StringNumericLiteral);
}

/** A money amount in US dollars. */
export function formatUsd(text: string, intl: string): string {
  return new Intl.NumberFormat(intl, { style: 'currency', currency: 'USD' }).format(
    text as Intl.StringNumericLiteral,
  );
}

/** An ISO instant as date and time in UTC (the pages say so). */
export function formatUtc(iso: string, intl: string): string {
  return new Intl.DateTimeFormat(intl, {
    timeZone: 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** A UTC day (YYYY-MM-DD) as the language writes a short date. */
export function formatDay(day: string, intl: string, withYear = false): string {
  return new Intl.DateTimeFormat(intl, {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    ...(withYear ? { year: 'numeric' } : {}),
  }).format(new Date(`${day}T00:00:00Z`));
}

export const utcToday = (now = Date.now()): string => new Date(now).toISOString().slice(0, 10);

export type TPreset = '7d' | '30d' | '90d' | 'custom';

/** The last n UTC days up to today, both ends included. */
export function presetRange(
  preset: Exclude<TPreset, 'custom'>,
  now = Date.now(),
): { from: string; to: string } {
  const days = preset === '7d' ? 7 : preset === '30d' ? 30 : 90;
  const to = utcToday(now);
  return {
    from: new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10),
    to,
  };
}

/** Days in a range, both ends included (0 when reversed or not dates). */
export function rangeDays(from: string, to: string): number {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b) || b < a) return 0;
  return Math.round((b - a) / DAY_MS) + 1;
}

/**
 * Round axis ticks from min to max (min <= 0 <= max): steps of 1, 2 or 5 times a power of ten, about
 * `count` of them, covering the data; whole steps only when `integer`.
 */
export function niceTicks(min: number, max: number, count = 4, integer = false): number[] {
  const low = Math.min(0, min);
  const high = Math.max(0, max);
  if (high === low) return [0, 1];
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const nice = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  // Counts of people or deals step by whole numbers.
  const step = integer ? Math.max(1, Math.round(nice)) : nice;
  const ticks: number[] = [];
  for (let v = Math.floor(low / step) * step; v <= high + step * 1e-9; v += step)
    ticks.push(Number(v.toPrecision(12)));
  if ((ticks.at(-1) ?? 0) < high) ticks.push(Number(((ticks.at(-1) ?? 0) + step).toPrecision(12)));
  return ticks;
}

/** The first and last characters of a hash, for tables. */
export const shortHash = (hash: string | null): string =>
  hash ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : '';

/**
 * An axis label: compact for large values (1.2K, 3.4M; 1.2万 in Chinese), otherwise with as many
 * decimals as the step between ticks needs (0.01, 0.02 rather than 0, 0).
 */
export function axisLabel(value: number, step: number, intl: string): string {
  if (Math.abs(value) >= 10_000)
    return new Intl.NumberFormat(intl, { notation: 'compact', maximumFractionDigits: 1 }).format(value);
  const decimals = step > 0 && step < 1 ? Math.min(8, Math.ceil(-Math.log10(step) - 1e-9)) : 0;
  return new Intl.NumberFormat(intl, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

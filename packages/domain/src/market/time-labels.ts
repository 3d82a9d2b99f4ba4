/** London is the zero-zone time (spec 5). */
export const ZERO_ZONE = 'Europe/London';

export type THoldTimeUnit = 'second' | 'minute' | 'hour';

/** Hold time in the unit spec 5 asks for: seconds below 60, minutes below 3600, otherwise hours. */
export function holdTime(seconds: number): { value: number; unit: THoldTimeUnit } {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return { value: s, unit: 'second' };
  if (s < 3600) return { value: Math.floor(s / 60), unit: 'minute' };
  return { value: Math.floor(s / 3600), unit: 'hour' };
}

export type TRelativeLabel =
  | { kind: 'justNow' }
  | { kind: 'minutesAgo'; value: number }
  | { kind: 'hoursAgo'; value: number }
  | { kind: 'daysAgo'; value: number }
  | { kind: 'weekday'; value: number }
  | { kind: 'date' };

/**
 * Relative time labels (spec 5, thresholds 10 minutes, 1 hour, 1 day, 4 days, 7 days): just now
 * under 10 minutes, minutes under an hour, hours under a day, days under 4 days, the weekday under
 * 7 days, the date after that.
 */
export function relativeLabel(thenMs: number, nowMs: number): TRelativeLabel {
  const seconds = Math.max(0, (nowMs - thenMs) / 1000);
  if (seconds < 10 * 60) return { kind: 'justNow' };
  if (seconds < 3600) return { kind: 'minutesAgo', value: Math.floor(seconds / 60) };
  if (seconds < 86_400) return { kind: 'hoursAgo', value: Math.floor(seconds / 3600) };
  if (seconds < 4 * 86_400) return { kind: 'daysAgo', value: Math.floor(seconds / 86_400) };
  if (seconds < 7 * 86_400) return { kind: 'weekday', value: new Date(thenMs).getUTCDay() };
  return { kind: 'date' };
}

/**
 * Trading sessions as weekly UTC windows. A window opens at `from` minutes after Sunday 00:00 UTC
 * and closes at `to` (to > from; a window may run past Saturday end by wrapping into the next week).
 */
export interface TSessionWindow {
  from: number;
  to: number;
}

export const MINUTES_PER_WEEK = 7 * 24 * 60;
const DAY = 24 * 60;

/** Minutes since Sunday 00:00 UTC of a time. */
export function weekMinute(timeMs: number): number {
  const date = new Date(timeMs);
  return date.getUTCDay() * DAY + date.getUTCHours() * 60 + date.getUTCMinutes();
}

export function isOpenAt(windows: readonly TSessionWindow[], timeMs: number): boolean {
  const minute = weekMinute(timeMs);
  return windows.some(
    (w) =>
      (minute >= w.from && minute < w.to) || (w.to > MINUTES_PER_WEEK && minute < w.to - MINUTES_PER_WEEK),
  );
}

/** Forex and metals: Sunday 22:00 to Friday 22:00 UTC, around the clock. */
export const SESSION_FX: readonly TSessionWindow[] = [{ from: 22 * 60, to: 5 * DAY + 22 * 60 }];
/** Crypto: always open. */
export const SESSION_CRYPTO: readonly TSessionWindow[] = [{ from: 0, to: MINUTES_PER_WEEK }];

/** Sunday 22:00 to Friday 21:00 UTC with a daily break from 21:00 to 22:00 UTC (oil, US indices). */
function withDailyBreak(breakFrom: number, breakTo: number): TSessionWindow[] {
  const windows: TSessionWindow[] = [];
  for (let day = 0; day < 5; day++) {
    windows.push({ from: day * DAY + breakTo, to: (day + 1) * DAY + breakFrom });
  }
  return windows;
}

/** Crude oil and US indices: daily break 21:00–22:00 UTC, closed at weekends. */
export const SESSION_DAILY_BREAK: readonly TSessionWindow[] = withDailyBreak(21 * 60, 22 * 60);

/** European cash-index CFDs (GER40, UK100): Monday to Friday, 07:00 to 21:00 UTC. */
export const SESSION_EU_INDEX: readonly TSessionWindow[] = [1, 2, 3, 4, 5].map((d) => ({
  from: d * DAY + 7 * 60,
  to: d * DAY + 21 * 60,
}));
/**
 * JP225: the Tokyo cash session, 09:00 to 15:30 JST, Monday to Friday: 00:00 to 06:30 UTC (the
 * lunch break is not modelled).
 */
export const SESSION_JP_INDEX: readonly TSessionWindow[] = [1, 2, 3, 4, 5].map((d) => ({
  from: d * DAY,
  to: d * DAY + 6 * 60 + 30,
}));
/**
 * HK50: the Hong Kong cash session, 09:30 to 16:00 HKT, Monday to Friday: 01:30 to 08:00 UTC (the
 * lunch break is not modelled).
 */
export const SESSION_HK_INDEX: readonly TSessionWindow[] = [1, 2, 3, 4, 5].map((d) => ({
  from: d * DAY + 90,
  to: d * DAY + 8 * 60,
}));

/** The start of the session window containing `timeMs`, or null when closed. */
export function sessionOpenedAt(windows: readonly TSessionWindow[], timeMs: number): number | null {
  const minute = weekMinute(timeMs);
  const weekStart = timeMs - minute * 60_000 - (timeMs % 60_000);
  for (const w of windows) {
    if (minute >= w.from && minute < w.to) return weekStart + w.from * 60_000;
    if (w.to > MINUTES_PER_WEEK && minute < w.to - MINUTES_PER_WEEK)
      return weekStart + (w.from - MINUTES_PER_WEEK) * 60_000;
  }
  return null;
}

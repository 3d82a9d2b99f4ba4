/** Candle timeframes (MT5 names) and their bucket boundaries. */
export const TIMEFRAMES = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN'] as const;
export type TTimeframe = (typeof TIMEFRAMES)[number];

const MINUTE = 60_000;
export const TIMEFRAME_MS: Record<Exclude<TTimeframe, 'MN'>, number> = {
  M1: MINUTE,
  M5: 5 * MINUTE,
  M15: 15 * MINUTE,
  M30: 30 * MINUTE,
  H1: 60 * MINUTE,
  H4: 240 * MINUTE,
  D1: 1440 * MINUTE,
  W1: 7 * 1440 * MINUTE,
};

export function isTimeframe(value: string): value is TTimeframe {
  return (TIMEFRAMES as readonly string[]).includes(value);
}

/** Offset of a time zone from UTC in minutes at a given moment (Europe/Athens in summer: 180). */
export function zoneOffsetMinutes(timeZone: string, timeMs: number): number {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 0;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(timeMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((asUtc - (timeMs - (timeMs % MINUTE))) / MINUTE);
}

/**
 * Open time of the candle that contains `timeMs`. Intraday buckets are UTC; D1, W1 (from Monday) and
 * MN (calendar month) follow the broker's server time zone.
 */
export function bucketStart(timeframe: TTimeframe, timeMs: number, serverTimeZone = 'UTC'): number {
  if (timeframe !== 'D1' && timeframe !== 'W1' && timeframe !== 'MN') {
    const size = TIMEFRAME_MS[timeframe];
    return Math.floor(timeMs / size) * size;
  }
  const offset = zoneOffsetMinutes(serverTimeZone, timeMs) * MINUTE;
  const local = new Date(timeMs + offset);
  let startLocal: number;
  if (timeframe === 'D1') {
    startLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  } else if (timeframe === 'W1') {
    const day = (local.getUTCDay() + 6) % 7;
    startLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - day);
  } else {
    startLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1);
  }
  return startLocal - zoneOffsetMinutes(serverTimeZone, startLocal - offset) * MINUTE;
}

/** Open time of the candle after the one opening at `openMs`. */
export function nextBucketStart(timeframe: TTimeframe, openMs: number, serverTimeZone = 'UTC'): number {
  if (timeframe === 'MN' || timeframe === 'D1' || timeframe === 'W1') {
    const guess = openMs + (timeframe === 'MN' ? 32 : timeframe === 'W1' ? 7.5 : 1.5) * 1440 * MINUTE;
    return bucketStart(timeframe, guess, serverTimeZone);
  }
  return openMs + TIMEFRAME_MS[timeframe];
}

import { describe, expect, it } from 'vitest';
import { bucketStart, nextBucketStart, zoneOffsetMinutes } from '../../src/market/timeframes';

const at = (iso: string) => Date.parse(iso);

describe('candle boundaries', () => {
  it('cuts intraday buckets in UTC', () => {
    const t = at('2026-11-18T13:47:31.250Z');
    expect(new Date(bucketStart('M1', t)).toISOString()).toBe('2026-11-18T13:47:00.000Z');
    expect(new Date(bucketStart('M5', t)).toISOString()).toBe('2026-11-18T13:45:00.000Z');
    expect(new Date(bucketStart('M15', t)).toISOString()).toBe('2026-11-18T13:45:00.000Z');
    expect(new Date(bucketStart('M30', t)).toISOString()).toBe('2026-11-18T13:30:00.000Z');
    expect(new Date(bucketStart('H1', t)).toISOString()).toBe('2026-11-18T13:00:00.000Z');
    expect(new Date(bucketStart('H4', t)).toISOString()).toBe('2026-11-18T12:00:00.000Z');
  });

  it('starts days, weeks (Monday) and months at midnight UTC by default', () => {
    const t = at('2026-11-18T13:47:31Z');
    expect(new Date(bucketStart('D1', t)).toISOString()).toBe('2026-11-18T00:00:00.000Z');
    expect(new Date(bucketStart('W1', t)).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(new Date(bucketStart('MN', t)).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(new Date(bucketStart('W1', at('2026-11-22T23:00:00Z'))).toISOString()).toBe(
      '2026-11-16T00:00:00.000Z',
    );
  });

  it('follows the broker server time zone for D1, W1 and MN, with daylight saving', () => {
    // Europe/Athens: UTC+2 in winter, UTC+3 in summer.
    expect(zoneOffsetMinutes('Europe/Athens', at('2026-01-10T12:00:00Z'))).toBe(120);
    expect(zoneOffsetMinutes('Europe/Athens', at('2026-07-10T12:00:00Z'))).toBe(180);
    expect(new Date(bucketStart('D1', at('2026-11-18T23:30:00Z'), 'Europe/Athens')).toISOString()).toBe(
      '2026-11-18T22:00:00.000Z',
    );
    expect(new Date(bucketStart('D1', at('2026-07-10T20:59:00Z'), 'Europe/Athens')).toISOString()).toBe(
      '2026-07-09T21:00:00.000Z',
    );
    expect(new Date(bucketStart('MN', at('2026-11-30T22:30:00Z'), 'Europe/Athens')).toISOString()).toBe(
      '2026-11-30T22:00:00.000Z',
    );
    expect(new Date(bucketStart('W1', at('2026-11-22T22:30:00Z'), 'Europe/Athens')).toISOString()).toBe(
      '2026-11-22T22:00:00.000Z',
    );
  });

  it('steps to the next bucket, months of any length included', () => {
    expect(new Date(nextBucketStart('MN', at('2026-02-01T00:00:00Z'))).toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
    expect(new Date(nextBucketStart('W1', at('2026-11-16T00:00:00Z'))).toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
    expect(nextBucketStart('H4', 0)).toBe(4 * 3_600_000);
  });
});

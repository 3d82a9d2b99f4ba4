import { describe, expect, it } from 'vitest';
import { holdTime, relativeLabel } from '../../src/market/time-labels';
import { changePercent, fromPoints, toPoints } from '../../src/price-format';

describe('hold time units (spec 5)', () => {
  it.each([
    [0, { value: 0, unit: 'second' }],
    [59, { value: 59, unit: 'second' }],
    [60, { value: 1, unit: 'minute' }],
    [3599, { value: 59, unit: 'minute' }],
    [3600, { value: 1, unit: 'hour' }],
    [90_000, { value: 25, unit: 'hour' }],
  ] as [number, ReturnType<typeof holdTime>][])('%i s', (seconds, expected) => {
    expect(holdTime(seconds)).toEqual(expected);
  });
});

describe('relative time labels (spec 5)', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const ago = (s: number) => now - s * 1000;
  it.each([
    [0, { kind: 'justNow' }],
    [599, { kind: 'justNow' }],
    [600, { kind: 'minutesAgo', value: 10 }],
    [3599, { kind: 'minutesAgo', value: 59 }],
    [3600, { kind: 'hoursAgo', value: 1 }],
    [86_399, { kind: 'hoursAgo', value: 23 }],
    [86_400, { kind: 'daysAgo', value: 1 }],
    [4 * 86_400 - 1, { kind: 'daysAgo', value: 3 }],
    [4 * 86_400, { kind: 'weekday', value: 3 }],
    [7 * 86_400, { kind: 'date' }],
  ] as [number, ReturnType<typeof relativeLabel>][])('%i s ago', (seconds, expected) => {
    expect(relativeLabel(ago(seconds), now)).toEqual(expected);
  });
});

describe('prices in points', () => {
  it('converts both ways exactly', () => {
    expect(fromPoints(108_423, 5)).toBe('1.08423');
    expect(fromPoints(7, 5)).toBe('0.00007');
    expect(fromPoints(-1_234, 2)).toBe('-12.34');
    expect(fromPoints(39_520, 0)).toBe('39520');
    expect(toPoints('1.08423', 5)).toBe(108_423);
    expect(toPoints('151.4', 3)).toBe(151_400);
    expect(() => toPoints('1.084231', 5)).toThrow();
    expect(changePercent(10_000, 10_123)).toBe('1.23');
    expect(changePercent(10_000, 9_876)).toBe('-1.24');
  });
});

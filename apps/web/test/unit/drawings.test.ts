import { describe, expect, it } from 'vitest';
import {
  FIB_LEVELS,
  fibLevels,
  logicalToTime,
  parseDrawings,
  rayEnd,
  timeToLogical,
} from '../../src/features/trade/drawings';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const start = Date.UTC(2026, 10, 2, 9, 0);
/** Hourly bars with a weekend-like gap after the fifth. */
const hourly = [0, 1, 2, 3, 4, 52, 53, 54].map((h) => start + h * HOUR);

describe('time anchoring', () => {
  it('puts a bar time on its own index and a time between bars in between', () => {
    expect(timeToLogical(hourly, hourly[2] as number)).toBe(2);
    expect(timeToLogical(hourly, start + 2.5 * HOUR)).toBeCloseTo(2.5);
    // Inside the gap: still between bar 4 and bar 5.
    expect(timeToLogical(hourly, start + 28 * HOUR)).toBeCloseTo(4.5);
  });

  it('goes on at the bar spacing before the first bar and after the last', () => {
    expect(timeToLogical(hourly, start - 3 * HOUR)).toBeCloseTo(-3);
    expect(timeToLogical(hourly, start + 57 * HOUR)).toBeCloseTo(10);
  });

  it('turns an index back into the same moment (round trip)', () => {
    for (const time of [start - 2 * HOUR, start + 90 * MINUTE, start + 28 * HOUR, start + 60 * HOUR]) {
      const logical = timeToLogical(hourly, time) as number;
      expect(logicalToTime(hourly, logical)).toBe(time);
    }
  });

  it('keeps a moment when the timeframe changes: the same time on 15-minute bars', () => {
    const quarter = Array.from({ length: 40 }, (_, i) => start + i * 15 * MINUTE);
    const time = start + 2.5 * HOUR;
    expect(timeToLogical(quarter, time)).toBe(10);
    expect(logicalToTime(quarter, 10)).toBe(logicalToTime(hourly, 2.5));
  });

  it('has no place without bars', () => {
    expect(timeToLogical([], start)).toBeNull();
    expect(logicalToTime([], 1)).toBeNull();
  });
});

describe('Fibonacci retracement', () => {
  it('has the seven levels traders expect', () => {
    expect(FIB_LEVELS).toEqual([0, 0.236, 0.382, 0.5, 0.618, 0.786, 1]);
  });

  it('puts 0 % on the end and 100 % on the start of an up move', () => {
    const levels = fibLevels({ time: start, price: 100 }, { time: start + HOUR, price: 200 });
    expect(levels.map((l) => Number(l.price.toFixed(6)))).toEqual([
      200, 176.4, 161.8, 150, 138.2, 121.4, 100,
    ]);
  });

  it('retraces a down move upwards', () => {
    const levels = fibLevels({ time: start, price: 1.2 }, { time: start + HOUR, price: 1.1 });
    expect(levels[0]?.price).toBeCloseTo(1.1);
    expect(levels[3]?.price).toBeCloseTo(1.15);
    expect(levels[6]?.price).toBeCloseTo(1.2);
  });
});

describe('ray', () => {
  it('goes on past its second point in the same direction, beyond the box', () => {
    const end = rayEnd({ x: 10, y: 100 }, { x: 20, y: 90 }, 300, 200);
    expect(end.x).toBeGreaterThan(300);
    expect((end.y - 100) / (end.x - 10)).toBeCloseTo(-1);
  });
});

describe('stored drawings', () => {
  it('keeps well-formed drawings and drops the rest', () => {
    const list = parseDrawings([
      { id: 'a1', kind: 'hline', points: [{ time: start, price: 1.1 }] },
      { id: 'a2', kind: 'trend', points: [{ time: start, price: 1.1 }] },
      { id: 'a3', kind: 'spiral', points: [{ time: start, price: 1 }] },
      {
        id: 'a4',
        kind: 'rect',
        points: [
          { time: start, price: Number.NaN },
          { time: start, price: 1 },
        ],
      },
      { id: 'a5', kind: 'text', points: [{ time: start, price: 2 }], text: 'x'.repeat(300) },
    ]);
    expect(list.map((d) => d.id)).toEqual(['a1', 'a5']);
    expect(list[1]?.text).toHaveLength(200);
  });

  it('keeps at most 100', () => {
    const many = Array.from({ length: 130 }, (_, i) => ({
      id: `d${i}`,
      kind: 'hline',
      points: [{ time: start, price: i + 1 }],
    }));
    expect(parseDrawings(many)).toHaveLength(100);
    expect(parseDrawings('nope')).toEqual([]);
  });
});

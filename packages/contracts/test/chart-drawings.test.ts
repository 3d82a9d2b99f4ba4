import { describe, expect, it } from 'vitest';
import { chartDrawingsRoutes, ZChartDrawings } from '../src/chart-drawings';

const time = Date.UTC(2026, 10, 2);
const line = (id: string, price = 1.1) => ({ id, kind: 'hline', points: [{ time, price }] });

describe('chart drawings schema', () => {
  it('accepts every known kind with its number of points', () => {
    const list = [
      line('h'),
      {
        id: 't',
        kind: 'trend',
        points: [
          { time, price: 1 },
          { time: time + 60_000, price: 2 },
        ],
      },
      {
        id: 'r',
        kind: 'ray',
        points: [
          { time, price: 1 },
          { time: time + 60_000, price: 2 },
        ],
      },
      {
        id: 'b',
        kind: 'rect',
        points: [
          { time, price: 1 },
          { time: time + 60_000, price: 2 },
        ],
      },
      {
        id: 'f',
        kind: 'fib',
        points: [
          { time, price: 1 },
          { time: time + 60_000, price: 2 },
        ],
      },
      { id: 'x', kind: 'text', points: [{ time, price: 1 }], text: 'support' },
    ];
    expect(ZChartDrawings.parse(list)).toHaveLength(6);
  });

  it('refuses more than 100 drawings', () => {
    const list = Array.from({ length: 101 }, (_, i) => line(`d${i}`));
    expect(ZChartDrawings.safeParse(list).success).toBe(false);
    expect(ZChartDrawings.safeParse(list.slice(0, 100)).success).toBe(true);
  });

  it('refuses unknown kinds, wrong point counts, non-finite numbers and extra fields', () => {
    for (const bad of [
      { id: 'a', kind: 'spiral', points: [{ time, price: 1 }] },
      { id: 'a', kind: 'trend', points: [{ time, price: 1 }] },
      {
        id: 'a',
        kind: 'hline',
        points: [
          { time, price: 1 },
          { time, price: 2 },
        ],
      },
      { id: 'a', kind: 'hline', points: [{ time, price: Number.POSITIVE_INFINITY }] },
      { id: 'a', kind: 'hline', points: [{ time, price: Number.NaN }] },
      { id: 'a', kind: 'hline', points: [{ time: 1.5, price: 1 }] },
      { id: 'a', kind: 'hline', points: [{ time: -1, price: 1 }] },
      { id: 'a', kind: 'hline', points: [{ time, price: 1 }], style: 'x' },
      { id: 'a', kind: 'hline', points: [{ time, price: 1 }], text: 'only on text' },
      { id: 'a b', kind: 'hline', points: [{ time, price: 1 }] },
    ]) {
      expect(ZChartDrawings.safeParse([bad]).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('bounds text at 200 characters and refuses duplicate ids', () => {
    const text = (n: number) => [
      { id: 't', kind: 'text', points: [{ time, price: 1 }], text: 'é'.repeat(n) },
    ];
    expect(ZChartDrawings.safeParse(text(200)).success).toBe(true);
    expect(ZChartDrawings.safeParse(text(201)).success).toBe(false);
    expect(ZChartDrawings.safeParse([line('a'), line('a', 2)]).success).toBe(false);
  });

  it('checks the symbol and is for signed-in traders only', () => {
    const { chartdrawings, chartdrawingssave } = chartDrawingsRoutes;
    expect(chartdrawings.input.parse({ symbol: 'eurusd' })).toEqual({ symbol: 'EURUSD' });
    expect(chartdrawings.input.safeParse({ symbol: 'EUR/USD' }).success).toBe(false);
    expect(chartdrawings.access).toEqual({ kind: 'user' });
    expect(chartdrawingssave.access).toEqual({ kind: 'user' });
    expect(chartdrawingssave.mutates).toBe(true);
  });
});

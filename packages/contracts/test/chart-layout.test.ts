import { describe, expect, it } from 'vitest';
import { chartLayoutRoutes, ZChartLayout } from '../src/chart-layout';

const pane = (symbol: string, timeframe = 'M15') => ({ symbol, timeframe });

describe('the chart layout contract', () => {
  it('accepts 1, 2 or 4 charts with enough panes and the active one among those shown', () => {
    for (const kind of [1, 2, 4]) {
      const panes = ['EURUSD', 'XAUUSD', 'BTCUSDT', 'USDJPY'].map((s) => pane(s));
      expect(ZChartLayout.safeParse({ kind, panes, active: kind - 1 }).success).toBe(true);
    }
    // A single chart may remember the panes of a larger layout.
    expect(
      ZChartLayout.safeParse({ kind: 1, panes: [pane('EURUSD'), pane('GBPUSD')], active: 0 }).success,
    ).toBe(true);
  });

  it('refuses other kinds, too few or too many panes, an active pane not shown, unknown timeframes', () => {
    const four = ['EURUSD', 'XAUUSD', 'BTCUSDT', 'USDJPY'].map((s) => pane(s));
    const bad = [
      { kind: 3, panes: four, active: 0 },
      { kind: 0, panes: four, active: 0 },
      { kind: 4, panes: four.slice(0, 3), active: 0 },
      { kind: 4, panes: [...four, pane('GBPUSD')], active: 0 },
      { kind: 1, panes: [], active: 0 },
      { kind: 2, panes: four, active: 2 },
      { kind: 4, panes: four, active: 4 },
      { kind: 1, panes: [pane('EURUSD', 'M3')], active: 0 },
      { kind: 1, panes: [pane('EUR/USD')], active: 0 },
      { kind: 1, panes: [pane('EURUSD')], active: 0, extra: true },
    ];
    for (const layout of bad)
      expect(ZChartLayout.safeParse(layout).success, JSON.stringify(layout)).toBe(false);
  });

  it('keeps symbols in upper case and is a signed-in trader’s call', () => {
    const parsed = chartLayoutRoutes.chartlayoutsave.input.parse({
      layout: { kind: 1, panes: [pane(' eurusd ')], active: 0 },
    });
    expect(parsed.layout.panes[0]?.symbol).toBe('EURUSD');
    expect(chartLayoutRoutes.chartlayout.access).toEqual({ kind: 'user' });
    expect(chartLayoutRoutes.chartlayoutsave.mutates).toBe(true);
  });
});

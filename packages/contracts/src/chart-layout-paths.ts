import { TIMEFRAMES, type TTimeframe } from '@broker/domain/market/timeframes';

/**
 * The terminal's chart layout: addresses, kinds and limits, kept apart from the schemas
 * (./chart-layout.ts) so the browser can use them without bundling zod.
 */
export const CHART_LAYOUT_PATHS = {
  chartlayout: '/api/v1/chart/layout',
  chartlayoutsave: '/api/v1/chart/layoutsave',
} as const;

/** One chart, two side by side (stacked when narrow), or four in a 2 × 2 grid. */
export const CHART_LAYOUT_KINDS = [1, 2, 4] as const;
export type TChartLayoutKind = (typeof CHART_LAYOUT_KINDS)[number];

/** The timeframes a pane may show: the kline route's. */
export const CHART_LAYOUT_TIMEFRAMES: readonly TTimeframe[] = TIMEFRAMES;

export const CHART_LAYOUT_LIMITS = {
  /** Panes kept: the largest layout's. A smaller layout keeps the others for when it grows again. */
  panes: 4,
} as const;

/** One chart of the layout: its own symbol and timeframe. */
export interface TChartPane {
  symbol: string;
  timeframe: TTimeframe;
}

/**
 * A trader's layout: the kind, the panes (at least `kind`, at most 4; those beyond `kind` are
 * remembered, not shown) and the active pane (below `kind`), which drives the ticket and watchlist.
 */
export interface TChartLayout {
  kind: TChartLayoutKind;
  panes: TChartPane[];
  active: number;
}

/**
 * The chart drawings' addresses, kinds and limits, kept apart from their schemas (./chart-drawings.ts)
 * so the browser can use them without bundling zod.
 */
export const CHART_DRAWINGS_PATHS = {
  chartdrawings: '/api/v1/chart/drawings',
  chartdrawingssave: '/api/v1/chart/drawingssave',
} as const;

export const CHART_DRAWING_KINDS = ['hline', 'trend', 'ray', 'rect', 'fib', 'text'] as const;
export type TChartDrawingKind = (typeof CHART_DRAWING_KINDS)[number];

export const CHART_DRAWING_LIMITS = {
  /** Drawings kept per trader and symbol. */
  perSymbol: 100,
  /** Characters of a text drawing. */
  text: 200,
} as const;

/** One drawing: its points are moments (ms since the epoch) and prices, never pixels. */
export interface TChartDrawing {
  id: string;
  kind: TChartDrawingKind;
  points: { time: number; price: number }[];
  text?: string;
}

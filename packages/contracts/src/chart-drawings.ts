import { z } from 'zod';
import { CHART_DRAWING_KINDS, CHART_DRAWING_LIMITS, CHART_DRAWINGS_PATHS } from './chart-drawings-paths';
import { define } from './route-kit';

/** A symbol as the charts keep it: upper case, 3 to 12 letters and digits. */
export const ZChartSymbol = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,12}$/, 'symbolFormat');

/** A moment between 1970 and 2200 in ms, and a finite price: no NaN, no Infinity, no pixels. */
const ZChartPoint = z.object({
  time: z.number().int().min(0).max(7_258_118_400_000),
  price: z.number().finite().min(-1e12).max(1e12),
});

/** One drawing: a known kind with its number of points (one for lines and text, two for the rest). */
export const ZChartDrawing = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
    kind: z.enum(CHART_DRAWING_KINDS),
    points: z.array(ZChartPoint).min(1).max(2),
    text: z.string().max(CHART_DRAWING_LIMITS.text).optional(),
  })
  .strict()
  .refine((d) => d.points.length === (d.kind === 'hline' || d.kind === 'text' ? 1 : 2), {
    message: 'pointCount',
    path: ['points'],
  })
  .refine((d) => d.kind === 'text' || d.text === undefined, { message: 'textOnlyOnText', path: ['text'] });

export const ZChartDrawings = z
  .array(ZChartDrawing)
  .max(CHART_DRAWING_LIMITS.perSymbol)
  .refine((list) => new Set(list.map((d) => d.id)).size === list.length, { message: 'duplicateId' });

export type TChartDrawingWire = z.infer<typeof ZChartDrawing>;

export const chartDrawingsRoutes = {
  chartdrawings: define({
    name: 'chartdrawings',
    path: CHART_DRAWINGS_PATHS.chartdrawings,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's chart drawings on one symbol (issue 21)",
    input: z.object({ symbol: ZChartSymbol }),
    output: z.object({ drawings: ZChartDrawings }),
  }),
  chartdrawingssave: define({
    name: 'chartdrawingssave',
    path: CHART_DRAWINGS_PATHS.chartdrawingssave,
    access: { kind: 'user' },
    mutates: true,
    summary: "Replaces the trader's chart drawings on one symbol (at most 100)",
    input: z.object({ symbol: ZChartSymbol, drawings: ZChartDrawings }),
    output: z.object({ drawings: ZChartDrawings }),
  }),
};

import { TIMEFRAMES } from '@broker/domain/market/timeframes';
import { z } from 'zod';
import { ZChartSymbol } from './chart-drawings';
import { CHART_LAYOUT_LIMITS, CHART_LAYOUT_PATHS } from './chart-layout-paths';
import { define } from './route-kit';

export const ZChartPane = z.object({ symbol: ZChartSymbol, timeframe: z.enum(TIMEFRAMES) }).strict();

/** A layout: 1, 2 or 4 charts, at least as many panes as charts (4 at most), the active one shown. */
export const ZChartLayout = z
  .object({
    kind: z.union([z.literal(1), z.literal(2), z.literal(4)]),
    panes: z.array(ZChartPane).min(1).max(CHART_LAYOUT_LIMITS.panes),
    active: z
      .number()
      .int()
      .min(0)
      .max(CHART_LAYOUT_LIMITS.panes - 1),
  })
  .strict()
  .refine((l) => l.panes.length >= l.kind, { message: 'paneCount', path: ['panes'] })
  .refine((l) => l.active < l.kind, { message: 'activePane', path: ['active'] });

export type TChartLayoutWire = z.infer<typeof ZChartLayout>;

export const chartLayoutRoutes = {
  chartlayout: define({
    name: 'chartlayout',
    path: CHART_LAYOUT_PATHS.chartlayout,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's terminal chart layout (issue 21): null until one is saved",
    input: z.object({}).strict(),
    output: z.object({ layout: ZChartLayout.nullable() }),
  }),
  chartlayoutsave: define({
    name: 'chartlayoutsave',
    path: CHART_LAYOUT_PATHS.chartlayoutsave,
    access: { kind: 'user' },
    mutates: true,
    summary: "Replaces the trader's chart layout (1, 2 or 4 charts, each pane's symbol and timeframe)",
    input: z.object({ layout: ZChartLayout }),
    output: z.object({ layout: ZChartLayout }),
  }),
};

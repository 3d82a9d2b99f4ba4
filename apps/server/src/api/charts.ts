import type { TCallContext } from '../http/context';
import type { THandlers } from '../http/gateway';
import {
  chartDrawings,
  chartLayout,
  saveChartDrawings,
  saveChartLayout,
  type TChartsPorts,
} from '../modules/charts';
import { userActorOf } from './actors';

const chartsPorts = (ctx: TCallContext): TChartsPorts => ({
  db: ctx.services.database.db,
  isSymbol: (tenantId, symbol) => ctx.services.market.spec(symbol, tenantId) !== undefined,
});

/** Handlers of the trader's chart drawings (per user and symbol) and layout (per user), issue 21. */
export const chartsHandlers: Pick<
  THandlers,
  'chartdrawings' | 'chartdrawingssave' | 'chartlayout' | 'chartlayoutsave'
> = {
  chartdrawings: (input, ctx) => chartDrawings(chartsPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  chartdrawingssave: (input, ctx) =>
    saveChartDrawings(chartsPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  chartlayout: (_input, ctx) => chartLayout(chartsPorts(ctx), { actor: userActorOf(ctx) }),
  chartlayoutsave: (input, ctx) => saveChartLayout(chartsPorts(ctx), { ...input, actor: userActorOf(ctx) }),
};

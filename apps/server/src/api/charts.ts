import type { TCallContext } from '../http/context';
import type { THandlers } from '../http/gateway';
import { chartDrawings, saveChartDrawings, type TChartsPorts } from '../modules/charts';
import { userActorOf } from './actors';

const chartsPorts = (ctx: TCallContext): TChartsPorts => ({
  db: ctx.services.database.db,
  isSymbol: (tenantId, symbol) => ctx.services.market.spec(symbol, tenantId) !== undefined,
});

/** Handlers of the trader's chart drawings (issue 21), per user and symbol. */
export const chartsHandlers: Pick<THandlers, 'chartdrawings' | 'chartdrawingssave'> = {
  chartdrawings: (input, ctx) => chartDrawings(chartsPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  chartdrawingssave: (input, ctx) =>
    saveChartDrawings(chartsPorts(ctx), { ...input, actor: userActorOf(ctx) }),
};

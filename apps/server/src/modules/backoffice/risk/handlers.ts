import type { riskRoutes } from '@broker/contracts/admin/risk-routes';
import type { THandlers } from '../../../http/gateway';
import { exposureReport } from './exposure';
import { liquidityReport, retryHedge } from './hedges';
import { listLevels, previewLevels, saveLevels } from './levels';
import { marginCallReport } from './margin-calls';
import { deleteRule, listRules, saveRule } from './rules';
import { winnersReport } from './winners';

/** Handlers of the back office's risk routes. */
export const riskHandlers: Pick<THandlers, keyof typeof riskRoutes> = {
  adminriskexposure: (input, ctx) => exposureReport(ctx, input),
  adminriskwinners: (input, ctx) => winnersReport(ctx, input),
  adminriskmargincalls: (input, ctx) => marginCallReport(ctx, input),
  adminriskrules: (_input, ctx) => listRules(ctx),
  adminriskrulesave: (input, ctx) => saveRule(ctx, input),
  adminriskruledelete: (input, ctx) => deleteRule(ctx, input.id),
  adminriskliquidity: (input, ctx) => liquidityReport(ctx, input),
  adminriskhedgeretry: (input, ctx) => retryHedge(ctx, input.id),
  adminrisklevels: (_input, ctx) => listLevels(ctx),
  adminrisklevelsave: (input, ctx) => saveLevels(ctx, input),
  adminrisklevelpreview: (input, ctx) => previewLevels(ctx, input),
};

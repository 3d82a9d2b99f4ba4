import type { riskRoutes } from '@broker/contracts/admin/risk-routes';
import type { TCallContext } from '../../http/context';
import type { THandlers } from '../../http/gateway';
import {
  deleteRule,
  liquidityReport,
  listRules,
  retryHedge,
  saveRule,
  type THedgePorts,
  type TRulePorts,
} from '../../modules/liquidity';
import { winnersReport } from '../../modules/reporting';
import {
  exposureReport,
  listLevels,
  marginCallReport,
  previewLevels,
  saveLevels,
  type TRiskPorts,
} from '../../modules/trading';
import { staffActorOf } from '../actors';

/** The risk pages' ports: the engine, the database, the market's prices and the hedging service. */
const riskPorts = (ctx: TCallContext): TRiskPorts & THedgePorts & TRulePorts => ({
  host: ctx.services.engine,
  db: ctx.services.database.db,
  market: ctx.services.market,
  liquidity: ctx.services.liquidity,
});

/** Handlers of the back office's risk routes. */
export const riskHandlers: Pick<THandlers, keyof typeof riskRoutes> = {
  adminriskexposure: (input, ctx) => exposureReport(riskPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminriskwinners: (input, ctx) => winnersReport(riskPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminriskmargincalls: (input, ctx) =>
    marginCallReport(riskPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminriskrules: (_input, ctx) => listRules(riskPorts(ctx), { actor: staffActorOf(ctx) }),
  adminriskrulesave: (input, ctx) => saveRule(riskPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminriskruledelete: (input, ctx) => deleteRule(riskPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  adminriskliquidity: (input, ctx) => liquidityReport(riskPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminriskhedgeretry: (input, ctx) => retryHedge(riskPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  adminrisklevels: (_input, ctx) => listLevels(riskPorts(ctx), { actor: staffActorOf(ctx) }),
  adminrisklevelsave: (input, ctx) => saveLevels(riskPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminrisklevelpreview: (input, ctx) =>
    previewLevels(riskPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
};

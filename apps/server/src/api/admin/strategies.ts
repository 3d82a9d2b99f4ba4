import type { strategyAdminRoutes } from '@broker/contracts/admin/strategy-routes';
import type { THandlers } from '../../http/gateway';
import {
  adminStopStrategy,
  adminStrategies,
  adminStrategyDetail,
  botExposure,
} from '../../modules/strategies';
import { staffActorOf, tradingPorts } from '../actors';

/** Handlers of the back office's strategy-bot routes (the list, one bot, stopping one, the risk page's bot exposure). */
export const strategyAdminHandlers: Pick<THandlers, keyof typeof strategyAdminRoutes> = {
  adminstrategies: (input, ctx) => adminStrategies(tradingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminstrategydetail: (input, ctx) =>
    adminStrategyDetail(tradingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminstrategystop: (input, ctx) =>
    adminStopStrategy(
      { ...tradingPorts(ctx), mailer: ctx.services.mailer, log: ctx.request.log },
      { ...input, actor: staffActorOf(ctx) },
    ),
  adminstrategyexposure: async (input, ctx) =>
    botExposure(
      { ...tradingPorts(ctx), market: ctx.services.market },
      { ...input, actor: staffActorOf(ctx) },
    ),
};

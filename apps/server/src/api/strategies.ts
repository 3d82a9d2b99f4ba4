import type { strategyRoutes } from '@broker/contracts/strategy-routes';
import type { THandlers } from '../http/gateway';
import {
  backtestStrategy,
  createStrategy,
  listStrategies,
  previewStrategy,
  stopStrategy,
  strategyDetail,
} from '../modules/strategies';
import { tradingPorts, userActorOf } from './actors';

/** Handlers of the `strategy` route family (spec 7.8; spec 7.10 create, list and stop strategy). */
export const strategyHandlers: Pick<THandlers, keyof typeof strategyRoutes> = {
  strategypreview: async (input, ctx) =>
    previewStrategy(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  strategybacktest: (input, ctx) =>
    backtestStrategy(
      {
        ...tradingPorts(ctx),
        candles: (symbol, timeframe, range) => ctx.services.market.candles(symbol, timeframe, range),
      },
      { ...input, actor: userActorOf(ctx) },
    ),
  strategycreate: (input, ctx) => createStrategy(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  strategylist: (input, ctx) => listStrategies(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  strategydetail: (input, ctx) => strategyDetail(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  strategystop: (input, ctx) => stopStrategy(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
};

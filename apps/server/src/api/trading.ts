import type { tradingRoutes } from '@broker/contracts/trading-routes';
import type { THandlers } from '../http/gateway';
import {
  accountCategories,
  accountInfo,
  cancelOrder,
  closeAll,
  closePosition,
  dealHistory,
  listAccounts,
  marginPreview,
  modifyOrder,
  modifyPosition,
  openAccount,
  openPositions,
  orderHistory,
  pendingOrders,
  placeOrder,
  resetDemo,
} from '../modules/trading';
import { tradingPorts, userActorOf } from './actors';

/** Handlers of the trader's trading routes: each one the trader's session as the actor of a use case. */
export const tradingHandlers: Pick<THandlers, keyof typeof tradingRoutes> = {
  accountcategory: async (_input, ctx) => accountCategories(tradingPorts(ctx), { actor: userActorOf(ctx) }),
  accountlist: async (_input, ctx) => listAccounts(tradingPorts(ctx), { actor: userActorOf(ctx) }),
  accountcreate: (input, ctx) => openAccount(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  info: async (input, ctx) =>
    accountInfo(tradingPorts(ctx), { actor: userActorOf(ctx), accountId: input.account_id }),
  demoreset: (input, ctx) => resetDemo(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  positions: async (input, ctx) =>
    openPositions(tradingPorts(ctx), { actor: userActorOf(ctx), accountId: input.account_id }),
  pendingorders: async (input, ctx) =>
    pendingOrders(tradingPorts(ctx), { actor: userActorOf(ctx), accountId: input.account_id }),
  ordersend: (input, ctx) => placeOrder(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  ordermodify: (input, ctx) => modifyOrder(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  ordercancel: (input, ctx) => cancelOrder(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  positionmodify: (input, ctx) => modifyPosition(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  positionclose: (input, ctx) => closePosition(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  closeall: (input, ctx) => closeAll(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  ordermargin: async (input, ctx) => marginPreview(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  dealhistory: (input, ctx) => dealHistory(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  orderhistory: (input, ctx) => orderHistory(tradingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
};

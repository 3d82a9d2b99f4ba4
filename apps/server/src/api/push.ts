import type { TCallContext } from '../http/context';
import type { THandlers } from '../http/gateway';
import {
  deletePushSubscription,
  insertPushSubscription,
  listPushSubscriptions,
  type TPushPorts,
} from '../modules/notify';
import { userActorOf } from './actors';

const pushPorts = (ctx: TCallContext): TPushPorts => ({ db: ctx.services.database.db });

/** Handlers of the trader's Web Push subscriptions. */
export const pushHandlers = {
  pushkey: async (_input, ctx) => ({ publicKey: ctx.services.vapid.publicKey }),
  pushinsert: async (input, ctx) =>
    insertPushSubscription(pushPorts(ctx), { ...input, actor: userActorOf(ctx), userAgent: ctx.userAgent }),
  pushdelete: async (input, ctx) =>
    deletePushSubscription(pushPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  pushget: async (_input, ctx) => listPushSubscriptions(pushPorts(ctx), { actor: userActorOf(ctx) }),
} satisfies Partial<THandlers>;

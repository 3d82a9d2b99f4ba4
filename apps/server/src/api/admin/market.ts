import type { marketRoutes } from '@broker/contracts/admin/market-routes';
import type { TCallContext } from '../../http/context';
import type { THandlers } from '../../http/gateway';
import { staffNames } from '../../modules/access';
import {
  listHistory,
  listInstruments,
  marketQuotes,
  saveInstrument,
  type TMarketAdminPorts,
} from '../../modules/market';
import {
  deleteGroup,
  groupNames,
  groupTerms,
  listGroups,
  listGroupTerms,
  saveGroup,
  saveGroupTerms,
  setDefaultGroup,
  type TGroupPorts,
} from '../../modules/trading';
import { staffActorOf } from '../actors';

/**
 * The market configuration's ports: the database, the feed's quotes, the engine that makes a saved
 * change live, the request's log for when it does not confirm, and the account groups' overrides
 * (the trading module's) that the instrument pages show.
 */
const marketPorts = (ctx: TCallContext): TMarketAdminPorts & TGroupPorts => ({
  db: ctx.services.database.db,
  market: ctx.services.market,
  host: ctx.services.engine,
  log: ctx.request.log,
  groupOverrides: listGroupTerms,
});

/** Handlers of the back office's market routes. */
export const marketHandlers: Pick<THandlers, keyof typeof marketRoutes> = {
  adminmarketinstruments: async (_input, ctx) => ({
    items: await listInstruments(marketPorts(ctx), { actor: staffActorOf(ctx) }),
  }),
  adminmarketquotes: async (_input, ctx) => ({
    items: await marketQuotes(marketPorts(ctx), { actor: staffActorOf(ctx) }),
  }),
  adminmarketinstrumentsave: (input, ctx) =>
    saveInstrument(marketPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminmarketgrouplist: async (_input, ctx) => ({
    items: await listGroups(marketPorts(ctx), { actor: staffActorOf(ctx) }),
  }),
  adminmarketgroupsave: (input, ctx) => saveGroup(marketPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminmarketgroupdelete: (input, ctx) =>
    deleteGroup(marketPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminmarketgroupdefault: (input, ctx) =>
    setDefaultGroup(marketPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminmarketgroupterms: (input, ctx) => groupTerms(marketPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminmarketgrouptermssave: (input, ctx) =>
    saveGroupTerms(marketPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminmarkethistory: (input, ctx) =>
    listHistory({ ...marketPorts(ctx), groupNames, staffNames }, { ...input, actor: staffActorOf(ctx) }),
};

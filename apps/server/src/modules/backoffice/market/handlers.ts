import type { marketRoutes } from '@broker/contracts/admin/market-routes';
import type { THandlers } from '../../../http/gateway';
import { groupTerms, saveGroupTerms } from './group-terms';
import { deleteGroup, listGroups, saveGroup, setDefaultGroup } from './groups';
import { listHistory } from './history';
import { listInstruments, marketQuotes, saveInstrument } from './instruments';

/** Handlers of the back office's market routes. */
export const marketHandlers: Pick<THandlers, keyof typeof marketRoutes> = {
  adminmarketinstruments: async (_input, ctx) => ({ items: await listInstruments(ctx) }),
  adminmarketquotes: async (_input, ctx) => ({ items: await marketQuotes(ctx) }),
  adminmarketinstrumentsave: (input, ctx) => saveInstrument(ctx, input),
  adminmarketgrouplist: async (_input, ctx) => ({ items: await listGroups(ctx) }),
  adminmarketgroupsave: (input, ctx) => saveGroup(ctx, input),
  adminmarketgroupdelete: (input, ctx) => deleteGroup(ctx, input),
  adminmarketgroupdefault: (input, ctx) => setDefaultGroup(ctx, input),
  adminmarketgroupterms: (input, ctx) => groupTerms(ctx, input),
  adminmarketgrouptermssave: (input, ctx) => saveGroupTerms(ctx, input),
  adminmarkethistory: (input, ctx) => listHistory(ctx, input),
};

import type { marketRoutes } from '@broker/contracts/admin/market-routes';
import type { THandlers } from '../../../http/gateway';

/** Handlers of the back office's market routes. */
export const marketHandlers: Pick<THandlers, keyof typeof marketRoutes> = {};

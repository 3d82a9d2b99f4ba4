import type { accessRoutes } from '@broker/contracts/admin/access-routes';
import type { THandlers } from '../../../http/gateway';

/** Handlers of the back office's access routes. */
export const accessHandlers: Pick<THandlers, keyof typeof accessRoutes> = {};

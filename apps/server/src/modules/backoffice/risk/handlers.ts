import type { riskRoutes } from '@broker/contracts/admin/risk-routes';
import type { THandlers } from '../../../http/gateway';

/** Handlers of the back office's risk routes. */
export const riskHandlers: Pick<THandlers, keyof typeof riskRoutes> = {};

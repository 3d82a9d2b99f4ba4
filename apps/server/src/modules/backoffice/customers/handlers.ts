import type { customersRoutes } from '@broker/contracts/admin/customers-routes';
import type { THandlers } from '../../../http/gateway';

/** Handlers of the back office's customers routes. */
export const customersHandlers: Pick<THandlers, keyof typeof customersRoutes> = {};

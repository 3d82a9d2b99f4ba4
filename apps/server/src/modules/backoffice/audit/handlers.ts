import type { auditRoutes } from '@broker/contracts/admin/audit-routes';
import type { THandlers } from '../../../http/gateway';

/** Handlers of the back office's audit routes. */
export const auditHandlers: Pick<THandlers, keyof typeof auditRoutes> = {};

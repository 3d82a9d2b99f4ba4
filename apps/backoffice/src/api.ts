import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { ACCESS_ROUTES } from './areas/access/routes';
import { AUDIT_ROUTES } from './areas/audit/routes';
import { COPY_ROUTES } from './areas/copy/routes';
import { CUSTOMERS_ROUTES } from './areas/customers/routes';
import { FUNDING_ROUTES } from './areas/funding/routes';
import { KYC_ROUTES } from './areas/kyc/routes';
import { MARKET_ROUTES } from './areas/market/routes';
import { RISK_ROUTES } from './areas/risk/routes';
import { STRATEGY_ROUTES } from './areas/strategies/routes';
import type { TAreaRoutes } from './areas/types';
import { callRoute } from './lib/api';

/**
 * The back office's API client: the shell's calls and every area's route list (each area's `routes.ts`,
 * which holds no page), over the HTTP layer in lib/api.ts. Paths come from the schema-free route-path
 * map, so the bundle does not carry the schema library; a unit test keeps `mutates` equal to the route
 * catalogue.
 */
export const ADMIN_ROUTES = {
  adminlogin: { path: ROUTE_PATHS.adminlogin, mutates: true },
  adminlogout: { path: ROUTE_PATHS.adminlogout, mutates: true },
  adminme: { path: ROUTE_PATHS.adminme, mutates: false },
  adminoverview: { path: ROUTE_PATHS.adminoverview, mutates: false },
  ...ACCESS_ROUTES,
  ...AUDIT_ROUTES,
  ...COPY_ROUTES,
  ...CUSTOMERS_ROUTES,
  ...FUNDING_ROUTES,
  ...KYC_ROUTES,
  ...MARKET_ROUTES,
  ...RISK_ROUTES,
  ...STRATEGY_ROUTES,
} as const satisfies TAreaRoutes;

export type TAdminRouteName = keyof typeof ADMIN_ROUTES;

/** Calls one of the back office's routes; resolves with its `data`, or rejects with an ApiError. */
export function callApi<N extends TAdminRouteName>(
  name: N,
  input: TRouteInput<N>,
  options: { signal?: AbortSignal } = {},
): Promise<TRouteOutput<N>> {
  return callRoute(name, ADMIN_ROUTES[name], input, options);
}

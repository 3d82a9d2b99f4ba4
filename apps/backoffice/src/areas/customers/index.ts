import type { TAreaPages, TAreaRoutes } from '../types';

/** The customers area's calls (route name to path and whether it changes state). */
export const CUSTOMERS_ROUTES = {} as const satisfies TAreaRoutes;

/** The customers area's pages, by menu key; each page handles the paths under its menu path. */
export const CUSTOMERS_PAGES: TAreaPages = {};

import type { TAreaPages, TAreaRoutes } from '../types';

/** The market area's calls (route name to path and whether it changes state). */
export const MARKET_ROUTES = {} as const satisfies TAreaRoutes;

/** The market area's pages, by menu key; each page handles the paths under its menu path. */
export const MARKET_PAGES: TAreaPages = {};

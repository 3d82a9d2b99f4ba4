import type { TAreaPages, TAreaRoutes } from '../types';

/** The risk area's calls (route name to path and whether it changes state). */
export const RISK_ROUTES = {} as const satisfies TAreaRoutes;

/** The risk area's pages, by menu key; each page handles the paths under its menu path. */
export const RISK_PAGES: TAreaPages = {};

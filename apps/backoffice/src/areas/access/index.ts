import type { TAreaPages, TAreaRoutes } from '../types';

/** The access area's calls (route name to path and whether it changes state). */
export const ACCESS_ROUTES = {} as const satisfies TAreaRoutes;

/** The access area's pages, by menu key; each page handles the paths under its menu path. */
export const ACCESS_PAGES: TAreaPages = {};

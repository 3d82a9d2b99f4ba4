import type { TAreaPages, TAreaRoutes } from '../types';

/** The audit area's calls (route name to path and whether it changes state). */
export const AUDIT_ROUTES = {} as const satisfies TAreaRoutes;

/** The audit area's pages, by menu key; each page handles the paths under its menu path. */
export const AUDIT_PAGES: TAreaPages = {};

/** The back office's market routes: each names the permission it needs. */
export const marketRoutes = {} as const;

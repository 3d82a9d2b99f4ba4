/** The back office's risk routes: each names the permission it needs. */
export const riskRoutes = {} as const;

/** The back office's audit routes: each names the permission it needs. */
export const auditRoutes = {} as const;

/** The back office's access routes: each names the permission it needs. */
export const accessRoutes = {} as const;

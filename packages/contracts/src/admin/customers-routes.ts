/** The back office's customers routes: each names the permission it needs. */
export const customersRoutes = {} as const;

/** Paths of the back office's market routes (schema-free, for the browser). */
export const MARKET_PATHS = {} as const;

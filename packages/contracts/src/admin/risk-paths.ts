/** Paths of the back office's risk routes (schema-free, for the browser). */
export const RISK_PATHS = {} as const;

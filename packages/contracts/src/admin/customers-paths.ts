/** Paths of the back office's customers routes (schema-free, for the browser). */
export const CUSTOMERS_PATHS = {} as const;

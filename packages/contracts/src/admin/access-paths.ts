/** Paths of the back office's access routes (schema-free, for the browser). */
export const ACCESS_PATHS = {} as const;

/** Paths of the back office's audit routes (schema-free, for the browser). */
export const AUDIT_PATHS = {} as const;

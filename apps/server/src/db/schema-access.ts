/** Tables of the back office's access area (filled by the issue that builds it). */
// biome-ignore lint/suspicious/noEmptyInterface: extended by TDatabaseSchema; the area adds its tables here.
export interface TAccessSchema {}

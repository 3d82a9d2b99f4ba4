/** The reporting module's public face: the only file other modules and the HTTP layer import. */
export { dailyStatistics } from './statistics';
export { winnersReport } from './winners';

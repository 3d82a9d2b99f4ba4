import type { TTradingPorts } from '../trading';

/** What the strategy use cases work with: the engine (single writer) and the database. */
export type TStrategyPorts = TTradingPorts;

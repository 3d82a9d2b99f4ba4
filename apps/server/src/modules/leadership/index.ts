/** The leadership module's public face: the trading engine's lease and its epoch (ADR 013). */
export { EngineLease, EngineLeaseHeldError, type TLeaseStatus } from './lease';

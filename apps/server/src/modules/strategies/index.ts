/** The strategies module's public face (issue 19): grid and martingale bots for traders and the back office. */

export { adminStopStrategy, adminStrategies, adminStrategyDetail } from './admin/bots';
export type { TStrategyExposurePorts } from './admin/exposure';
export { botExposure } from './admin/exposure';
export type { TCandleSource } from './backtest';
export { backtestStrategy } from './backtest';
export { createStrategy, listStrategies, previewStrategy, stopStrategy, strategyDetail } from './bots';
export type { TStrategyPorts } from './ports';

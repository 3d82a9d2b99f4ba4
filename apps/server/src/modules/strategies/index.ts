/** The strategies module's public face (issue 19): grid and martingale bots for traders. */

export type { TCandleSource } from './backtest';
export { backtestStrategy } from './backtest';
export { createStrategy, listStrategies, previewStrategy, stopStrategy, strategyDetail } from './bots';
export type { TStrategyPorts } from './ports';

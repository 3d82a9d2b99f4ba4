/** The liquidity module's public face: the only file other modules and the HTTP layer import. */
export type { THedgePorts } from './admin/hedges';
export { liquidityReport, retryHedge } from './admin/hedges';
export type { TRulePorts } from './admin/rules';
export { deleteRule, listRules, saveRule } from './admin/rules';
export { LiquidityService } from './liquidity-service';

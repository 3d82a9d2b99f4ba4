/** The copy-trading module's public face: the only file other modules and the HTTP layer import. */
export { adminLeaders, reviewLeader, suspendLeader } from './admin/leaders';
export {
  adminCopySettings,
  adminRelations,
  adminSettlements,
  copyExposure,
  saveAdminCopySettings,
} from './admin/relations';
export { leaderDashboard } from './dashboard';
export { CopyFeeSchedule, lastPeriodEnd, nextPeriodEnd, settleCopyFee, settlePeriod } from './fees';
export { moveCopyFunds, myCopies, pauseCopy, startCopy, stopCopy, updateCopy } from './follow';
export { applyToLead, forgetLeaderStats, leaderProfile, listLeaders, saveLeaderSettings } from './leaders';
export { parityReport, whatIf } from './parity';
export type { TCopyPorts } from './ports';
export { computeStats, returnIndex, riskScore } from './stats';

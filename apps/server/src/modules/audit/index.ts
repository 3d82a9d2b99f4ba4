/** The audit module's public face: the only file other modules and the HTTP layer import. */
export type { TActorDirectory, TOperationPorts } from './admin/operations';
export { exportOperations, listOperations, operationActions, operationDetail } from './admin/operations';
export { recordAudit } from './audit';
export { verifyChain } from './chain';
export type { TAuditSink, TRelayedAuditEvent } from './relay';
export { AuditRelay } from './relay';
export { changes, currentRevision, isUniqueViolation, recordStaffChange } from './staff-change';

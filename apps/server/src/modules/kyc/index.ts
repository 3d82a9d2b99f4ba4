/** The kyc module's public face: the only file other modules and the HTTP layer import. */
export { approveKyc, REJECT_REASON_MAX, rejectKyc } from './admin/decide';
export { kycDetail } from './admin/kyc-detail';
export { kycQueue } from './admin/kyc-queue';
export { kycInfo, maskDocument } from './kyc-info';
export type { TKycLog, TKycPorts, TKycReviewPorts } from './ports';
export type { TKycFileRole, TKycLevel, TKycSubmissionStatus } from './schema';
export type { TKycState } from './submissions';
export { kycStatusOf } from './submissions';
export { submitCertification, submitSeniorAuth } from './submit';

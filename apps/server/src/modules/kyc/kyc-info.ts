import type { TActor } from '../../actor';
import { FILE_LIMITS } from '../files';
import { type TKycPorts, traderOf } from './ports';
import { latestSubmissions, type TBasicDetails, type TKycState } from './submissions';

/** A document number as the trader sees it again: all but its last 4 characters hidden. */
export const maskDocument = (number: string) =>
  number.length <= 4 ? number : `${'*'.repeat(number.length - 4)}${number.slice(-4)}`;

/**
 * certinfo (spec 7.6 "certification info"): the trader's state at both levels (from their latest
 * submission of each), the latest rejection reasons, what they submitted (the document number
 * masked) and the upload limits the form checks.
 */
export async function kycInfo(ports: TKycPorts, { actor }: { actor: TActor }) {
  const userId = traderOf(actor);
  const latest = await latestSubmissions(ports.db, { tenantId: actor.tenantId, userId });
  const basic = latest.basic;
  const senior = latest.senior;
  const details = basic ? (basic.details as TBasicDetails) : null;
  return {
    status: (basic?.status ?? 'none') as TKycState,
    seniorStatus: (senior?.status ?? 'none') as TKycState,
    rejectReason: basic?.status === 'rejected' ? basic.rejectReason : null,
    seniorRejectReason: senior?.status === 'rejected' ? senior.rejectReason : null,
    submittedAt: basic ? basic.submittedAt.toISOString() : null,
    reviewedAt: basic?.reviewedAt ? basic.reviewedAt.toISOString() : null,
    details: details ? { ...details, documentNumber: maskDocument(details.documentNumber) } : null,
    limits: { image: FILE_LIMITS.kyc.image, video: FILE_LIMITS.kyc.video },
  };
}

import type { TDb } from '../../../db/database';
import { staffNames } from '../../access';
import { brokerFiles, staffFileUrl } from '../../files';
import { customerBriefs, type TCustomerBrief } from '../../identity';
import type { TBasicDetails, TSeniorDetails, TSubmission } from '../submissions';

/**
 * Submissions as the back office shows them (`ZKycSubmission`): the customer, the reviewer's name,
 * the full details and the files with their staff URLs. One query per kind of data for the page.
 */
export async function presentSubmissions(db: TDb, tenantId: string, submissions: readonly TSubmission[]) {
  const [customers, reviewers, files] = await Promise.all([
    customerBriefs(db, { tenantId, ids: submissions.map((s) => s.userId) }),
    staffNames(db, {
      tenantId,
      ids: submissions.flatMap((s) => (s.reviewedBy ? [s.reviewedBy] : [])),
    }),
    brokerFiles(db, { tenantId, ids: submissions.flatMap((s) => s.files.map((f) => f.fileId)) }),
  ]);
  return submissions.map((s) => {
    const customer: TCustomerBrief = customers.get(s.userId) ?? {
      userId: s.userId,
      name: '',
      email: null,
      country: null,
      kyc: 'none',
      createdAt: s.submittedAt.toISOString(),
    };
    const reviewer = s.reviewedBy ? reviewers.get(s.reviewedBy) : undefined;
    return {
      id: s.id,
      level: s.level,
      status: s.status,
      customer,
      submittedAt: s.submittedAt.toISOString(),
      reviewedAt: s.reviewedAt ? s.reviewedAt.toISOString() : null,
      reviewedBy: s.reviewedBy ? reviewer?.displayName || reviewer?.username || s.reviewedBy : null,
      rejectReason: s.rejectReason,
      details: s.level === 'basic' ? (s.details as TBasicDetails) : null,
      address: s.level === 'senior' ? (s.details as TSeniorDetails) : null,
      files: s.files.flatMap((f) => {
        const file = files.get(f.fileId);
        return file
          ? [{ role: f.role, mime: file.mime, bytes: file.bytes, url: staffFileUrl(f.fileId) }]
          : [];
      }),
    };
  });
}

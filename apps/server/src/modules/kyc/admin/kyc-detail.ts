import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../../actor';
import type { TKycPorts } from '../ports';
import { submissionColumns, toSubmission } from '../submissions';
import { presentSubmissions } from './present';

/** One submission of the broker with its files, and the customer's submissions before it, newest first. */
export async function kycDetail(ports: TKycPorts, { actor, id }: { actor: TActor; id: string }) {
  const { db } = ports;
  const row = await db
    .selectFrom('kyc_submissions')
    .select(submissionColumns)
    .where('tenant_id', '=', actor.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  const others = await db
    .selectFrom('kyc_submissions')
    .select(submissionColumns)
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', row.user_id)
    .where('id', '!=', id)
    .where('submitted_at', '<=', row.submitted_at)
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  const [submission, ...earlier] = await presentSubmissions(db, actor.tenantId, [
    toSubmission(row),
    ...others.map(toSubmission),
  ]);
  if (!submission) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return { submission, earlier };
}

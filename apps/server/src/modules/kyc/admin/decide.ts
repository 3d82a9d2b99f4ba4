import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import { serverTranslator } from '../../../i18n';
import { recordAudit } from '../../audit';
import { setKycStatus, userNames } from '../../identity';
import { auditOf, type TKycReviewPorts } from '../ports';
import { submissionColumns, type TSubmission, toSubmission } from '../submissions';
import { presentSubmissions } from './present';

/** Spec 5: a rejection's reason has at most 20 characters. */
export const REJECT_REASON_MAX = 20;

/**
 * Decides a waiting submission: one compare-and-set from `pending`, so of two reviewers deciding
 * at once exactly one succeeds and the other gets -6011; the trader's state and the audit entry
 * are in the same transaction. Then, outside it, the trader is mailed (in the language they
 * submitted in) and an approval of the basic level is reported to `onApproved`.
 */
async function decide(
  ports: TKycReviewPorts,
  {
    actor,
    id,
    decision,
    reason,
  }: { actor: TActor; id: string; decision: 'approved' | 'rejected'; reason: string | null },
) {
  if (actor.kind !== 'staff') throw new AppError(AppErrorCode.FORBIDDEN);
  const tenantId = actor.tenantId;
  const decided = await ports.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('kyc_submissions')
      .set({
        status: decision,
        reviewed_at: sql`now()`,
        reviewed_by: actor.id,
        reject_reason: reason,
      })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returning(submissionColumns)
      .executeTakeFirst();
    if (!row) {
      const exists = await trx
        .selectFrom('kyc_submissions')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .executeTakeFirst();
      throw new AppError(exists ? AppErrorCode.APPROVAL_NOT_PENDING : AppErrorCode.RECORD_NOT_FOUND);
    }
    const submission = toSubmission(row);
    if (submission.level === 'basic')
      await setKycStatus(trx, { tenantId, userId: submission.userId, status: decision });
    await recordAudit(trx, {
      ...auditOf(actor, {
        userId: submission.userId,
        level: submission.level,
        ...(reason ? { reason } : {}),
      }),
      action: decision === 'approved' ? 'kyc.approve' : 'kyc.reject',
      target: id,
    });
    return submission;
  });
  if (decision === 'approved' && decided.level === 'basic' && ports.onApproved) {
    try {
      await ports.onApproved(decided.userId);
    } catch (error) {
      ports.log.warn({ err: error, userId: decided.userId }, 'kyc approval: onApproved failed');
    }
  }
  await mailDecision(ports, decided);
  const [presented] = await presentSubmissions(ports.db, tenantId, [decided]);
  if (!presented) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return presented;
}

/** Tells the trader the decision by mail when they have an address; a failed delivery is only logged. */
async function mailDecision(ports: TKycReviewPorts, submission: TSubmission) {
  if (!ports.mailer) return;
  const user = (await userNames(ports.db, { tenantId: submission.tenantId, ids: [submission.userId] })).get(
    submission.userId,
  );
  if (!user?.email) return;
  const t = serverTranslator(submission.locale ?? 'en');
  const brand = t('brand.name');
  const key =
    submission.status === 'rejected'
      ? 'rejected'
      : submission.level === 'senior'
        ? 'seniorApproved'
        : 'approved';
  try {
    await ports.mailer.send({
      to: user.email,
      subject: t(`mail.kyc.${key}.subject`, { brand }),
      text: t(`mail.kyc.${key}.body`, { brand, reason: submission.rejectReason ?? '' }),
    });
  } catch (error) {
    ports.log.warn({ err: error, submission: submission.id }, 'kyc decision mail not delivered');
  }
}

/** adminkycapprove: approves a waiting submission (-6011 when already decided). */
export function approveKyc(ports: TKycReviewPorts, { actor, id }: { actor: TActor; id: string }) {
  return decide(ports, { actor, id, decision: 'approved', reason: null });
}

/** adminkycreject: rejects a waiting submission with a reason of 1 to 20 characters (spec 5). */
export function rejectKyc(
  ports: TKycReviewPorts,
  { actor, id, reason }: { actor: TActor; id: string; reason: string },
) {
  const text = reason.trim();
  if (text.length === 0 || [...text].length > REJECT_REASON_MAX)
    throw AppError.invalid({ reason: 'reasonLength' });
  return decide(ports, { actor, id, decision: 'rejected', reason: text });
}

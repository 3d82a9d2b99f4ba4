import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { auditedActor, type TActor } from '../../actor';
import type { TDb } from '../../db/database';
import type { TMailer } from '../notify';

/** What the KYC use cases work with: the database. */
export interface TKycPorts {
  db: TDb;
}

/** Where a use case notes what went wrong out of the caller's sight (the request's logger). */
export interface TKycLog {
  warn(details: object, message: string): void;
}

/** A review decision also tells the trader (mail) and, on approval, whoever grants rewards for it. */
export interface TKycReviewPorts extends TKycPorts {
  mailer: TMailer | null;
  log: TKycLog;
  /**
   * Called once the basic level of `userId` is approved and committed (funding grants its coins
   * through it; kyc does not import funding). A failure is logged: the approval stands.
   */
  onApproved?(userId: string): Promise<void>;
}

/** The trader a call acts for: the signed-in trader, or the one a system part acts for. Staff submit nothing. */
export function traderOf(actor: TActor): string {
  if (actor.kind === 'staff' || !actor.onBehalfOf) throw new AppError(AppErrorCode.FORBIDDEN);
  return actor.onBehalfOf;
}

/** The audit trail's columns for the actor; who was acted for goes into the details (ADR 011). */
export function auditOf(actor: TActor, details: Record<string, unknown>) {
  const { onBehalfOf, ...columns } = auditedActor(actor);
  return { ...columns, details: onBehalfOf ? { ...details, onBehalfOf } : details };
}

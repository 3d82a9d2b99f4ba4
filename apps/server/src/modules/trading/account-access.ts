import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import type { TTradingPorts } from './ports';

/**
 * The account if the actor may trade it, else "account not found" (never "forbidden": no probing).
 * A user, or a system part, API key or bridge acting for a trader, reaches that trader's accounts
 * of the actor's broker; staff reach every account of their broker (their permissions were checked
 * for the route).
 */
export function actorAccount(ports: TTradingPorts, actor: TActor, accountId: number): TAccountView {
  const owner = ports.host.ownerOf(accountId);
  const view = ports.host.core.account(accountId);
  const reaches =
    owner !== undefined &&
    owner.tenantId === actor.tenantId &&
    (actor.kind === 'staff' || (actor.onBehalfOf !== null && owner.userId === actor.onBehalfOf));
  if (!view || !reaches) throw new AppError(AppErrorCode.ACCOUNT_NOT_FOUND);
  return view;
}

/** The trader the actor acts for (a user for themself, or a system part, key or bridge for a trader). */
export function traderOf(actor: TActor): string {
  if (actor.onBehalfOf === null) throw new AppError(AppErrorCode.TOKEN_INVALID);
  return actor.onBehalfOf;
}

/**
 * The engine's idempotency key of an actor's key: a trader's own keys are kept as sent (as before
 * actors existed); every other actor's are prefixed with who it is, so that a bot's key can never
 * answer with a trader's order or the other way round.
 */
export function engineKey(actor: TActor, key: string): string {
  return actor.kind === 'user' ? key : `${actor.kind}:${actor.id}:${key}`;
}

/**
 * Records in the audit trail a trading call made for a trader by someone else (a system part, an
 * API key, a bridge or staff): the trader's own calls are in their order and deal history.
 */
export async function auditActing(
  ports: TTradingPorts,
  actor: TActor,
  action: string,
  target: string,
  details: Record<string, unknown>,
): Promise<void> {
  if (actor.kind === 'user') return;
  await recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action,
    target,
    ip: actor.ip,
    details: { ...details, onBehalfOf: actor.onBehalfOf },
  });
}

import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import { sha256 } from '../../ids';
import { recordAudit } from '../audit';
import type { TIdentityPorts } from './ports';

export const HANDOFF_SECONDS = 60;

/**
 * save_token (spec 7.2): the signed-in device parks a random token of its own making, bound to its
 * fingerprint, for 60 s. trans_token: the same device, on another origin of the same broker (the
 * broker's own domain, the app's web view), trades it once for a session there.
 */
export async function parkHandoff(
  ports: TIdentityPorts,
  { actor, ...input }: { actor: TActor; token: string; finger_key: string },
): Promise<{ expiresAt: number }> {
  const expiresAt = Date.now() + HANDOFF_SECONDS * 1000;
  await ports.db
    .insertInto('session_handoffs')
    .values({
      token_hash: sha256(input.token),
      tenant_id: actor.tenantId,
      user_id: actor.id,
      finger_key: sha256(input.finger_key),
      expires_at: new Date(expiresAt),
    })
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
  return { expiresAt };
}

/** Consumes a parked token for the same fingerprint; answers its user id or refuses (-1021). */
export async function takeHandoff(
  ports: TIdentityPorts,
  input: { tenantId: string; ip: string | null; accessToken: string; finger_key: string },
): Promise<string> {
  const row = await ports.db
    .updateTable('session_handoffs')
    .set({ used_at: sql<Date>`now()` })
    .where('token_hash', '=', sha256(input.accessToken))
    .where('tenant_id', '=', input.tenantId)
    .where('finger_key', '=', sha256(input.finger_key))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  if (!row) {
    await recordAudit(ports.db, {
      tenantId: input.tenantId,
      actorKind: 'anonymous',
      actorId: null,
      action: 'user.handoff.refused',
      ip: input.ip,
    });
    throw new AppError(AppErrorCode.HANDOFF_INVALID);
  }
  return row.user_id;
}

import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { recordAudit } from '../audit';
import { findUser, setTraderStatus, signOutTrader } from '../identity';

/** What the customers use cases work with: the database. */
export interface TCustomersPorts {
  db: TDb;
}

/**
 * Disables a customer (every session ends at once; sign-in, code sign-in and hand-offs refuse a
 * disabled user) or enables them again. The change, the revocation and its audit event are one
 * transaction.
 */
export async function setCustomerStatus(
  ports: TCustomersPorts,
  { actor, ...input }: { actor: TActor; userId: string; status: 'active' | 'disabled'; reason: string },
) {
  const user = await findUser(ports.db, { tenantId: actor.tenantId, id: input.userId });
  return ports.db.transaction().execute(async (trx) => {
    const { revokedSessions } = await setTraderStatus(
      { db: trx },
      { actor, userId: user.id, status: input.status },
    );
    await recordAudit(trx, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: input.status === 'disabled' ? 'customers.disable' : 'customers.enable',
      target: user.id,
      ip: actor.ip,
      details: { before: user.status, after: input.status, reason: input.reason, revokedSessions },
    });
    return { status: input.status, revokedSessions };
  });
}

/** Ends every session of the customer without disabling them (a lost phone, a shared computer). */
export async function signOutCustomer(
  ports: TCustomersPorts,
  { actor, userId }: { actor: TActor; userId: string },
) {
  const user = await findUser(ports.db, { tenantId: actor.tenantId, id: userId });
  return ports.db.transaction().execute(async (trx) => {
    const revokedSessions = await signOutTrader({ db: trx }, { actor, userId: user.id });
    await recordAudit(trx, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'customers.signout',
      target: user.id,
      ip: actor.ip,
      details: { revokedSessions },
    });
    return { revokedSessions };
  });
}

import type { TCallContext } from '../../../http/context';
import { recordAudit } from '../../audit/audit';
import { revokeSessions } from '../../identity/account-security';
import { findCustomer, staffOf } from './customer-accounts';

/**
 * Disables a customer (every session ends at once; sign-in, code sign-in and hand-offs refuse a
 * disabled user) or enables them again. The change, the revocation and its audit event are one
 * transaction.
 */
export async function setCustomerStatus(
  ctx: TCallContext,
  input: { userId: string; status: 'active' | 'disabled'; reason: string },
) {
  const user = await findCustomer(ctx, input.userId);
  const staff = staffOf(ctx);
  return ctx.services.database.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({
        status: input.status,
        ...(input.status === 'active' ? { failed_attempts: 0, locked_until: null } : {}),
      })
      .where('tenant_id', '=', ctx.tenant.id)
      .where('id', '=', user.id)
      .execute();
    const revokedSessions =
      input.status === 'disabled'
        ? await revokeSessions({ db: trx, userId: user.id, currentHash: '', id: null })
        : 0;
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: staff.staffId,
      action: input.status === 'disabled' ? 'customers.disable' : 'customers.enable',
      target: user.id,
      ip: ctx.ip,
      details: { before: user.status, after: input.status, reason: input.reason, revokedSessions },
    });
    return { status: input.status, revokedSessions };
  });
}

/** Ends every session of the customer without disabling them (a lost phone, a shared computer). */
export async function signOutCustomer(ctx: TCallContext, userId: string) {
  const user = await findCustomer(ctx, userId);
  const staff = staffOf(ctx);
  return ctx.services.database.db.transaction().execute(async (trx) => {
    const revokedSessions = await revokeSessions({ db: trx, userId: user.id, currentHash: '', id: null });
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: staff.staffId,
      action: 'customers.signout',
      target: user.id,
      ip: ctx.ip,
      details: { revokedSessions },
    });
    return { revokedSessions };
  });
}

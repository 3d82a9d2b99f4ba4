import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { staffActor, type TActor, userActor } from '../actor';
import type { TCallContext } from '../http/context';
import type { TTradingPorts } from '../modules/trading';

/** The signed-in trader of a call as an actor (the gateway has refused the call without a session). */
export function userActorOf(ctx: TCallContext): TActor {
  const session = ctx.userSession;
  if (!session) throw new AppError(AppErrorCode.TOKEN_INVALID);
  return userActor({
    userId: session.subjectId,
    tenantId: ctx.tenant.id,
    ip: ctx.ip,
    session: { tokenHash: session.tokenHash, cipherKey: session.cipherKey },
  });
}

/** The signed-in staff member of a call as an actor. */
export function staffActorOf(ctx: TCallContext): TActor {
  if (!ctx.staff) throw new AppError(AppErrorCode.TOKEN_INVALID);
  return staffActor({ staffId: ctx.staff.staffId, tenantId: ctx.tenant.id, ip: ctx.ip });
}

/** The trading use cases' ports from the composed services. */
export const tradingPorts = (ctx: TCallContext): TTradingPorts => ({
  host: ctx.services.engine,
  db: ctx.services.database.db,
});

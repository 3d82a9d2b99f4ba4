import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TCallContext } from '../../http/context';
import { setSessionCookies } from '../../http/cookies';
import { recordAudit } from '../audit/audit';
import { createSession } from './sessions';
import { userProfile } from './users';

export const secureCookies = (ctx: TCallContext) =>
  ctx.services.config.COOKIE_SECURE ?? ctx.request.protocol === 'https';

/** Opens a trader session after registration or a code sign-in, with the cookies the portal reads. */
export async function openUserSession(ctx: TCallContext, userId: string) {
  const db = ctx.services.database.db;
  const user = await userProfile({ db, userId, tenantId: ctx.tenant.id });
  if (!user) throw new AppError(AppErrorCode.USER_NOT_FOUND);
  const { token, session } = await createSession({
    db,
    tenantId: ctx.tenant.id,
    subjectKind: 'user',
    subjectId: userId,
    userAgent: ctx.userAgent,
    ip: ctx.ip,
  });
  await recordAudit(db, {
    tenantId: ctx.tenant.id,
    actorKind: 'user',
    actorId: userId,
    action: 'user.signin',
    ip: ctx.ip,
  });
  setSessionCookies(ctx.reply, { token, session, secure: secureCookies(ctx), displayName: user.name });
  return {
    csrfToken: session.csrfToken,
    expiresAt: session.absoluteExpiresAt.toISOString(),
    cipherKey: session.cipherKey ?? undefined,
    user,
  };
}

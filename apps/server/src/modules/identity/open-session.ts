import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { recordAudit } from '../audit';
import { userCountry } from './account-security';
import type { TIdentityPorts } from './ports';
import { createSession, type TSession } from './sessions';
import { userProfile } from './users';

/** A trader's new session: the cookie token, the session, and what its cookies and answer show. */
export interface TOpenedSession {
  token: string;
  session: TSession;
  user: NonNullable<Awaited<ReturnType<typeof userProfile>>>;
  /** The trader's ISO numeric country, for the country cookie (null when unknown). */
  country: string | null;
}

/**
 * Opens a trader session after registration, a code sign-in, a hand-off, a QR confirmation or a
 * third-party sign-in. The HTTP layer sets the session's cookies from what it returns.
 */
export async function openUserSession(
  ports: TIdentityPorts,
  input: { tenantId: string; userId: string; userAgent: string | null; ip: string | null },
): Promise<TOpenedSession> {
  const { db } = ports;
  const user = await userProfile({ db, userId: input.userId, tenantId: input.tenantId });
  if (!user) throw new AppError(AppErrorCode.USER_NOT_FOUND);
  const { token, session } = await createSession({
    db,
    tenantId: input.tenantId,
    subjectKind: 'user',
    subjectId: input.userId,
    userAgent: input.userAgent,
    ip: input.ip,
  });
  await recordAudit(db, {
    tenantId: input.tenantId,
    actorKind: 'user',
    actorId: input.userId,
    action: 'user.signin',
    ip: input.ip,
  });
  return { token, session, user, country: await userCountry(db, input.userId) };
}

/**
 * Whether the HTTP layer's session cookies get the Secure flag: COOKIE_SECURE when set, else when
 * the call came over HTTPS. Typed by what it reads, so the module needs nothing of the HTTP layer.
 */
export const secureCookies = (ctx: {
  services: { config: { COOKIE_SECURE?: boolean | undefined } };
  request: { protocol: string };
}) => ctx.services.config.COOKIE_SECURE ?? ctx.request.protocol === 'https';

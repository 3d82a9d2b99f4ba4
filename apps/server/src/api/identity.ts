import { staffActor, userActor } from '../actor';
import { COOKIE, type TCallContext, type TServices } from '../http/context';
import { clearSessionCookies, setSessionCookies } from '../http/cookies';
import {
  openUserSession,
  secureCookies,
  signOut,
  type TCodePorts,
  type TIdentityPorts,
  type TMessagePorts,
  type TOidcPorts,
  type TOpenedSession,
  type TQrPorts,
} from '../modules/identity';

/*
 * What the trader's identity handlers share (auth, account, the OpenID Connect callback): the
 * identity use cases' ports from the composed services, and the session cookies.
 */

/** The identity use cases' ports from the composed services. */
export const identityPorts = (ctx: TCallContext): TIdentityPorts => ({ db: ctx.services.database.db });

/** Ports of the use cases that check a one-time code. */
export const codePorts = (ctx: TCallContext): TCodePorts => ({
  db: ctx.services.database.db,
  limiter: ctx.services.rateLimiter,
});

/** Ports of the use case that sends a code (mail, text message, and the request's log). */
export const messagePorts = (ctx: TCallContext): TMessagePorts => ({
  ...codePorts(ctx),
  mailer: ctx.services.mailer,
  sms: ctx.services.sms,
  log: ctx.request.log,
});

/** Ports of QR sign-in. */
export const qrPorts = (ctx: TCallContext): TQrPorts => ({
  ...identityPorts(ctx),
  qrLogin: ctx.services.qrLogin,
});

/** The OpenID Connect use cases' ports; plain-HTTP issuers are allowed outside production. */
export const oidcPorts = (services: TServices, log: TOidcPorts['log']): TOidcPorts => ({
  db: services.database.db,
  sandbox: services.oidcSandbox,
  plainHttpIssuers: services.config.NODE_ENV !== 'production',
  log,
});

/** Who calls before anyone is signed in: the broker, the client's address and browser. */
export const anonymousCaller = (ctx: TCallContext) => ({
  tenantId: ctx.tenant.id,
  ip: ctx.ip,
  userAgent: ctx.userAgent,
});

/** Sets a new trader session's cookies and answers what the portal keeps of it. */
export function sessionAnswer(
  ctx: Pick<TCallContext, 'reply' | 'services' | 'request'>,
  opened: TOpenedSession,
) {
  setSessionCookies(ctx.reply, {
    token: opened.token,
    session: opened.session,
    secure: secureCookies(ctx),
    displayName: opened.user.name,
    country: opened.country,
  });
  return {
    csrfToken: opened.session.csrfToken,
    expiresAt: opened.session.absoluteExpiresAt.toISOString(),
    cipherKey: opened.session.cipherKey ?? undefined,
    user: opened.user,
  };
}

/** Opens a session for a trader who proved who they are (registration, code, hand-off, QR). */
export async function startUserSession(ctx: TCallContext, userId: string) {
  return sessionAnswer(ctx, await openUserSession(identityPorts(ctx), { ...anonymousCaller(ctx), userId }));
}

/** Ends the session of the cookie that came with the call, if it is live, and clears its cookies. */
export async function endSession(ctx: TCallContext, kind: 'user' | 'staff'): Promise<{ ok: true }> {
  const token = ctx.request.cookies[kind === 'user' ? COOKIE.userToken : COOKIE.staffToken];
  const session = kind === 'user' ? ctx.userSession : ctx.staffSession;
  if (token && session) {
    const who = { tenantId: ctx.tenant.id, ip: ctx.ip };
    const actor =
      kind === 'user'
        ? userActor({ ...who, userId: session.subjectId })
        : staffActor({ ...who, staffId: session.subjectId });
    await signOut(identityPorts(ctx), { actor, token });
  }
  clearSessionCookies(ctx.reply, kind);
  return { ok: true };
}

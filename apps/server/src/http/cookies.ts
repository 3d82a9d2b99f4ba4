import type { FastifyReply } from 'fastify';
import type { TSession } from '../modules/identity';
import { COOKIE } from './context';

function base(secure: boolean, expires: Date) {
  return { path: '/', sameSite: 'lax' as const, secure, expires };
}

/** Session cookie (HttpOnly) plus the readable CSRF cookie; traders also get the user-info cookie. */
export function setSessionCookies(
  reply: FastifyReply,
  {
    token,
    session,
    secure,
    displayName,
    country,
  }: {
    token: string;
    session: TSession;
    secure: boolean;
    displayName?: string;
    /** The trader's ISO numeric country ("156"), which the portal sends as CountryCode (spec 7). */
    country?: string | null;
  },
) {
  const expires = session.absoluteExpiresAt;
  if (session.subjectKind === 'user') {
    reply.setCookie(COOKIE.userToken, token, { ...base(secure, expires), httpOnly: true });
    reply.setCookie(COOKIE.userCsrf, session.csrfToken, base(secure, expires));
    reply.setCookie(COOKIE.userInfo, JSON.stringify({ name: displayName ?? '' }), base(secure, expires));
    if (country) reply.setCookie(COOKIE.country, country, base(secure, expires));
  } else {
    reply.setCookie(COOKIE.staffToken, token, { ...base(secure, expires), httpOnly: true });
    reply.setCookie(COOKIE.staffCsrf, session.csrfToken, base(secure, expires));
  }
}

export function clearSessionCookies(reply: FastifyReply, kind: 'user' | 'staff') {
  const names =
    kind === 'user'
      ? [COOKIE.userToken, COOKIE.userCsrf, COOKIE.userInfo, COOKIE.country]
      : [COOKIE.staffToken, COOKIE.staffCsrf];
  for (const name of names) reply.clearCookie(name, { path: '/' });
}

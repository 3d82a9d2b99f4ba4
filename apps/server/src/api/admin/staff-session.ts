import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TCallContext } from '../../http/context';
import { setSessionCookies } from '../../http/cookies';
import type { THandlers } from '../../http/gateway';
import {
  finishEnrolment,
  signInStaff,
  staffSession,
  startEnrolment,
  type TAccessPorts,
  type TSignedInStaff,
  type TStaffProfile,
  type TStaffSignedIn,
} from '../../modules/access';
import { secureCookies } from '../../modules/identity';
import { staffActorOf } from '../actors';

/** The HttpOnly cookie of a sign-in enrolment, sent only to the enrolment routes. */
const ENROL_COOKIE = 'admin_enrol';
const ENROL_PATH = '/api/v1/admin/auth/enrol';

/** The access use cases' ports from the composed services. */
export const accessPorts = (ctx: TCallContext): TAccessPorts => ({ db: ctx.services.database.db });

/** The signed-in staff member of a call as an actor, with the profile the gateway loaded. */
export function signedInStaff(ctx: TCallContext): TSignedInStaff {
  const actor = staffActorOf(ctx);
  return { actor, profile: ctx.staff as TStaffProfile };
}

/** Who calls before anyone is signed in: the broker, the client's address and browser. */
const caller = (ctx: TCallContext) => ({ tenantId: ctx.tenant.id, ip: ctx.ip, userAgent: ctx.userAgent });

/** Sets the new staff session's cookies and answers the back office's signed-in view. */
function openSession(ctx: TCallContext, signedIn: TStaffSignedIn) {
  setSessionCookies(ctx.reply, {
    token: signedIn.token,
    session: signedIn.session,
    secure: secureCookies(ctx),
  });
  return signedIn.answer;
}

const enrolmentToken = (ctx: TCallContext) => ctx.request.cookies[ENROL_COOKIE] ?? '';

/** Handlers of staff sign-in, sign-in enrolment and the signed-in member's view. */
export const staffSessionHandlers: Pick<
  THandlers,
  'adminlogin' | 'adminme' | 'adminenrolstart' | 'adminenrolconfirm'
> = {
  adminlogin: async (input, ctx) => {
    const result = await signInStaff(accessPorts(ctx), { ...input, ...caller(ctx) });
    if (result.status === 'enrol') {
      ctx.reply.setCookie(ENROL_COOKIE, result.enrolmentToken, {
        path: ENROL_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookies(ctx),
        expires: result.expiresAt,
      });
      throw new AppError(AppErrorCode.TWO_FACTOR_SETUP_REQUIRED);
    }
    return openSession(ctx, result);
  },
  adminme: async (_input, ctx) => ({
    ...(await staffSession(accessPorts(ctx), signedInStaff(ctx))),
    csrfToken: ctx.staffSession!.csrfToken,
  }),
  adminenrolstart: (_input, ctx) =>
    startEnrolment(accessPorts(ctx), {
      tenantId: ctx.tenant.id,
      issuer: ctx.tenant.name,
      token: enrolmentToken(ctx),
    }),
  adminenrolconfirm: async (input, ctx) => {
    const signedIn = await finishEnrolment(accessPorts(ctx), {
      ...caller(ctx),
      token: enrolmentToken(ctx),
      code: input.code,
    });
    ctx.reply.clearCookie(ENROL_COOKIE, { path: ENROL_PATH });
    return openSession(ctx, signedIn);
  },
};

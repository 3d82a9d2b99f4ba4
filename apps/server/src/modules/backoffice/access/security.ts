import type { TStaffSession } from '@broker/contracts/admin/access-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TCallContext } from '../../../http/context';
import { setSessionCookies } from '../../../http/cookies';
import { recordAudit } from '../../audit/audit';
import { secureCookies } from '../../identity/open-session';
import { hashPassword, verifyPassword } from '../../identity/passwords';
import { forgetSessions, type TSession } from '../../identity/sessions';
import {
  checkStaffPassword,
  confirmEnrolment,
  enrolmentSecret,
  newTotpSecret,
  readAccessSettings,
  staffOtpauthUrl,
  staffProfile,
  staffSignIn,
  type TStaffProfile,
} from '../../identity/staff';
import { totpMatches } from '../../identity/totp';
import { applyPackage } from '../audit/packages';
import { actorOf } from './common';
import { staffMenu } from './menus';

/** The HttpOnly cookie of a sign-in enrolment, sent only to the enrolment routes. */
const ENROL_COOKIE = 'admin_enrol';
const ENROL_PATH = '/api/v1/admin/auth/enrol';

/** The staff member as the back office keeps it: profile plus the broker's arranged menu. */
export async function staffSession(ctx: TCallContext, profile: TStaffProfile): Promise<TStaffSession> {
  return { ...profile, menu: await staffMenu(ctx.services.database.db, ctx.tenant.id, profile.permissions) };
}

async function signedInAnswer(
  ctx: TCallContext,
  opened: { token: string; session: TSession; staffId: string },
) {
  const profile = await staffProfile({
    db: ctx.services.database.db,
    staffId: opened.staffId,
    tenantId: ctx.tenant.id,
  });
  if (!profile) throw new AppError(AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG);
  // Modules outside the broker's package leave the menu from the first answer on.
  await applyPackage({
    db: ctx.services.database.db,
    tenantId: ctx.tenant.id,
    staff: profile,
    permission: null,
  });
  setSessionCookies(ctx.reply, { token: opened.token, session: opened.session, secure: secureCookies(ctx) });
  return {
    csrfToken: opened.session.csrfToken,
    expiresAt: opened.session.absoluteExpiresAt.toISOString(),
    staff: await staffSession(ctx, profile),
  };
}

/**
 * Staff sign-in. Staff who must have two-factor but have not set it up get -6007 with a short-lived
 * enrolment cookie; the back office then shows the secret and confirms a code before any session exists.
 */
export async function signInStaff(
  ctx: TCallContext,
  input: { username: string; password: string; otp?: string | undefined },
) {
  const result = await staffSignIn({
    db: ctx.services.database.db,
    tenantId: ctx.tenant.id,
    username: input.username,
    password: input.password,
    otp: input.otp,
    userAgent: ctx.userAgent,
    ip: ctx.ip,
  });
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
  return signedInAnswer(ctx, result);
}

const enrolmentToken = (ctx: TCallContext) => ctx.request.cookies[ENROL_COOKIE] ?? '';

export async function startEnrolment(ctx: TCallContext) {
  return enrolmentSecret({
    db: ctx.services.database.db,
    tenantId: ctx.tenant.id,
    issuer: ctx.tenant.name,
    token: enrolmentToken(ctx),
  });
}

export async function finishEnrolment(ctx: TCallContext, code: string) {
  const opened = await confirmEnrolment({
    db: ctx.services.database.db,
    tenantId: ctx.tenant.id,
    token: enrolmentToken(ctx),
    code,
    userAgent: ctx.userAgent,
    ip: ctx.ip,
  });
  ctx.reply.clearCookie(ENROL_COOKIE, { path: ENROL_PATH });
  return signedInAnswer(ctx, opened);
}

export async function mySecurity(ctx: TCallContext) {
  const actor = actorOf(ctx);
  const settings = await readAccessSettings(ctx.services.database.db, ctx.tenant.id);
  return {
    twoFactor: actor.twoFactor,
    twoFactorRequired: actor.twoFactorRequired,
    passwordMinLength: settings.passwordMinLength,
  };
}

async function ownRow(ctx: TCallContext) {
  return ctx.services.database.db
    .selectFrom('staff')
    .select(['id', 'username', 'password_hash', 'totp_secret', 'totp_pending_secret'])
    .where('tenant_id', '=', ctx.tenant.id)
    .where('id', '=', actorOf(ctx).staffId)
    .executeTakeFirstOrThrow();
}

const auditSelf = (ctx: TCallContext, action: string) =>
  recordAudit(ctx.services.database.db, {
    tenantId: ctx.tenant.id,
    actorKind: 'staff',
    actorId: actorOf(ctx).staffId,
    action,
    target: actorOf(ctx).staffId,
    ip: ctx.ip,
  });

/** Starts turning two-factor on: a new secret, pending until a code from the app confirms it. */
export async function beginMyTotp(ctx: TCallContext) {
  const row = await ownRow(ctx);
  const secret = newTotpSecret();
  await ctx.services.database.db
    .updateTable('staff')
    .set({ totp_pending_secret: secret })
    .where('id', '=', row.id)
    .execute();
  return { secret, otpauthUrl: staffOtpauthUrl(secret, row.username, ctx.tenant.name) };
}

export async function enableMyTotp(ctx: TCallContext, code: string) {
  const row = await ownRow(ctx);
  if (!row.totp_pending_secret || !totpMatches(row.totp_pending_secret, code))
    throw new AppError(AppErrorCode.TWO_FACTOR_WRONG);
  await ctx.services.database.db
    .updateTable('staff')
    .set({ totp_secret: row.totp_pending_secret, totp_pending_secret: null })
    .where('id', '=', row.id)
    .execute();
  await auditSelf(ctx, 'staff.2fa.enable');
  return { twoFactor: true };
}

/** Turns two-factor off with a current code; refused (-6007) while the staff member's roles need it. */
export async function disableMyTotp(ctx: TCallContext, code: string) {
  if (actorOf(ctx).twoFactorRequired) throw new AppError(AppErrorCode.TWO_FACTOR_SETUP_REQUIRED);
  const row = await ownRow(ctx);
  if (!row.totp_secret || !totpMatches(row.totp_secret, code))
    throw new AppError(AppErrorCode.TWO_FACTOR_WRONG);
  await ctx.services.database.db
    .updateTable('staff')
    .set({ totp_secret: null, totp_pending_secret: null })
    .where('id', '=', row.id)
    .execute();
  await auditSelf(ctx, 'staff.2fa.disable');
  return { twoFactor: false };
}

/** Changes one's own password (the broker's minimum applies); every other session of theirs ends. */
export async function changeMyPassword(ctx: TCallContext, input: { oldPassword: string; password: string }) {
  const db = ctx.services.database.db;
  const row = await ownRow(ctx);
  if (!(await verifyPassword(row.password_hash, input.oldPassword)))
    throw AppError.invalid({ oldPassword: 'oldPasswordWrong' });
  if (input.oldPassword === input.password) throw AppError.invalid({ password: 'passwordSameAsOld' });
  checkStaffPassword(input.password, await readAccessSettings(db, ctx.tenant.id));
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff')
      .set({ password_hash: passwordHash, password_changed_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    await trx
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('tenant_id', '=', ctx.tenant.id)
      .where('subject_kind', '=', 'staff')
      .where('subject_id', '=', row.id)
      .where('token_hash', '!=', ctx.staffSession?.tokenHash ?? '')
      .where('revoked_at', 'is', null)
      .execute();
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: row.id,
      action: 'staff.password.change',
      target: row.id,
      ip: ctx.ip,
    });
  });
  forgetSessions();
  return { ok: true as const };
}

import type { TStaffSession } from '@broker/contracts/admin/access-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { applyPackage } from '../../entitlements';
import {
  clearAttempts,
  forgetSessions,
  hashPassword,
  revokeStaffSessions,
  type TSession,
  takeAttempt,
  totpStep,
  useTotpCode,
  verifyPassword,
  wrongCredential,
} from '../../identity';
import { auditAccess, type TAccessPorts, type TSignedInStaff } from '../common';
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
} from '../staff';
import { staffMenu } from './menus';

/** A call made before anyone is signed in: the broker it came to, the client's address and browser. */
interface TSignInCaller {
  tenantId: string;
  ip: string | null;
  userAgent: string | null;
}

/** A new staff session: the HTTP layer sets its cookies from `token` and `session` and answers `answer`. */
export interface TStaffSignedIn {
  token: string;
  session: TSession;
  answer: { csrfToken: string; expiresAt: string; staff: TStaffSession };
}

/** A sign-in: a new session, or (two-factor required but not set up) an enrolment to finish first. */
export type TStaffSignInResult =
  | ({ status: 'signedIn' } & TStaffSignedIn)
  | { status: 'enrol'; enrolmentToken: string; expiresAt: Date };

const sessionView = async (db: TDb, tenantId: string, profile: TStaffProfile): Promise<TStaffSession> => ({
  ...profile,
  menu: await staffMenu(db, tenantId, profile.permissions),
});

/** The staff member as the back office keeps it: profile plus the broker's arranged menu. */
export function staffSession(
  { db }: TAccessPorts,
  { actor, profile }: TSignedInStaff,
): Promise<TStaffSession> {
  return sessionView(db, actor.tenantId, profile);
}

async function signedIn(
  db: TDb,
  tenantId: string,
  opened: { token: string; session: TSession; staffId: string },
): Promise<TStaffSignedIn> {
  const profile = await staffProfile({ db, staffId: opened.staffId, tenantId });
  if (!profile) throw new AppError(AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG);
  // Modules outside the broker's package leave the menu from the first answer on.
  await applyPackage({ db, tenantId, staff: profile, permission: null });
  return {
    token: opened.token,
    session: opened.session,
    answer: {
      csrfToken: opened.session.csrfToken,
      expiresAt: opened.session.absoluteExpiresAt.toISOString(),
      staff: await sessionView(db, tenantId, profile),
    },
  };
}

/**
 * Staff sign-in. Staff who must have two-factor but have not set it up get an enrolment instead of a
 * session (the HTTP layer answers -6007 with a short-lived enrolment cookie); the back office then
 * shows the secret and confirms a code before any session exists.
 */
export async function signInStaff(
  { db }: TAccessPorts,
  input: TSignInCaller & { username: string; password: string; otp?: string | undefined },
): Promise<TStaffSignInResult> {
  const result = await staffSignIn({
    db,
    tenantId: input.tenantId,
    username: input.username,
    password: input.password,
    otp: input.otp,
    userAgent: input.userAgent,
    ip: input.ip,
  });
  if (result.status === 'enrol') return result;
  return { status: 'signedIn', ...(await signedIn(db, input.tenantId, result)) };
}

/** The secret of a sign-in enrolment (`token`: the enrolment cookie), issued in the broker's name. */
export function startEnrolment(
  { db }: TAccessPorts,
  input: { tenantId: string; issuer: string; token: string },
) {
  return enrolmentSecret({ db, ...input });
}

/** Confirms a sign-in enrolment with a code from the app: two-factor is on and the session opens. */
export async function finishEnrolment(
  { db }: TAccessPorts,
  input: TSignInCaller & { token: string; code: string },
): Promise<TStaffSignedIn> {
  const opened = await confirmEnrolment({
    db,
    tenantId: input.tenantId,
    token: input.token,
    code: input.code,
    userAgent: input.userAgent,
    ip: input.ip,
  });
  return signedIn(db, input.tenantId, opened);
}

export async function mySecurity({ db }: TAccessPorts, { actor, profile }: TSignedInStaff) {
  const settings = await readAccessSettings(db, actor.tenantId);
  return {
    twoFactor: profile.twoFactor,
    twoFactorRequired: profile.twoFactorRequired,
    passwordMinLength: settings.passwordMinLength,
  };
}

async function ownRow(db: TDb, actor: TActor) {
  return db
    .selectFrom('staff')
    .select(['id', 'username', 'password_hash', 'totp_secret', 'totp_pending_secret'])
    .where('tenant_id', '=', actor.tenantId)
    .where('id', '=', actor.id)
    .executeTakeFirstOrThrow();
}

const auditSelf = (db: TDb, actor: TActor, action: string) => auditAccess(db, actor, action, actor.id, {});

/**
 * Starts turning two-factor on: a new secret, pending until a code from the app confirms it
 * (`issuer`: the broker's name, shown in the app).
 */
export async function beginMyTotp(
  { db }: TAccessPorts,
  { actor, issuer }: { actor: TActor; issuer: string },
) {
  const row = await ownRow(db, actor);
  const secret = newTotpSecret();
  await db.updateTable('staff').set({ totp_pending_secret: secret }).where('id', '=', row.id).execute();
  return { secret, otpauthUrl: staffOtpauthUrl(secret, row.username, issuer) };
}

export async function enableMyTotp({ db }: TAccessPorts, { actor, code }: { actor: TActor; code: string }) {
  const row = await ownRow(db, actor);
  const step = row.totp_pending_secret ? totpStep(row.totp_pending_secret, code) : null;
  if (step === null) throw new AppError(AppErrorCode.TWO_FACTOR_WRONG);
  await db
    .updateTable('staff')
    // The confirming code is used: it cannot also sign in within its window.
    .set({ totp_secret: row.totp_pending_secret, totp_pending_secret: null, totp_last_step: step })
    .where('id', '=', row.id)
    .execute();
  await auditSelf(db, actor, 'staff.2fa.enable');
  return { twoFactor: true };
}

/** Turns two-factor off with a current code; refused (-6007) while the staff member's roles need it. */
export async function disableMyTotp(
  { db }: TAccessPorts,
  { actor, profile, code }: TSignedInStaff & { code: string },
) {
  if (profile.twoFactorRequired) throw new AppError(AppErrorCode.TWO_FACTOR_SETUP_REQUIRED);
  const row = await ownRow(db, actor);
  // A code checked inside a session counts against the sign-in lockout like one at sign-in.
  const { attempts } = await takeAttempt({ db, table: 'staff', id: row.id });
  if (
    !row.totp_secret ||
    !(await useTotpCode({ db, table: 'staff', id: row.id, secret: row.totp_secret, code }))
  )
    throw wrongCredential(attempts, AppErrorCode.TWO_FACTOR_WRONG);
  await clearAttempts({ db, table: 'staff', id: row.id });
  await db
    .updateTable('staff')
    .set({ totp_secret: null, totp_pending_secret: null })
    .where('id', '=', row.id)
    .execute();
  await auditSelf(db, actor, 'staff.2fa.disable');
  return { twoFactor: false };
}

/**
 * Changes one's own password (the broker's minimum applies); every other session of theirs ends
 * (`currentSession`: the token hash of the session making the call, which stays).
 */
export async function changeMyPassword(
  { db }: TAccessPorts,
  {
    actor,
    currentSession,
    ...input
  }: { actor: TActor; currentSession: string | null; oldPassword: string; password: string },
) {
  const row = await ownRow(db, actor);
  // The old password is a credential check: counted against the sign-in lockout first.
  const { attempts } = await takeAttempt({ db, table: 'staff', id: row.id });
  if (!(await verifyPassword(row.password_hash, input.oldPassword)))
    throw wrongCredential(attempts, AppError.invalid({ oldPassword: 'oldPasswordWrong' }));
  await clearAttempts({ db, table: 'staff', id: row.id });
  if (input.oldPassword === input.password) throw AppError.invalid({ password: 'passwordSameAsOld' });
  checkStaffPassword(input.password, await readAccessSettings(db, actor.tenantId));
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff')
      .set({ password_hash: passwordHash, password_changed_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    await revokeStaffSessions(
      { db: trx },
      { tenantId: actor.tenantId, staffId: row.id, keep: currentSession },
    );
    await auditAccess(trx, actor, 'staff.password.change', row.id, {});
  });
  forgetSessions();
  return { ok: true as const };
}

import { ALL_PERMISSIONS, BROKER_PERMISSIONS, MONEY_PERMISSIONS } from '@broker/contracts/permissions';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { STAFF_PASSWORD_MIN_LENGTH } from '@broker/domain/staff-credentials';
import { Secret, TOTP } from 'otpauth';
import type { TDb } from '../../db/database';
import { newId, newToken, sha256 } from '../../ids';
import { recordAudit } from '../audit';
import {
  checkCredentials,
  createSession,
  hashPassword,
  refuseUnknownLogin,
  type TSession,
  totpStep,
} from '../identity';
import { tenantStatus } from '../tenancy';

export interface TStaffProfile {
  staffId: string;
  username: string;
  displayName: string;
  tenantId: string;
  roles: string[];
  /**
   * Effective permissions: the staff member's roles and every parent role above them, limited to
   * what the broker may grant. While two-factor is required but off, money permissions are held back.
   */
  permissions: string[];
  /** Every permission the roles give, held back or not: the bound for what this member may grant. */
  rolePermissions: string[];
  twoFactor: boolean;
  /** The roles move money and the broker requires two-factor sign-in for that. */
  twoFactorRequired: boolean;
}

/** What a broker's roles can grant: the platform operator (default broker) also manages brokers. */
export const grantablePermissions = (isDefaultTenant: boolean): readonly string[] =>
  isDefaultTenant ? ALL_PERMISSIONS : BROKER_PERMISSIONS;

export const movesMoney = (permissions: readonly string[]): boolean =>
  permissions.some((p) => MONEY_PERMISSIONS.includes(p));

export interface TRoleNode {
  id: string;
  name: string;
  parent_id: string | null;
  permissions: string[];
  is_system: boolean;
}

/**
 * Each role's effective permissions: its own (a system role: every grantable one) and those of every
 * parent above it, limited to `grantable`. The single place that resolves inheritance.
 */
export function effectivePermissions(
  roles: readonly TRoleNode[],
  grantable: readonly string[],
): Map<string, string[]> {
  const byId = new Map(roles.map((r) => [r.id, r]));
  const allowed = new Set(grantable);
  const result = new Map<string, string[]>();
  for (const start of roles) {
    const permissions = new Set<string>();
    const seen = new Set<string>();
    let role: TRoleNode | undefined = start;
    while (role && !seen.has(role.id)) {
      seen.add(role.id);
      for (const p of role.is_system ? grantable : role.permissions) if (allowed.has(p)) permissions.add(p);
      role = role.parent_id ? byId.get(role.parent_id) : undefined;
    }
    result.set(start.id, [...permissions].sort());
  }
  return result;
}

export async function loadRoles(db: TDb, tenantId: string): Promise<TRoleNode[]> {
  return db
    .selectFrom('roles')
    .select(['id', 'name', 'parent_id', 'permissions', 'is_system'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('name')
    .execute();
}

export interface TAccessSettingsValues {
  passwordMinLength: number;
  moneyTwoFactor: boolean;
}

/** A broker without a settings row: 8 characters at least, two-factor for money permissions. */
export const DEFAULT_ACCESS_SETTINGS: TAccessSettingsValues = { passwordMinLength: 8, moneyTwoFactor: true };

export async function readAccessSettings(db: TDb, tenantId: string): Promise<TAccessSettingsValues> {
  const row = await db
    .selectFrom('access_settings')
    .select(['password_min_length', 'money_two_factor'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row
    ? { passwordMinLength: row.password_min_length, moneyTwoFactor: row.money_two_factor }
    : DEFAULT_ACCESS_SETTINGS;
}

/** Writes a broker's settings row unless it has one. */
export async function ensureAccessSettings({
  db,
  tenantId,
  settings = DEFAULT_ACCESS_SETTINGS,
}: {
  db: TDb;
  tenantId: string;
  settings?: TAccessSettingsValues;
}): Promise<void> {
  await db
    .insertInto('access_settings')
    .values({
      tenant_id: tenantId,
      password_min_length: settings.passwordMinLength,
      money_two_factor: settings.moneyTwoFactor,
    })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute();
}

/** Refuses (-6006) a staff password shorter than the product's 5 or the broker's own minimum. */
export function checkStaffPassword(password: string, settings: TAccessSettingsValues): void {
  const min = Math.max(STAFF_PASSWORD_MIN_LENGTH, settings.passwordMinLength);
  if ([...password].length < min) throw new AppError(AppErrorCode.PASSWORD_TOO_WEAK, { min });
}

/** A staff member with the permissions of their roles and every parent role above them. */
export async function staffProfile({
  db,
  staffId,
  tenantId,
}: {
  db: TDb;
  staffId: string;
  tenantId: string;
}): Promise<TStaffProfile | null> {
  const [staff, tenant] = await Promise.all([
    db
      .selectFrom('staff')
      .leftJoin('access_settings', 'access_settings.tenant_id', 'staff.tenant_id')
      .select([
        'staff.id',
        'staff.username',
        'staff.display_name',
        'staff.tenant_id',
        'staff.status',
        'staff.totp_secret',
        'access_settings.money_two_factor',
      ])
      .where('staff.id', '=', staffId)
      .where('staff.tenant_id', '=', tenantId)
      .executeTakeFirst(),
    tenantStatus(db, tenantId),
  ]);
  if (staff?.status !== 'active' || tenant?.status !== 'active') return null;
  const roles = await loadRoles(db, tenantId);
  const effective = effectivePermissions(roles, grantablePermissions(tenant.isDefault));
  const assigned = await db
    .selectFrom('staff_roles')
    .select('role_id')
    .where('staff_id', '=', staffId)
    .execute();
  const assignedIds = new Set(assigned.map((a) => a.role_id));
  const permissions = new Set<string>();
  const names: string[] = [];
  for (const role of roles) {
    if (!assignedIds.has(role.id)) continue;
    names.push(role.name);
    for (const p of effective.get(role.id) ?? []) permissions.add(p);
  }
  const all = [...permissions].sort();
  const twoFactor = staff.totp_secret !== null;
  const twoFactorRequired =
    (staff.money_two_factor ?? DEFAULT_ACCESS_SETTINGS.moneyTwoFactor) && movesMoney(all);
  return {
    staffId: staff.id,
    username: staff.username,
    displayName: staff.display_name,
    tenantId: staff.tenant_id,
    roles: names,
    permissions: twoFactorRequired && !twoFactor ? all.filter((p) => !MONEY_PERMISSIONS.includes(p)) : all,
    rolePermissions: all,
    twoFactor,
    twoFactorRequired,
  };
}

export const SYSTEM_ROLE_NAME = 'Administrator';

/** The broker's system role (every grantable permission), created when missing. */
export async function ensureSystemRole(db: TDb, tenantId: string): Promise<string> {
  const existing = await db
    .selectFrom('roles')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_system', '=', true)
    .executeTakeFirst();
  if (existing) return existing.id;
  const id = newId();
  await db
    .insertInto('roles')
    .values({
      id,
      tenant_id: tenantId,
      name: SYSTEM_ROLE_NAME,
      parent_id: null,
      permissions: [],
      is_system: true,
      description: '',
    })
    .execute();
  return id;
}

/**
 * Creates the broker's administrator (holding the system role) when the broker has no staff yet.
 * Inside a transaction (`db.isTransaction`) it writes there; otherwise in its own.
 */
export async function ensureAdministrator({
  db,
  tenantId,
  username,
  password,
  displayName = 'Administrator',
}: {
  db: TDb;
  tenantId: string;
  username: string;
  password: string;
  displayName?: string;
}): Promise<boolean> {
  const existing = await db
    .selectFrom('staff')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (existing) return false;
  const staffId = newId();
  const passwordHash = await hashPassword(password);
  const write = async (trx: TDb) => {
    const roleId = await ensureSystemRole(trx, tenantId);
    await trx
      .insertInto('staff')
      .values({
        id: staffId,
        tenant_id: tenantId,
        username,
        password_hash: passwordHash,
        display_name: displayName,
        locked_until: null,
      })
      .execute();
    await trx.insertInto('staff_roles').values({ staff_id: staffId, role_id: roleId }).execute();
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
  return true;
}

const ENROLMENT_MINUTES = 10;
const ENROLMENT_MAX_ATTEMPTS = 5;

/** The otpauth:// address of a staff secret, for the authenticator app's QR code. */
export function staffOtpauthUrl(secret: string, username: string, issuer: string): string {
  return new TOTP({
    issuer,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  }).toString();
}

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

export type TStaffSignIn =
  | { status: 'signedIn'; token: string; session: TSession; staffId: string }
  /** The password is right but two-factor must be set up first: a short-lived enrolment. */
  | { status: 'enrol'; enrolmentToken: string; expiresAt: Date };

/**
 * Staff sign-in: password with lockout after repeated failures (an unknown username costs the same
 * and answers the same), then the authenticator code when two-factor is on (-1016 asks for it and
 * does not count as a failure; a wrong one does, -1017). Staff who must have two-factor but have not
 * set it up get an enrolment instead of a session.
 */
export async function staffSignIn({
  db,
  tenantId,
  username,
  password,
  otp,
  userAgent,
  ip,
  now = new Date(),
}: {
  db: TDb;
  tenantId: string;
  username: string;
  password: string;
  otp: string | undefined;
  userAgent: string | null;
  ip: string | null;
  now?: Date;
}): Promise<TStaffSignIn> {
  const row = await db
    .selectFrom('staff')
    .select(['id', 'password_hash', 'status', 'totp_secret'])
    .where('username', '=', username)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) return refuseUnknownLogin({ db, tenantId, subjectKind: 'staff', login: username, password, ip });
  await checkCredentials({ db, tenantId, subjectKind: 'staff', row, password, otp, ip });
  if (!row.totp_secret) {
    const profile = await staffProfile({ db, staffId: row.id, tenantId });
    if (!profile) throw new AppError(AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG);
    if (profile.twoFactorRequired) {
      const enrolmentToken = newToken();
      const expiresAt = new Date(now.getTime() + ENROLMENT_MINUTES * 60_000);
      await db.deleteFrom('staff_enrolments').where('staff_id', '=', row.id).execute();
      await db
        .insertInto('staff_enrolments')
        .values({
          token_hash: sha256(enrolmentToken),
          tenant_id: tenantId,
          staff_id: row.id,
          secret: newTotpSecret(),
          expires_at: expiresAt,
        })
        .execute();
      await recordAudit(db, {
        tenantId,
        actorKind: 'staff',
        actorId: row.id,
        action: 'staff.2fa.enrolment',
        ip,
      });
      return { status: 'enrol', enrolmentToken, expiresAt };
    }
  }
  return {
    status: 'signedIn',
    staffId: row.id,
    ...(await openStaffSession({ db, tenantId, staffId: row.id, userAgent, ip, now })),
  };
}

/** A new staff session after a complete sign-in; notes the time as the last sign-in. */
async function openStaffSession({
  db,
  tenantId,
  staffId,
  userAgent,
  ip,
  now,
}: {
  db: TDb;
  tenantId: string;
  staffId: string;
  userAgent: string | null;
  ip: string | null;
  now: Date;
}): Promise<{ token: string; session: TSession }> {
  const opened = await createSession({
    db,
    tenantId,
    subjectKind: 'staff',
    subjectId: staffId,
    userAgent,
    ip,
    now,
  });
  await db.updateTable('staff').set({ last_sign_in_at: now }).where('id', '=', staffId).execute();
  await recordAudit(db, { tenantId, actorKind: 'staff', actorId: staffId, action: 'staff.signin', ip });
  return opened;
}

async function liveEnrolment(db: TDb, tenantId: string, token: string, now: Date) {
  if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return null;
  return (
    (await db
      .selectFrom('staff_enrolments')
      .innerJoin('staff', 'staff.id', 'staff_enrolments.staff_id')
      .select([
        'staff_enrolments.token_hash',
        'staff_enrolments.staff_id',
        'staff_enrolments.secret',
        'staff_enrolments.attempts',
        'staff_enrolments.expires_at',
        'staff.username',
      ])
      .where('staff_enrolments.token_hash', '=', sha256(token))
      .where('staff_enrolments.tenant_id', '=', tenantId)
      .where('staff_enrolments.expires_at', '>', now)
      .executeTakeFirst()) ?? null
  );
}

/** The secret to set up in the authenticator app during a sign-in enrolment. */
export async function enrolmentSecret({
  db,
  tenantId,
  issuer,
  token,
  now = new Date(),
}: {
  db: TDb;
  tenantId: string;
  issuer: string;
  token: string;
  now?: Date;
}) {
  const enrolment = await liveEnrolment(db, tenantId, token, now);
  if (!enrolment) throw new AppError(AppErrorCode.TOKEN_INVALID);
  return {
    username: enrolment.username,
    secret: enrolment.secret,
    otpauthUrl: staffOtpauthUrl(enrolment.secret, enrolment.username, issuer),
    expiresAt: enrolment.expires_at.toISOString(),
  };
}

/**
 * Finishes a sign-in enrolment: a right code turns two-factor on and opens the session; five wrong
 * codes end the enrolment (the sign-in starts over).
 */
export async function confirmEnrolment({
  db,
  tenantId,
  token,
  code,
  userAgent,
  ip,
  now = new Date(),
}: {
  db: TDb;
  tenantId: string;
  token: string;
  code: string;
  userAgent: string | null;
  ip: string | null;
  now?: Date;
}): Promise<{ token: string; session: TSession; staffId: string }> {
  const enrolment = await liveEnrolment(db, tenantId, token, now);
  if (!enrolment) throw new AppError(AppErrorCode.TOKEN_INVALID);
  // The attempt is counted before the code is checked, in one statement: parallel guesses at one
  // enrolment get ENROLMENT_MAX_ATTEMPTS checks in all.
  const counted = await db
    .updateTable('staff_enrolments')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('token_hash', '=', enrolment.token_hash)
    .where('attempts', '<', ENROLMENT_MAX_ATTEMPTS)
    .returning('attempts')
    .executeTakeFirst();
  if (!counted) throw new AppError(AppErrorCode.TOKEN_INVALID);
  const step = totpStep(enrolment.secret, code, now.getTime());
  if (step === null) {
    if (counted.attempts >= ENROLMENT_MAX_ATTEMPTS)
      await db.deleteFrom('staff_enrolments').where('token_hash', '=', enrolment.token_hash).execute();
    throw new AppError(AppErrorCode.TWO_FACTOR_WRONG);
  }
  const staffId = enrolment.staff_id;
  if (!(await staffProfile({ db, staffId, tenantId }))) throw new AppError(AppErrorCode.TOKEN_INVALID);
  await db
    .updateTable('staff')
    // The code that confirmed the secret is used: it cannot sign in again within its window.
    .set({ totp_secret: enrolment.secret, totp_pending_secret: null, totp_last_step: step })
    .where('id', '=', staffId)
    .where('tenant_id', '=', tenantId)
    .execute();
  await db.deleteFrom('staff_enrolments').where('staff_id', '=', staffId).execute();
  await recordAudit(db, {
    tenantId,
    actorKind: 'staff',
    actorId: staffId,
    action: 'staff.2fa.enable',
    ip,
    details: { atSignIn: true },
  });
  return { staffId, ...(await openStaffSession({ db, tenantId, staffId, userAgent, ip, now })) };
}

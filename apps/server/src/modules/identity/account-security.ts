import type { TUserSettings } from '@broker/contracts/routes';
import { defaultKlineColor } from '@broker/domain/kline-color';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import countries from 'i18n-iso-countries';
import { sql } from 'kysely';
import { getCountryCallingCode, parsePhoneNumberWithError } from 'libphonenumber-js';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { recordAudit } from '../audit';
import { sessionRow } from './directory';
import { clearAttempts, takeAttempt, wrongCredential } from './lockout';
import { hashPassword, verifyPassword } from './passwords';
import type { TIdentityPorts } from './ports';
import { forgetSessions } from './sessions';

/** The token hash of the session the actor calls from ('' when it calls from none). */
const currentHashOf = (actor: TActor) => actor.session?.tokenHash ?? '';

/** The trader's live sessions (devices), the one of this call marked. */
export async function listSessions(ports: TIdentityPorts, { actor }: { actor: TActor }) {
  const userId = actor.id;
  const currentHash = currentHashOf(actor);
  const rows = await ports.db
    .selectFrom('sessions')
    .select(['token_hash', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
    .where('subject_kind', '=', 'user')
    .where('subject_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('idle_expires_at', '>', new Date())
    .where('absolute_expires_at', '>', new Date())
    .orderBy('last_seen_at', 'desc')
    .execute();
  return rows.map((r) => ({
    ...sessionRow(r),
    current: r.token_hash === currentHash,
  }));
}

/** Ends one of the trader's sessions (by the id `listSessions` shows), or all but the current one. */
export async function revokeSessions(
  ports: TIdentityPorts,
  { actor, id }: { actor: TActor; id: string | null },
): Promise<number> {
  return endUserSessions(ports.db, { userId: actor.id, currentHash: currentHashOf(actor), id });
}

/**
 * Ends a trader's sessions (one by its id prefix, or every one but `currentHash`); answers how many.
 * `db` may be a transaction of the caller's.
 */
async function endUserSessions(
  db: TDb,
  { userId, currentHash, id }: { userId: string; currentHash: string; id: string | null },
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('subject_kind', '=', 'user')
    .where('subject_id', '=', userId)
    .where('revoked_at', 'is', null);
  query = id ? query.where('token_hash', 'like', `${id}%`) : query.where('token_hash', '!=', currentHash);
  const result = await query.executeTakeFirst();
  forgetSessions(db);
  return Number(result.numUpdatedRows);
}

/**
 * A staff member's change of a trader's status in the back office: disabling ends every session of
 * the trader at once (sign-in, code sign-in and hand-offs refuse a disabled trader); enabling clears
 * a lockout. `ports.db` may be the caller's transaction (the customers module audits the change in
 * it); answers how many sessions ended.
 */
export async function setTraderStatus(
  ports: TIdentityPorts,
  { actor, userId, status }: { actor: TActor; userId: string; status: 'active' | 'disabled' },
): Promise<{ revokedSessions: number }> {
  await ports.db
    .updateTable('users')
    .set({
      status,
      ...(status === 'active' ? { failed_attempts: 0, locked_until: null } : {}),
    })
    .where('tenant_id', '=', actor.tenantId)
    .where('id', '=', userId)
    .execute();
  const revokedSessions =
    status === 'disabled' ? await endUserSessions(ports.db, { userId, currentHash: '', id: null }) : 0;
  return { revokedSessions };
}

/**
 * Ends every session of a trader for a staff member (a lost phone, a shared computer); `ports.db`
 * may be the caller's transaction. Answers how many sessions ended.
 */
export async function signOutTrader(
  ports: TIdentityPorts,
  { userId }: { actor: TActor; userId: string },
): Promise<number> {
  return endUserSessions(ports.db, { userId, currentHash: '', id: null });
}

/**
 * The trader changes their password: the old one is checked under the sign-in lockout, and every
 * session ends (the HTTP layer clears this call's cookies).
 */
export async function changePassword(
  ports: TIdentityPorts,
  { actor, oldPassword, password }: { actor: TActor; oldPassword: string; password: string },
): Promise<void> {
  const { db } = ports;
  const userId = actor.id;
  const user = await db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  // The old password is a credential check: counted against the sign-in lockout first.
  const { attempts } = await takeAttempt({ db, table: 'users', id: userId });
  if (!(await verifyPassword(user.password_hash, oldPassword)))
    throw wrongCredential(attempts, AppError.invalid({ oldPassword: 'oldPasswordWrong' }));
  await clearAttempts({ db, table: 'users', id: userId });
  if (oldPassword === password) throw AppError.invalid({ password: 'passwordSameAsOld' });
  await setPasswordEndingSessions({ db, userId, password });
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'user.password.change',
    ip: actor.ip,
  });
}

/** Stores a new password, clears any lockout and ends every session of the trader, in one transaction. */
export async function setPasswordEndingSessions({
  db,
  userId,
  password,
}: {
  db: TDb;
  userId: string;
  password: string;
}) {
  const hash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: hash, failed_attempts: 0, locked_until: null })
      .where('id', '=', userId)
      .execute();
    await trx
      .updateTable('sessions')
      .set({ revoked_at: sql<Date>`now()` })
      .where('subject_kind', '=', 'user')
      .where('subject_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  });
  forgetSessions(db);
}

/**
 * A country as spec 7.2 stores it, the ISO 3166 numeric code padded to three digits, from either
 * that form ("156") or the alpha-2 one ("CN"); undefined for a code no country has.
 */
export function numericCountry(code: string): string | undefined {
  if (/^\d{3}$/.test(code)) return countries.numericToAlpha2(code) ? code : undefined;
  return countries.alpha2ToNumeric(code)?.padStart(3, '0');
}

/** The trader's country for the portal's CountryCode header (spec 7), or null when unknown. */
export async function userCountry(db: TDb, userId: string): Promise<string | null> {
  const user = await db
    .selectFrom('users')
    .select(['country_code', 'phone'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user ? countryOf(user) : null;
}

/** ISO numeric country of a trader: the stored one, else the country of their phone number. */
function countryOf(user: { country_code: string | null; phone: string | null }): string | null {
  if (user.country_code) return user.country_code;
  if (!user.phone) return null;
  try {
    const region = parsePhoneNumberWithError(user.phone).country;
    if (region && getCountryCallingCode(region)) return countries.alpha2ToNumeric(region) ?? null;
  } catch {
    return null;
  }
  return null;
}

export function settingsWithDefaults(
  stored: unknown,
  user: { country_code: string | null; phone: string | null },
): TUserSettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Partial<TUserSettings>;
  return {
    notification: {
      createOrder: true,
      closeOrder: true,
      pendingOrder: true,
      ringsOpen: false,
      alertPush: true,
      alertEmail: true,
      ...s.notification,
    },
    klineColor: s.klineColor ?? defaultKlineColor(countryOf(user)),
    display: { floatLayer: true, currentOrder: true, positionCost: true, historyOrder: true, ...s.display },
    theme: s.theme ?? 'navy',
  };
}

/** The trader's settings (notifications, kline colour, display, theme), with the defaults filled in. */
export async function loadSettings(
  ports: TIdentityPorts,
  { actor }: { actor: TActor },
): Promise<TUserSettings> {
  return readSettings(ports.db, actor.id);
}

async function readSettings(db: TDb, userId: string): Promise<TUserSettings> {
  const user = await db
    .selectFrom('users')
    .select(['settings', 'country_code', 'phone'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new AppError(AppErrorCode.TOKEN_INVALID);
  return settingsWithDefaults(
    typeof user.settings === 'string' ? JSON.parse(user.settings) : user.settings,
    user,
  );
}

/** Changes some of the trader's settings; answers all of them. */
export async function saveSettings(
  ports: TIdentityPorts,
  {
    actor,
    ...patch
  }: { actor: TActor } & Partial<{
    notification: Partial<TUserSettings['notification']>;
    klineColor: 0 | 1;
    display: Partial<TUserSettings['display']>;
    theme: TUserSettings['theme'];
  }>,
): Promise<TUserSettings> {
  const userId = actor.id;
  // Read, merge and write under the row's lock: two patches sent at once (three switches clicked
  // quickly) must both survive, not the later one overwrite the earlier from a stale read.
  return ports.db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
    const current = await readSettings(trx, userId);
    const next: TUserSettings = {
      notification: { ...current.notification, ...patch.notification },
      klineColor: patch.klineColor ?? current.klineColor,
      display: { ...current.display, ...patch.display },
      theme: patch.theme ?? current.theme,
    };
    await trx
      .updateTable('users')
      .set({ settings: JSON.stringify(next) })
      .where('id', '=', userId)
      .execute();
    return next;
  });
}

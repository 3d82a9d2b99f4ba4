import type { TUserSettings } from '@broker/contracts/routes';
import { defaultKlineColor } from '@broker/domain/kline-color';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import countries from 'i18n-iso-countries';
import { sql } from 'kysely';
import { getCountryCallingCode, parsePhoneNumberWithError } from 'libphonenumber-js';
import type { TDb } from '../../db/database';
import { recordAudit } from '../audit/audit';
import { hashPassword, verifyPassword } from './passwords';
import { forgetSessions } from './sessions';

/** A short device label from a user agent: "Chrome on Windows", "Safari on iPhone". */
export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : /node|undici/i.test(userAgent)
              ? 'API client'
              : 'Browser';
  const os = /iPhone/.test(userAgent)
    ? 'iPhone'
    : /iPad/.test(userAgent)
      ? 'iPad'
      : /Android/.test(userAgent)
        ? 'Android'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Mac OS X/.test(userAgent)
            ? 'macOS'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : '';
  return os ? `${browser} on ${os}` : browser;
}

export async function listSessions({
  db,
  userId,
  currentHash,
}: {
  db: TDb;
  userId: string;
  currentHash: string;
}) {
  const rows = await db
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
    id: r.token_hash.slice(0, 12),
    device: deviceLabel(r.user_agent),
    ip: r.ip,
    createdAt: new Date(r.created_at).toISOString(),
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
    current: r.token_hash === currentHash,
  }));
}

export async function revokeSessions({
  db,
  userId,
  currentHash,
  id,
}: {
  db: TDb;
  userId: string;
  currentHash: string;
  id: string | null;
}): Promise<number> {
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

export async function changePassword({
  db,
  tenantId,
  userId,
  oldPassword,
  password,
  ip,
}: {
  db: TDb;
  tenantId: string;
  userId: string;
  oldPassword: string;
  password: string;
  ip: string;
}): Promise<void> {
  const user = await db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(user.password_hash, oldPassword)))
    throw AppError.invalid({ oldPassword: 'oldPasswordWrong' });
  if (oldPassword === password) throw AppError.invalid({ password: 'passwordSameAsOld' });
  await setPasswordEndingSessions({ db, userId, password });
  await recordAudit(db, { tenantId, actorKind: 'user', actorId: userId, action: 'user.password.change', ip });
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
      ...s.notification,
    },
    klineColor: s.klineColor ?? defaultKlineColor(countryOf(user)),
    display: { floatLayer: true, currentOrder: true, positionCost: true, historyOrder: true, ...s.display },
    theme: s.theme ?? 'navy',
  };
}

export async function loadSettings({ db, userId }: { db: TDb; userId: string }): Promise<TUserSettings> {
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

export async function saveSettings({
  db,
  userId,
  patch,
}: {
  db: TDb;
  userId: string;
  patch: Partial<{
    notification: Partial<TUserSettings['notification']>;
    klineColor: 0 | 1;
    display: Partial<TUserSettings['display']>;
    theme: TUserSettings['theme'];
  }>;
}): Promise<TUserSettings> {
  // Read, merge and write under the row's lock: two patches sent at once (three switches clicked
  // quickly) must both survive, not the later one overwrite the earlier from a stale read.
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
    const current = await loadSettings({ db: trx, userId });
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

import { deviceLabel } from '@broker/domain/identity/device-label';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';
import type { TKycStatus } from './schema';

/*
 * What other modules may ask about a broker's traders and their sessions (ADR 011): they read no
 * users or sessions table, they ask here. Lists ask once per page for the ids on it, never once
 * per row.
 */

/** Escapes LIKE wildcards so the text matches literally. */
const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Whether the trader signs in with a second factor (the secret itself stays here). */
const twoFactor = sql<boolean>`totp_secret is not null`.as('two_factor');

/**
 * The trader of this broker without their credentials, or "user not found" (another broker's ids
 * are not found either).
 */
export async function findUser(db: TDb, { tenantId, id }: { tenantId: string; id: string }) {
  const user = await db
    .selectFrom('users')
    .select([
      'id',
      'display_name',
      'nick',
      'email',
      'phone',
      'country_code',
      'status',
      'kyc_status',
      'created_at',
      'failed_attempts',
      'locked_until',
      twoFactor,
    ])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!user) throw new AppError(AppErrorCode.USER_NOT_FOUND);
  return user;
}

/** The names and contacts of the broker's traders among `ids` (a missing one is absent from the map). */
export async function userNames(
  db: TDb,
  { tenantId, ids }: { tenantId: string; ids: readonly string[] },
): Promise<Map<string, { name: string; email: string | null; phone: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'phone'])
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`id = any(${[...new Set(ids)]})`)
    .execute();
  return new Map(rows.map((r) => [r.id, { name: r.display_name, email: r.email, phone: r.phone }]));
}

/** The id of the broker's trader with this id, or with this email (in any case); undefined when none. */
export async function userIdByIdOrEmail(
  db: TDb,
  { tenantId, text }: { tenantId: string; text: string },
): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('id', '=', text), eb(eb.fn('lower', ['email']), '=', text.toLowerCase())]))
    .executeTakeFirst();
  return row?.id;
}

/** The ids of the broker's traders whose email or phone contains the text, in any case. */
export async function userIdsByContact(
  db: TDb,
  { tenantId, contains }: { tenantId: string; contains: string },
): Promise<string[]> {
  const pattern = `%${likeText(contains)}%`;
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('email', 'ilike', pattern), eb('phone', 'ilike', pattern)]))
    .execute();
  return rows.map((r) => r.id);
}

/** How many traders the broker has (any status): what its package's customer limit counts. */
export async function countUsers(db: TDb, { tenantId }: { tenantId: string }): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select(sql<string | number>`count(*)`.as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Most recent sign-in of each trader: the newest session they opened. */
const lastSignInOf = sql<Date | null>`(select max(s.created_at) from sessions s
  where s.subject_kind = 'user' and s.subject_id = u.id and s.tenant_id = u.tenant_id)`;

export interface TUserSearch {
  tenantId: string;
  /** Matches an id prefix, an email, display name or nickname containing it, or phone digits. */
  text: string;
  /** A trader who matches the text in another way (the owner of the account number searched). */
  orId: string | null;
  kyc?: TKycStatus | undefined;
  status?: 'active' | 'disabled' | undefined;
  sort: 'created' | 'lastSignIn' | 'name';
  direction: 'asc' | 'desc';
  page: number;
  size: number;
}

/** One page of the broker's traders matching the text and filters, sorted, and how many match. */
export async function searchUsers(db: TDb, input: TUserSearch) {
  const { text } = input;
  let query = db.selectFrom('users as u').where('u.tenant_id', '=', input.tenantId);
  if (input.kyc) query = query.where('u.kyc_status', '=', input.kyc);
  if (input.status) query = query.where('u.status', '=', input.status);
  if (text) {
    const contains = `%${likeText(text.toLowerCase())}%`;
    const digits = text.replace(/\D/g, '');
    const phoneLike = /^[\d\s+()-]+$/.test(text) && digits.length >= 4;
    const { orId } = input;
    query = query.where((eb) =>
      eb.or([
        eb('u.id', 'like', `${likeText(text.toLowerCase())}%`),
        eb(eb.fn('lower', ['u.email']), 'like', contains),
        eb('u.display_name', 'ilike', contains),
        eb('u.nick', 'ilike', contains),
        ...(phoneLike ? [eb('u.phone', 'like', `%${digits}%`)] : []),
        ...(orId ? [eb('u.id', '=', orId)] : []),
      ]),
    );
  }
  const direction = input.direction === 'asc' ? sql`asc` : sql`desc`;
  const order =
    input.sort === 'lastSignIn'
      ? sql`last_sign_in_at ${direction} nulls last, u.created_at desc`
      : input.sort === 'name'
        ? sql`lower(u.display_name) ${direction}, u.created_at desc`
        : sql`u.created_at ${direction}`;
  const [count, rows] = await Promise.all([
    query.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    query
      .select([
        'u.id',
        'u.display_name',
        'u.nick',
        'u.email',
        'u.phone',
        'u.country_code',
        'u.status',
        'u.kyc_status',
        twoFactor,
        'u.created_at',
        lastSignInOf.as('last_sign_in_at'),
      ])
      .orderBy(order)
      .orderBy('u.id')
      .limit(input.size)
      .offset((input.page - 1) * input.size)
      .execute(),
  ]);
  return { rows, total: Number(count.total) };
}

/** When the trader last signed in: the newest session they opened (null when none). */
export async function lastSignIn(
  db: TDb,
  { tenantId, userId }: { tenantId: string; userId: string },
): Promise<Date | null> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.max('created_at').as('at'))
    .where('tenant_id', '=', tenantId)
    .where('subject_kind', '=', 'user')
    .where('subject_id', '=', userId)
    .executeTakeFirst();
  return row?.at ?? null;
}

/** A session as the pages list it: a short id (never the token's whole hash), device, address, times. */
export const sessionRow = (r: {
  token_hash: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_seen_at: Date;
}) => ({
  id: r.token_hash.slice(0, 12),
  device: deviceLabel(r.user_agent),
  ip: r.ip,
  createdAt: new Date(r.created_at).toISOString(),
  lastSeenAt: new Date(r.last_seen_at).toISOString(),
});

/** A trader's sessions, most recently seen first: the live ones and the latest ended ones. */
export async function recentSessions(
  db: TDb,
  { tenantId, userId, limit }: { tenantId: string; userId: string; limit: number },
) {
  const rows = await db
    .selectFrom('sessions')
    .select(['token_hash', 'user_agent', 'ip', 'created_at', 'last_seen_at', 'revoked_at', 'idle_expires_at'])
    .select('absolute_expires_at')
    .where('tenant_id', '=', tenantId)
    .where('subject_kind', '=', 'user')
    .where('subject_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .limit(limit)
    .execute();
  const now = new Date();
  return rows.map((r) => ({
    ...sessionRow(r),
    state: r.revoked_at
      ? ('revoked' as const)
      : r.idle_expires_at <= now || r.absolute_expires_at <= now
        ? ('expired' as const)
        : ('active' as const),
  }));
}

import type { customersRoutes } from '@broker/contracts/admin/customers-routes';
import { maskEmail, maskPhone } from '@broker/domain/identity/credentials';
import countries from 'i18n-iso-countries';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { TCallContext } from '../../../http/context';

type TSearch = z.output<(typeof customersRoutes)['admincustomerlist']['input']>;

/** Escapes LIKE wildcards so the text matches literally. */
const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** ISO alpha-2 of the stored numeric country code ("156" -> "CN"). */
export const countryAlpha2 = (numeric: string | null) =>
  numeric ? (countries.numericToAlpha2(numeric) ?? null) : null;

/** Most recent sign-in of each trader: the newest session they opened. */
const lastSignIn = sql<Date | null>`(select max(s.created_at) from sessions s
  where s.subject_kind = 'user' and s.subject_id = u.id and s.tenant_id = u.tenant_id)`;

/**
 * The broker's customers matching the search text (id prefix, trading account number, email, phone
 * digits, display name or nickname) and filters, one page, sorted on the server.
 */
export async function searchCustomers(ctx: TCallContext, input: TSearch) {
  const db = ctx.services.database.db;
  const text = input.query.trim();
  let query = db.selectFrom('users as u').where('u.tenant_id', '=', ctx.tenant.id);
  if (input.kyc) query = query.where('u.kyc_status', '=', input.kyc);
  if (input.status) query = query.where('u.status', '=', input.status);
  if (text) {
    const contains = `%${likeText(text.toLowerCase())}%`;
    const digits = text.replace(/\D/g, '');
    const phoneLike = /^[\d\s+()-]+$/.test(text) && digits.length >= 4;
    const owner = /^\d{1,15}$/.test(text) ? ctx.services.engine.ownerOf(Number(text)) : undefined;
    const accountOwner = owner?.tenantId === ctx.tenant.id ? owner.userId : null;
    query = query.where((eb) =>
      eb.or([
        eb('u.id', 'like', `${likeText(text.toLowerCase())}%`),
        eb(eb.fn('lower', ['u.email']), 'like', contains),
        eb('u.display_name', 'ilike', contains),
        eb('u.nick', 'ilike', contains),
        ...(phoneLike ? [eb('u.phone', 'like', `%${digits}%`)] : []),
        ...(accountOwner ? [eb('u.id', '=', accountOwner)] : []),
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
        'u.totp_secret',
        'u.created_at',
        lastSignIn.as('last_sign_in_at'),
      ])
      .orderBy(order)
      .orderBy('u.id')
      .limit(input.size)
      .offset((input.page - 1) * input.size)
      .execute(),
  ]);
  const engine = ctx.services.engine;
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.display_name,
      nick: r.nick,
      email: r.email ? maskEmail(r.email) : null,
      phone: r.phone ? maskPhone(r.phone) : null,
      country: countryAlpha2(r.country_code),
      status: r.status,
      kyc: r.kyc_status,
      twoFactor: r.totp_secret !== null,
      createdAt: new Date(r.created_at).toISOString(),
      lastSignInAt: r.last_sign_in_at ? new Date(r.last_sign_in_at).toISOString() : null,
      accounts: engine
        .accountsOf(ctx.tenant.id, r.id)
        .filter((id) => engine.core.account(id)?.closed === false).length,
    })),
    total: Number(count.total),
    page: input.page,
    size: input.size,
  };
}

import type { customersRoutes } from '@broker/contracts/admin/customers-routes';
import { maskEmail, maskPhone } from '@broker/domain/identity/credentials';
import countries from 'i18n-iso-countries';
import type { z } from 'zod';
import type { TActor } from '../../actor';
import { searchUsers } from '../identity';
import type { TTradingPorts } from '../trading';

type TSearch = z.output<(typeof customersRoutes)['admincustomerlist']['input']>;

/** ISO alpha-2 of the stored numeric country code ("156" -> "CN"). */
export const countryAlpha2 = (numeric: string | null) =>
  numeric ? (countries.numericToAlpha2(numeric) ?? null) : null;

/**
 * The broker's customers matching the search text (id prefix, trading account number, email, phone
 * digits, display name or nickname) and filters, one page, sorted on the server. Identity searches
 * its traders; the account number is looked up in the engine here.
 */
export async function searchCustomers(
  ports: TTradingPorts,
  { actor, ...input }: TSearch & { actor: TActor },
) {
  const { db, host: engine } = ports;
  const text = input.query.trim();
  const owner = /^\d{1,15}$/.test(text) ? engine.ownerOf(Number(text)) : undefined;
  const { rows, total } = await searchUsers(db, {
    tenantId: actor.tenantId,
    text,
    orId: owner?.tenantId === actor.tenantId ? owner.userId : null,
    kyc: input.kyc,
    status: input.status,
    sort: input.sort,
    direction: input.direction,
    page: input.page,
    size: input.size,
  });
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
      twoFactor: r.two_factor,
      createdAt: new Date(r.created_at).toISOString(),
      lastSignInAt: r.last_sign_in_at ? new Date(r.last_sign_in_at).toISOString() : null,
      accounts: engine
        .accountsOf(actor.tenantId, r.id)
        .filter((id) => engine.core.account(id)?.closed === false).length,
    })),
    total,
    page: input.page,
    size: input.size,
  };
}

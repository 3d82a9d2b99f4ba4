import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import countries from 'i18n-iso-countries';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';
import type { TKycStatus } from './schema';

/**
 * Records the trader's KYC state (of the basic level) on the trader, where the back office's
 * customer search filters by it. The kyc module decides the state and calls this in the same
 * transaction (`db`); identity owns the users table.
 */
export async function setKycStatus(
  db: TDb,
  { tenantId, userId, status }: { tenantId: string; userId: string; status: TKycStatus },
): Promise<void> {
  const updated = await db
    .updateTable('users')
    .set({ kyc_status: status })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new AppError(AppErrorCode.USER_NOT_FOUND);
}

export interface TCustomerBrief {
  userId: string;
  name: string;
  email: string | null;
  /** ISO alpha-2, from the stored numeric code. */
  country: string | null;
  kyc: TKycStatus;
  createdAt: string;
}

/**
 * The broker's traders among `ids` as a reviewer sees them at a glance (the shape of the back
 * office's `ZCustomerBrief`); a missing id is absent from the map. One query per page.
 */
export async function customerBriefs(
  db: TDb,
  { tenantId, ids }: { tenantId: string; ids: readonly string[] },
): Promise<Map<string, TCustomerBrief>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'country_code', 'kyc_status', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`id = any(${[...new Set(ids)]})`)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        userId: r.id,
        name: r.display_name,
        email: r.email,
        country: r.country_code ? (countries.numericToAlpha2(r.country_code) ?? null) : null,
        kyc: r.kyc_status,
        createdAt: new Date(r.created_at).toISOString(),
      },
    ]),
  );
}

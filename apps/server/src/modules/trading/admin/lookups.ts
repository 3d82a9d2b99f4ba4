import { maskEmail } from '@broker/domain/identity/credentials';
import type { TDb } from '../../../db/database';
import { userNames } from '../../identity';
import { ensureDefaultGroup } from '../terms-sync';

/**
 * Names the risk pages show: customers and account groups, always of the caller's broker. Emails
 * are masked as on the customer list: the full contact is on the customer page, where each look is
 * recorded.
 */

export async function customerNames(
  db: TDb,
  tenantId: string,
  userIds: readonly string[],
): Promise<Map<string, { name: string; email: string }>> {
  const users = await userNames(db, { tenantId, ids: userIds });
  return new Map(
    [...users].map(([id, user]) => [id, { name: user.name, email: user.email ? maskEmail(user.email) : '' }]),
  );
}

/**
 * The group of each account (the broker's default group for an account without one) and the names
 * of the broker's groups.
 */
export async function groupsOf(
  db: TDb,
  tenantId: string,
  accountIds: readonly number[],
): Promise<{ accountGroup: Map<number, string>; names: Map<string, string> }> {
  const defaultId = await ensureDefaultGroup(db, tenantId);
  const groups = await db
    .selectFrom('account_groups')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const accountGroup = new Map<number, string>();
  if (accountIds.length > 0) {
    // The broker's whole list: bounded by the broker, and no huge IN list.
    const wanted = new Set(accountIds);
    const rows = await db
      .selectFrom('trading_accounts')
      .select(['id', 'group_id'])
      .where('tenant_id', '=', tenantId)
      .execute();
    for (const r of rows)
      if (wanted.has(Number(r.id))) accountGroup.set(Number(r.id), r.group_id ?? defaultId);
  }
  return { accountGroup, names: new Map(groups.map((g) => [g.id, g.name])) };
}

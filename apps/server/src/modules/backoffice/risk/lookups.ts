import { maskEmail } from '@broker/domain/identity/credentials';
import type { TCallContext } from '../../../http/context';
import { ensureDefaultGroup } from '../../trading/terms-sync';

/**
 * Names the risk pages show: customers and account groups, always of the caller's broker. Emails
 * are masked as on the customer list: the full contact is on the customer page, where each look is
 * recorded.
 */

export async function customerNames(
  ctx: TCallContext,
  userIds: readonly string[],
): Promise<Map<string, { name: string; email: string }>> {
  if (userIds.length === 0) return new Map();
  const rows = await ctx.services.database.db
    .selectFrom('users')
    .select(['id', 'display_name', 'email'])
    .where('tenant_id', '=', ctx.tenant.id)
    .where('id', 'in', [...userIds])
    .execute();
  return new Map(rows.map((r) => [r.id, { name: r.display_name, email: r.email ? maskEmail(r.email) : '' }]));
}

/**
 * The group of each account (the broker's default group for an account without one) and the names
 * of the broker's groups.
 */
export async function groupsOf(
  ctx: TCallContext,
  accountIds: readonly number[],
): Promise<{ accountGroup: Map<number, string>; names: Map<string, string> }> {
  const db = ctx.services.database.db;
  const defaultId = await ensureDefaultGroup(db, ctx.tenant.id);
  const groups = await db
    .selectFrom('account_groups')
    .select(['id', 'name'])
    .where('tenant_id', '=', ctx.tenant.id)
    .execute();
  const accountGroup = new Map<number, string>();
  if (accountIds.length > 0) {
    // The broker's whole list: bounded by the broker, and no huge IN list.
    const wanted = new Set(accountIds);
    const rows = await db
      .selectFrom('trading_accounts')
      .select(['id', 'group_id'])
      .where('tenant_id', '=', ctx.tenant.id)
      .execute();
    for (const r of rows)
      if (wanted.has(Number(r.id))) accountGroup.set(Number(r.id), r.group_id ?? defaultId);
  }
  return { accountGroup, names: new Map(groups.map((g) => [g.id, g.name])) };
}

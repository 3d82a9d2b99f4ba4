import { canonicalOverrides, type TGroupOverrides } from '@broker/domain/market/market-config';
import { sql } from 'kysely';
import type { TDb } from '../../../db/database';

/** SQL of the account groups and their overrides of instruments; every query is scoped to one broker. */

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export interface TGroupRecord {
  id: string;
  name: string;
  description: string;
  isDefault: boolean;
  accounts: number;
  overrides: number;
  marginCallBp: number;
  stopOutBp: number;
  negativeBalanceProtection: boolean;
  version: string;
  createdAt: string;
}

function groupQuery(db: TDb, tenantId: string) {
  return db
    .selectFrom('account_groups as g')
    .select([
      'g.id',
      'g.name',
      'g.description',
      'g.is_default',
      'g.margin_call_bp',
      'g.stop_out_bp',
      'g.negative_balance_protection',
      'g.created_at',
      sql<string>`g.updated_at::text`.as('version'),
      // Accounts not yet placed in a group trade on the default group's terms.
      sql<number>`(select count(*)::int from trading_accounts a where a.tenant_id = g.tenant_id
        and (a.group_id = g.id or (g.is_default and a.group_id is null)))`.as('accounts'),
      sql<number>`(select count(*)::int from instrument_group_terms t where t.group_id = g.id)`.as(
        'overrides',
      ),
    ])
    .where('g.tenant_id', '=', tenantId);
}

type TGroupRow = Awaited<ReturnType<ReturnType<typeof groupQuery>['executeTakeFirstOrThrow']>>;

const toGroup = (row: TGroupRow): TGroupRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  isDefault: row.is_default,
  accounts: Number(row.accounts),
  overrides: Number(row.overrides),
  marginCallBp: row.margin_call_bp,
  stopOutBp: row.stop_out_bp,
  negativeBalanceProtection: row.negative_balance_protection,
  version: row.version,
  createdAt: new Date(row.created_at).toISOString(),
});

export async function listGroupRecords(db: TDb, tenantId: string): Promise<TGroupRecord[]> {
  const rows = await groupQuery(db, tenantId).orderBy('g.is_default', 'desc').orderBy('g.name').execute();
  return rows.map(toGroup);
}

export async function findGroupRecord(
  db: TDb,
  tenantId: string,
  id: string,
  { forUpdate = false } = {},
): Promise<TGroupRecord | null> {
  let query = groupQuery(db, tenantId).where('g.id', '=', id);
  if (forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toGroup(row) : null;
}

export async function groupNameTaken(db: TDb, tenantId: string, name: string, exceptId?: string) {
  let query = db
    .selectFrom('account_groups')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`lower(name) = lower(${name})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export interface TGroupTermsRecord {
  groupId: string;
  groupName: string;
  symbol: string;
  overrides: TGroupOverrides;
  version: string;
}

/** Overrides of one group (by symbol), of one symbol (by group), or all of the broker's. */
export async function listGroupTerms(
  db: TDb,
  tenantId: string,
  filter: { groupId?: string; symbol?: string } = {},
): Promise<TGroupTermsRecord[]> {
  let query = db
    .selectFrom('instrument_group_terms as t')
    .innerJoin('account_groups as g', 'g.id', 't.group_id')
    .select([
      't.group_id',
      'g.name',
      't.symbol',
      't.overrides',
      sql<string>`t.updated_at::text`.as('version'),
    ])
    .where('t.tenant_id', '=', tenantId)
    .where('g.tenant_id', '=', tenantId);
  if (filter.groupId) query = query.where('t.group_id', '=', filter.groupId);
  if (filter.symbol) query = query.where('t.symbol', '=', filter.symbol);
  const rows = await query.orderBy('t.symbol').orderBy('g.name').execute();
  return rows.map((r) => ({
    groupId: r.group_id,
    groupName: r.name,
    symbol: r.symbol,
    overrides: canonicalOverrides(json<TGroupOverrides>(r.overrides) ?? {}),
    version: r.version,
  }));
}

export async function findGroupTerms(
  db: TDb,
  input: { tenantId: string; groupId: string; symbol: string },
): Promise<{ overrides: TGroupOverrides; version: string } | null> {
  const row = await db
    .selectFrom('instrument_group_terms')
    .select(['overrides', sql<string>`updated_at::text`.as('version')])
    .where('tenant_id', '=', input.tenantId)
    .where('group_id', '=', input.groupId)
    .where('symbol', '=', input.symbol)
    .forUpdate()
    .executeTakeFirst();
  return row
    ? { overrides: canonicalOverrides(json<TGroupOverrides>(row.overrides) ?? {}), version: row.version }
    : null;
}

/** The names of the broker's groups among `ids`, by id. */
export async function groupNames(
  db: TDb,
  { tenantId, ids }: { tenantId: string; ids: readonly string[] },
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('account_groups')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The broker's groups by id and name, the default one first, then by name. */
export function brokerGroups(db: TDb, tenantId: string): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('account_groups')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .orderBy('is_default', 'desc')
    .orderBy('name')
    .execute();
}

/** The account's group, or the broker's default group when it has none. */
export async function accountGroupOrDefault(
  db: TDb,
  tenantId: string,
  accountId: number,
): Promise<string | null> {
  const row = await db
    .selectFrom('trading_accounts')
    .select('group_id')
    .where('id', '=', accountId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (row?.group_id) return row.group_id;
  const fallback = await db
    .selectFrom('account_groups')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  return fallback?.id ?? null;
}

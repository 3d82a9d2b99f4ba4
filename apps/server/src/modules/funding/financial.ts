import type { TMovement } from '@broker/contracts/funding-routes';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { money, traderOf } from '../trading';
import { parseRate, toAccountMinor } from './amounts';

export interface TFinancialQuery {
  kinds?: string[] | undefined;
  status?: string | undefined;
  account_id?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  size: number;
}

type TRow = {
  id: string;
  kind: string;
  status: string;
  account_id: string | number;
  amount: string | number;
  fee: string | number;
  currency: string;
  method: string | null;
  counterparty: string | number | null;
  created_at: Date | string;
  updated_at: Date | string;
};

/**
 * Every money movement of one trader, from the funding module's own records: deposits (what
 * reached the account, or what was asked while not yet there), withdrawals (held amounts, out),
 * transfers (seen from the main account: out negative, in positive), staff adjustments and coin
 * exchanges. One union, filtered and paged in the database.
 */
function movements(db: TDb, tenantId: string, userId: string) {
  return sql<TRow>`
    select d.id, 'deposit' as kind, d.status, d.account_id,
           coalesce(d.credited, 0) as amount, d.fee, d.account_currency as currency, d.method,
           null::bigint as counterparty, d.created_at, d.updated_at, d.amount as asked, d.rate
      from deposits d where d.tenant_id = ${tenantId} and d.user_id = ${userId}
    union all
    select w.id, 'withdrawal', w.status, w.account_id, -w.amount, w.fee, w.account_currency, w.method,
           null, w.created_at, w.updated_at, null, null
      from withdrawals w where w.tenant_id = ${tenantId} and w.user_id = ${userId}
    union all
    select t.id, t.transfer_type, 'completed',
           case when t.transfer_type like '%_out' then t.from_account else t.to_account end,
           case when t.transfer_type like '%_out' then -t.amount else t.amount end,
           0, t.currency, null,
           case when t.transfer_type like '%_out' then t.to_account else t.from_account end,
           t.created_at, t.created_at, null, null
      from transfers t where t.tenant_id = ${tenantId} and t.user_id = ${userId} and t.tx_id is not null
    union all
    select a.id, 'adjustment', 'completed', a.account_id, a.amount, 0, a.currency, null, null,
           a.requested_at, coalesce(a.decided_at, a.requested_at), null, null
      from balance_adjustments a
     where a.tenant_id = ${tenantId} and a.user_id = ${userId} and a.status in ('applied', 'approved')
    union all
    select c.id, 'coin_exchange', 'completed', c.account_id, -c.coins, 0, 'USC', null, null,
           c.created_at, c.created_at, null, null
      from coin_entries c
     where c.tenant_id = ${tenantId} and c.user_id = ${userId} and c.reason = 'exchange' and c.tx_id is not null`;
}

function filtered(db: TDb, tenantId: string, userId: string, q: TFinancialQuery) {
  const conditions = [sql`true`];
  if (q.kinds?.length) conditions.push(sql`m.kind in (${sql.join(q.kinds)})`);
  if (q.status) conditions.push(sql`m.status = ${q.status}`);
  if (q.account_id)
    conditions.push(sql`(m.account_id = ${q.account_id} or m.counterparty = ${q.account_id})`);
  if (q.from) conditions.push(sql`m.created_at >= ${`${q.from}T00:00:00Z`}::timestamptz`);
  if (q.to) conditions.push(sql`m.created_at < (${`${q.to}T00:00:00Z`}::timestamptz + interval '1 day')`);
  return sql`from (${movements(db, tenantId, userId)}) as m where ${sql.join(conditions, sql` and `)}`;
}

function view(row: TRow & { asked?: string | number | null; rate?: string | null }): TMovement {
  // A deposit not yet credited shows what was asked, at the stored rate.
  let amount = Number(row.amount);
  if (row.kind === 'deposit' && amount === 0 && row.asked != null && row.rate)
    amount = toAccountMinor(Number(row.asked), parseRate(row.rate));
  return {
    id: row.id,
    kind: row.kind as TMovement['kind'],
    status: row.status,
    account_id: Number(row.account_id),
    amount: money(amount),
    fee: money(Number(row.fee)),
    currency: row.currency,
    method: (row.method ?? null) as TMovement['method'],
    counterparty: row.counterparty === null ? null : Number(row.counterparty),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The trader's financial record, newest first. */
export async function financialRecord(db: TDb, { actor, ...q }: TFinancialQuery & { actor: TActor }) {
  const userId = traderOf(actor);
  const from = filtered(db, actor.tenantId, userId, q);
  const [count, rows] = await Promise.all([
    sql<{ total: string }>`select count(*) as total ${from}`.execute(db),
    sql<TRow>`select m.* ${from} order by m.created_at desc, m.id limit ${q.size} offset ${(q.page - 1) * q.size}`.execute(
      db,
    ),
  ]);
  return {
    items: rows.rows.map(view),
    total: Number(count.rows[0]?.total ?? 0),
    page: q.page,
    size: q.size,
  };
}

/** The same record as CSV (at most 10,000 rows), for the download link. */
export async function financialCsv(
  db: TDb,
  { actor, ...q }: Omit<TFinancialQuery, 'page' | 'size'> & { actor: TActor },
) {
  const { items } = await financialRecord(db, { actor, ...q, page: 1, size: 10_000 });
  const cell = (v: string | number | null) => {
    const text = v === null ? '' : String(v);
    // Spreadsheet formula injection: a leading = + - @ is quoted as text.
    const safe = /^[=+\-@]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
    return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const header = [
    'time',
    'kind',
    'status',
    'account',
    'amount',
    'fee',
    'currency',
    'method',
    'counterparty',
    'id',
  ];
  const lines = items.map((m) =>
    [m.createdAt, m.kind, m.status, m.account_id, m.amount, m.fee, m.currency, m.method, m.counterparty, m.id]
      .map(cell)
      .join(','),
  );
  return `${header.join(',')}\n${lines.join('\n')}${lines.length ? '\n' : ''}`;
}

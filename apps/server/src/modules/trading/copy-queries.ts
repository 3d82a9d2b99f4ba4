import type { TCopyRelationView } from '@broker/domain/trading/engine/events';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/*
 * What the copy module reads of the trading tables (the engine writes them): an account's ledger
 * and deals, the copy relations as stored (a stopped one is only here), and the skipped copies.
 */

export interface TLedgerRow {
  time: number;
  kind: string;
  amount: number;
  balanceAfter: number;
}

export interface TDealRow {
  positionId: number;
  symbol: string;
  side: string;
  volume: number;
  openPrice: number;
  closePrice: number;
  openTime: number;
  closeTime: number;
  /** Profit with swap and commission. */
  net: number;
  reason: number;
  parentTicket: number | null;
}

/** The account's own ledger legs, oldest first. */
export async function accountLedger(db: TDb, accountId: number): Promise<TLedgerRow[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['created_at', 'kind', 'amount', 'balance_after'])
    .where('account_id', '=', accountId)
    .where('ledger_account', '=', `trader:${accountId}`)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    time: Number(r.created_at),
    kind: r.kind,
    amount: Number(r.amount),
    balanceAfter: Number(r.balance_after),
  }));
}

/** The account's closed deals since `since` (ms), oldest first. */
export async function accountDeals(db: TDb, accountId: number, since = 0): Promise<TDealRow[]> {
  const rows = await db
    .selectFrom('deals')
    .select([
      'position_id',
      'symbol',
      'side',
      'volume',
      'open_price',
      'close_price',
      'open_time',
      'close_time',
      'profit',
      'swap',
      'commission',
      'reason',
      'parent_ticket',
    ])
    .where('account_id', '=', accountId)
    .where('close_time', '>=', since)
    .orderBy('close_time')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    positionId: Number(r.position_id),
    symbol: r.symbol,
    side: r.side,
    volume: r.volume,
    openPrice: Number(r.open_price),
    closePrice: Number(r.close_price),
    openTime: Number(r.open_time),
    closeTime: Number(r.close_time),
    net: Number(r.profit) + Number(r.swap) + Number(r.commission),
    reason: r.reason,
    parentTicket: r.parent_ticket === null ? null : Number(r.parent_ticket),
  }));
}

type TRelationRow = {
  account_id: string | number;
  leader_account_id: string | number;
  mode: TCopyRelationView['mode'];
  mode_value: string | number;
  max_volume: number | null;
  max_positions: number | null;
  max_slippage_points: number | null;
  stop_loss_bp: number | null;
  take_profit_bp: number | null;
  copy_stops: boolean;
  copy_existing: boolean;
  fee_bp: number;
  status: TCopyRelationView['status'];
  stop_reason: string | null;
  created_at: string | number;
  updated_at: string | number;
  hwm: string | number;
  fees_paid: string | number;
};

const relationOf = (r: TRelationRow): TCopyRelationView => ({
  accountId: Number(r.account_id),
  leaderAccountId: Number(r.leader_account_id),
  mode: r.mode,
  modeValue: Number(r.mode_value),
  maxVolume: r.max_volume,
  maxPositions: r.max_positions,
  maxSlippagePoints: r.max_slippage_points,
  stopLossBp: r.stop_loss_bp,
  takeProfitBp: r.take_profit_bp,
  copyStops: r.copy_stops,
  copyExisting: r.copy_existing,
  feeBp: r.fee_bp,
  status: r.status,
  stopReason: r.stop_reason as TCopyRelationView['stopReason'],
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  hwm: Number(r.hwm),
  feesPaid: Number(r.fees_paid),
});

/** A copy account's relation as last stored (running, paused or stopped). */
export async function storedCopyRelation(db: TDb, accountId: number): Promise<TCopyRelationView | undefined> {
  const row = await db
    .selectFrom('copy_relations')
    .selectAll()
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? relationOf(row) : undefined;
}

/** The broker's copy relations (running first, newest first), by leader or state, with the follower's owner. */
export async function copyRelationsPage(
  db: TDb,
  input: {
    tenantId: string;
    leaderId?: number | undefined;
    status?: TCopyRelationView['status'] | undefined;
    page: number;
    size: number;
  },
) {
  let query = db
    .selectFrom('copy_relations')
    .innerJoin('trading_accounts', 'trading_accounts.id', 'copy_relations.account_id')
    .where('trading_accounts.tenant_id', '=', input.tenantId);
  if (input.leaderId !== undefined)
    query = query.where('copy_relations.leader_account_id', '=', input.leaderId);
  if (input.status !== undefined) query = query.where('copy_relations.status', '=', input.status);
  const [rows, counted] = await Promise.all([
    query
      .selectAll('copy_relations')
      .select(['trading_accounts.user_id', 'trading_accounts.parent_id'])
      .orderBy(sql`copy_relations.status = 'stopped'`)
      .orderBy('copy_relations.created_at', 'desc')
      .limit(input.size)
      .offset((input.page - 1) * input.size)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
  ]);
  return {
    items: rows.map((r) => ({
      relation: relationOf(r),
      userId: r.user_id,
      parentId: r.parent_id === null ? null : Number(r.parent_id),
    })),
    total: Number(counted?.n ?? 0),
  };
}

/** How many leader opens each copy account skipped. */
export async function copySkipCounts(db: TDb, accountIds: readonly number[]): Promise<Map<number, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('copy_skips')
    .select(['account_id', sql<string>`count(*)`.as('n')])
    .where('account_id', 'in', accountIds)
    .where('action', '=', 'open')
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.account_id), Number(r.n)]));
}

/** The leader opens a copy account skipped since `since` (ms), with the reason. */
export async function copySkipsOf(db: TDb, accountId: number, since: number) {
  const rows = await db
    .selectFrom('copy_skips')
    .select(['leader_position_id', 'reason', 'volume'])
    .where('account_id', '=', accountId)
    .where('action', '=', 'open')
    .where('created_at', '>=', since)
    .execute();
  return rows.map((r) => ({
    leaderPositionId: Number(r.leader_position_id),
    reason: r.reason,
    volume: r.volume,
  }));
}

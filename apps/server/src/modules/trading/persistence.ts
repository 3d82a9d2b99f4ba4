import type { TAccountType, TTradeType } from '@broker/domain/trading/calculations';
import type {
  TAccountRow,
  TEngineEvent,
  TEngineSnapshot,
  TOrderView,
  TPositionRow,
  TradingEngine,
} from '@broker/domain/trading/engine-core';
import type { TPendingType, TRestrictions, TSide } from '@broker/domain/trading/orders';
import { sql, type Transaction } from 'kysely';
import type { TDb } from '../../db/database';
import type { TDatabaseSchema } from '../../db/schema';

type TTrx = Transaction<TDatabaseSchema>;

/** A new account's owner, written with the account's first row. */
export interface TAccountOwner {
  accountId: number;
  tenantId: string;
  userId: string;
}

/**
 * What a command or tick changed, captured right after it (before anything else ran): the rows of
 * the touched accounts, and the positions and orders it created, changed or removed (null).
 */
export interface TAccountState {
  row: TAccountRow;
  positions: Map<number, TPositionRow | null>;
  orders: Map<number, TOrderView | null>;
}

/** What one accepted command or trigger-firing tick leaves to persist. */
export interface TBatchItem {
  events: readonly TEngineEvent[];
  states: Map<number, TAccountState>;
  owner?: TAccountOwner;
  idempotency?: { key: string; fingerprint: string; result: unknown };
}

const n = (value: string | number | null): number | null => (value === null ? null : Number(value));

function accountOf(event: TEngineEvent): number {
  if ('accountId' in event) return event.accountId;
  if (event.type === 'position_opened') return event.position.accountId;
  return event.order.accountId;
}

/** Copies the changed state (synchronously, in the writer), so later commands cannot leak in. */
export function captureStates(
  engine: TradingEngine,
  events: readonly TEngineEvent[],
): Map<number, TAccountState> {
  const states = new Map<number, TAccountState>();
  const stateOf = (accountId: number) => {
    let state = states.get(accountId);
    if (!state) {
      const view = engine.account(accountId);
      if (!view) return null;
      state = {
        row: { ...view, restrictions: { ...view.restrictions } },
        positions: new Map(),
        orders: new Map(),
      };
      states.set(accountId, state);
    }
    return state;
  };
  const position = (id: number) => {
    const view = engine.position(id);
    if (!view) return null;
    const { profit: _profit, ...row } = view;
    return row;
  };
  for (const event of events) {
    const state = stateOf(accountOf(event));
    if (!state) continue;
    switch (event.type) {
      case 'position_opened':
        state.positions.set(event.position.positionId, position(event.position.positionId));
        break;
      case 'position_modified':
      case 'position_closed':
        state.positions.set(event.positionId, position(event.positionId));
        break;
      case 'ledger':
        if (event.positionId !== null) state.positions.set(event.positionId, position(event.positionId));
        break;
      case 'order_placed':
      case 'order_modified':
        state.orders.set(event.order.orderId, engine.order(event.order.orderId) ?? null);
        break;
      case 'order_activated':
      case 'order_filled':
      case 'order_cancelled':
        state.orders.set(event.orderId, engine.order(event.orderId) ?? null);
        break;
      default:
        break;
    }
  }
  return states;
}

/**
 * Writes one group of accepted commands and ticks in one transaction: history (deals, finished
 * orders), ledger postings, idempotency results, then the current state of every account the group
 * touched (account row, its open positions and pending orders), and the ticket counters.
 */
export async function persistBatch(db: TDb, items: readonly TBatchItem[]): Promise<void> {
  // Later captures win: the account row and each position or order as last seen in the group.
  const latest = new Map<number, TAccountState>();
  for (const item of items)
    for (const [id, state] of item.states) {
      const merged = latest.get(id);
      if (!merged) {
        latest.set(id, {
          row: state.row,
          positions: new Map(state.positions),
          orders: new Map(state.orders),
        });
        continue;
      }
      merged.row = state.row;
      for (const [k, v] of state.positions) merged.positions.set(k, v);
      for (const [k, v] of state.orders) merged.orders.set(k, v);
    }
  await db.transaction().execute(async (trx) => {
    for (const item of items) {
      const state = item.owner ? item.states.get(item.owner.accountId) : undefined;
      if (item.owner && state) await insertAccount(trx, item.owner, state.row);
    }
    const openedHere = new Map<number, { openTime: number }>();
    const deals: Parameters<typeof insertDeals>[1] = [];
    const ledger: TDatabaseSchema['ledger_entries'][] = [];
    const finished: TDatabaseSchema['order_history'][] = [];
    for (const item of items) {
      for (const event of item.events) {
        switch (event.type) {
          case 'position_opened':
            openedHere.set(event.position.positionId, { openTime: event.position.openTime });
            break;
          case 'position_closed':
            deals.push({ event, openTime: openedHere.get(event.positionId)?.openTime ?? null });
            break;
          case 'order_filled':
          case 'order_cancelled':
            finished.push({
              id: event.orderId,
              account_id: event.accountId,
              // Filled in below from the stored order row.
              symbol: '',
              order_type: '',
              volume: 0,
              price: 0,
              limit_price: null,
              take_profit: null,
              stop_loss: null,
              placed_time: 0,
              done_time: event.time,
              status: event.type === 'order_filled' ? 'filled' : 'cancelled',
              cancel_reason: event.type === 'order_cancelled' ? event.reason : null,
              position_id: event.type === 'order_filled' ? event.positionId : null,
              fill_price: event.type === 'order_filled' ? event.price : null,
            } as unknown as TDatabaseSchema['order_history']);
            break;
          case 'ledger':
            for (const posting of event.postings)
              ledger.push({
                tx_id: event.txId,
                account_id: event.accountId,
                ledger_account: posting.ledgerAccount,
                amount: posting.amount,
                kind: event.kind,
                currency: event.currency,
                position_id: event.positionId,
                balance_after: event.balanceAfter,
                created_at: event.time,
              } as unknown as TDatabaseSchema['ledger_entries']);
            break;
          default:
            break;
        }
      }
    }
    await insertDeals(trx, deals, items);
    await insertFinishedOrders(trx, finished, items);
    if (ledger.length > 0)
      await trx
        .insertInto('ledger_entries')
        .values(ledger as never)
        .execute();
    const results = items.flatMap((i) => (i.idempotency ? [i.idempotency] : []));
    if (results.length > 0)
      await trx
        .insertInto('engine_idempotency')
        .values(
          results.map((r) => ({ key: r.key, fingerprint: r.fingerprint, result: JSON.stringify(r.result) })),
        )
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    for (const [accountId, state] of latest) await syncAccount(trx, accountId, state);
  });
}

async function insertAccount(trx: TTrx, owner: TAccountOwner, view: TAccountRow) {
  await trx
    .insertInto('trading_accounts')
    .values({
      id: owner.accountId,
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      ...accountColumns(view),
    })
    .execute();
}

function accountColumns(view: TAccountRow) {
  return {
    account_type: view.accountType,
    trade_type: view.tradeType,
    currency: view.currency,
    leverage: view.leverage,
    balance: view.balance,
    follow_equity: view.followEquity,
    strategy_equity: view.strategyEquity,
    init_money: view.initMoney,
    total_in: view.totalInAmount,
    total_out: view.totalOutAmount,
    margin_call_bp: view.marginCallBp,
    stop_out_bp: view.stopOutBp,
    margin_call: view.marginCall,
    negative_balance_protection: view.negativeBalanceProtection,
    restrictions: JSON.stringify(view.restrictions),
    closed: view.closed,
  };
}

async function insertDeals(
  trx: TTrx,
  deals: Array<{ event: Extract<TEngineEvent, { type: 'position_closed' }>; openTime: number | null }>,
  _items: readonly TBatchItem[],
) {
  if (deals.length === 0) return;
  const ids = [...new Set(deals.map((d) => d.event.positionId))];
  const stored = new Map(
    (
      await trx
        .selectFrom('positions')
        .select(['id', 'open_time', 'swap', 'commission'])
        .where('id', 'in', ids)
        .execute()
    ).map((r) => [Number(r.id), r]),
  );
  await trx
    .insertInto('deals')
    .values(
      deals.map(({ event, openTime }) => {
        const row = stored.get(event.positionId);
        const full = event.remainingVolume === 0;
        return {
          position_id: event.positionId,
          account_id: event.accountId,
          symbol: event.symbol,
          side: event.side,
          volume: event.volume,
          open_price: event.openPrice,
          close_price: event.closePrice,
          open_time: row ? Number(row.open_time) : (openTime ?? event.time),
          close_time: event.time,
          profit: event.profit,
          // Swap and commission are charged to the balance as they happen; the deal that ends the
          // position carries the position's totals.
          swap: full && row ? Number(row.swap) : 0,
          commission: full && row ? Number(row.commission) : 0,
          reason: event.reason,
        };
      }),
    )
    .execute();
}

async function insertFinishedOrders(
  trx: TTrx,
  finished: TDatabaseSchema['order_history'][],
  items: readonly TBatchItem[],
) {
  if (finished.length === 0) return;
  // Orders placed in this same group are not stored yet: take their fields from the events.
  const placedHere = new Map<number, TOrderView>();
  for (const item of items)
    for (const event of item.events)
      if (event.type === 'order_placed' || event.type === 'order_modified')
        placedHere.set(event.order.orderId, event.order);
  const ids = finished.map((f) => Number(f.id));
  const stored = new Map(
    (await trx.selectFrom('pending_orders').selectAll().where('id', 'in', ids).execute()).map((r) => [
      Number(r.id),
      r,
    ]),
  );
  const rows = finished.map((f) => {
    const id = Number(f.id);
    const row = stored.get(id);
    const view = placedHere.get(id);
    return {
      ...(f as unknown as Record<string, unknown>),
      symbol: view?.symbol ?? row?.symbol ?? '',
      order_type: view?.type ?? row?.order_type ?? '',
      volume: view?.volume ?? row?.volume ?? 0,
      price: view?.price ?? n(row?.price ?? 0) ?? 0,
      limit_price: view ? view.limitPrice : n(row?.limit_price ?? null),
      take_profit: view ? view.takeProfit : n(row?.take_profit ?? null),
      stop_loss: view ? view.stopLoss : n(row?.stop_loss ?? null),
      placed_time: view?.time ?? n(row?.placed_time ?? 0) ?? 0,
    };
  });
  await trx
    .insertInto('order_history')
    .values(rows as never)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Writes a captured account state: its row, and the positions and orders that changed. */
async function syncAccount(trx: TTrx, accountId: number, state: TAccountState) {
  await trx
    .updateTable('trading_accounts')
    .set({ ...accountColumns(state.row), updated_at: sql<Date>`now()` })
    .where('id', '=', accountId)
    .execute();
  const positions = [...state.positions.values()].filter((p): p is TPositionRow => p !== null);
  const closed = [...state.positions].filter(([, p]) => p === null).map(([id]) => id);
  if (closed.length > 0) await trx.deleteFrom('positions').where('id', 'in', closed).execute();
  if (positions.length > 0)
    await trx
      .insertInto('positions')
      .values(positions.map(positionColumns))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          volume: eb.ref('excluded.volume'),
          take_profit: eb.ref('excluded.take_profit'),
          stop_loss: eb.ref('excluded.stop_loss'),
          margin: eb.ref('excluded.margin'),
          swap: eb.ref('excluded.swap'),
          commission: eb.ref('excluded.commission'),
        })),
      )
      .execute();
  const orders = [...state.orders.values()].filter((o): o is TOrderView => o !== null);
  const done = [...state.orders].filter(([, o]) => o === null).map(([id]) => id);
  if (done.length > 0) await trx.deleteFrom('pending_orders').where('id', 'in', done).execute();
  if (orders.length > 0)
    await trx
      .insertInto('pending_orders')
      .values(orders.map(orderColumns))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          volume: eb.ref('excluded.volume'),
          price: eb.ref('excluded.price'),
          limit_price: eb.ref('excluded.limit_price'),
          activated: eb.ref('excluded.activated'),
          take_profit: eb.ref('excluded.take_profit'),
          stop_loss: eb.ref('excluded.stop_loss'),
        })),
      )
      .execute();
}

function positionColumns(p: TPositionRow) {
  return {
    id: p.positionId,
    account_id: p.accountId,
    symbol: p.symbol,
    side: p.side,
    volume: p.volume,
    open_price: p.openPrice,
    open_time: p.openTime,
    take_profit: p.takeProfit,
    stop_loss: p.stopLoss,
    margin: p.margin,
    swap: p.swap,
    commission: p.commission,
  };
}

function orderColumns(o: TOrderView) {
  return {
    id: o.orderId,
    account_id: o.accountId,
    symbol: o.symbol,
    order_type: o.type,
    volume: o.volume,
    price: o.price,
    limit_price: o.limitPrice,
    activated: o.activated,
    take_profit: o.takeProfit,
    stop_loss: o.stopLoss,
    placed_time: o.time,
  };
}

/** The engine's durable state as a snapshot to restore from (quotes come from the feed). */
export async function loadSnapshot(db: TDb): Promise<TEngineSnapshot> {
  const [maxima, accounts, positions, orders, idempotency] = await Promise.all([
    sql<{ ticket: string | null; tx: string | null }>`
      select greatest(
        (select max(id) from positions), (select max(id) from pending_orders),
        (select max(position_id) from deals), (select max(id) from order_history),
        (select max(position_id) from order_history)
      ) as ticket, (select max(tx_id) from ledger_entries) as tx`.execute(db),
    db.selectFrom('trading_accounts').selectAll().orderBy('id').execute(),
    db.selectFrom('positions').selectAll().orderBy('id').execute(),
    db.selectFrom('pending_orders').selectAll().orderBy('id').execute(),
    db.selectFrom('engine_idempotency').selectAll().execute(),
  ]);
  return {
    version: 1,
    // Every ticket and transaction id appears in a stored row, so the maxima give the next ones.
    nextTicket: Number(maxima.rows[0]?.ticket ?? 0) + 1,
    nextTxId: Number(maxima.rows[0]?.tx ?? 0) + 1,
    quotes: [],
    accounts: accounts.map((a) => ({
      accountId: Number(a.id),
      accountType: a.account_type as TAccountType,
      tradeType: a.trade_type as TTradeType,
      currency: a.currency,
      leverage: a.leverage,
      balance: Number(a.balance),
      followEquity: Number(a.follow_equity),
      strategyEquity: Number(a.strategy_equity),
      initMoney: Number(a.init_money),
      totalInAmount: Number(a.total_in),
      totalOutAmount: Number(a.total_out),
      marginCallBp: a.margin_call_bp,
      stopOutBp: a.stop_out_bp,
      marginCall: a.margin_call,
      negativeBalanceProtection: a.negative_balance_protection,
      restrictions: (typeof a.restrictions === 'string'
        ? JSON.parse(a.restrictions)
        : a.restrictions) as TRestrictions,
      closed: a.closed,
    })),
    positions: positions.map((p) => ({
      positionId: Number(p.id),
      accountId: Number(p.account_id),
      symbol: p.symbol,
      side: p.side as TSide,
      volume: p.volume,
      openPrice: Number(p.open_price),
      openTime: Number(p.open_time),
      takeProfit: n(p.take_profit),
      stopLoss: n(p.stop_loss),
      margin: Number(p.margin),
      swap: Number(p.swap),
      commission: Number(p.commission),
    })),
    orders: orders.map((o) => ({
      orderId: Number(o.id),
      accountId: Number(o.account_id),
      symbol: o.symbol,
      type: o.order_type as TPendingType,
      volume: o.volume,
      price: Number(o.price),
      limitPrice: n(o.limit_price),
      activated: o.activated,
      takeProfit: n(o.take_profit),
      stopLoss: n(o.stop_loss),
      time: Number(o.placed_time),
    })),
    idempotency: idempotency.map((i) => ({
      key: i.key,
      fingerprint: i.fingerprint,
      result: (typeof i.result === 'string' ? JSON.parse(i.result) : i.result) as never,
    })),
  };
}

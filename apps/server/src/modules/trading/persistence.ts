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
import { sql } from 'kysely';
import type { TDatabase, TDb } from '../../db/database';

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

type TDealRow = {
  position_id: number;
  account_id: number;
  symbol: string;
  side: string;
  volume: number;
  open_price: number;
  close_price: number;
  open_time: number;
  close_time: number;
  profit: number;
  swap: number;
  commission: number;
  reason: number;
};
type TFinishedOrderRow = {
  id: number;
  account_id: number;
  symbol: string;
  order_type: string;
  volume: number;
  price: number;
  limit_price: number | null;
  take_profit: number | null;
  stop_loss: number | null;
  placed_time: number;
  done_time: number;
  status: 'filled' | 'cancelled';
  cancel_reason: string | null;
  position_id: number | null;
  fill_price: number | null;
};
type TLedgerRow = {
  tx_id: number;
  account_id: number;
  ledger_account: string;
  amount: number;
  kind: string;
  currency: string;
  position_id: number | null;
  balance_after: number;
  created_at: number;
};

/** What one accepted command or trigger-firing tick leaves to persist, all computed in the writer. */
export interface TBatchItem {
  events: readonly TEngineEvent[];
  states: Map<number, TAccountState>;
  deals: TDealRow[];
  finished: TFinishedOrderRow[];
  ledger: TLedgerRow[];
  owner?: TAccountOwner;
  idempotency?: { key: string; fingerprint: string; result: unknown };
}

/**
 * The last written form of every open position and pending order, so history rows can be made
 * without reading the database (a closed position or a filled order is gone from the engine).
 */
export interface TShadow {
  positions: Map<number, TPositionRow>;
  orders: Map<number, TOrderView>;
}

const n = (value: string | number | null): number | null => (value === null ? null : Number(value));

function accountOf(event: TEngineEvent): number {
  if ('accountId' in event) return event.accountId;
  if (event.type === 'position_opened') return event.position.accountId;
  return event.order.accountId;
}

// Module-level helpers of captureBatchItem rather than closures made on every call: the dev
// loader (tsx, esbuild keepNames) wraps each closure in a naming call, measurable per order.
function stateOf(engine: TradingEngine, states: Map<number, TAccountState>, accountId: number) {
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
}

function positionRow(engine: TradingEngine, id: number): TPositionRow | null {
  const view = engine.position(id);
  if (!view) return null;
  const { profit: _profit, ...row } = view;
  return row;
}

function touchPosition(engine: TradingEngine, shadow: TShadow, state: TAccountState, id: number) {
  const row = positionRow(engine, id);
  state.positions.set(id, row);
  if (row) shadow.positions.set(id, row);
}

function touchOrder(engine: TradingEngine, shadow: TShadow, state: TAccountState, id: number) {
  const row = engine.order(id) ?? null;
  state.orders.set(id, row);
  if (row) shadow.orders.set(id, row);
}

/**
 * Turns a command's or tick's events into rows, synchronously in the writer so later commands
 * cannot leak in: changed account rows, positions and orders, deals, finished orders and ledger
 * postings. Updates the shadow.
 */
export function captureBatchItem(
  engine: TradingEngine,
  shadow: TShadow,
  events: readonly TEngineEvent[],
): Omit<TBatchItem, 'owner' | 'idempotency'> {
  const states = new Map<number, TAccountState>();
  const deals: TDealRow[] = [];
  const finished: TFinishedOrderRow[] = [];
  const ledger: TLedgerRow[] = [];
  for (const event of events) {
    const state = stateOf(engine, states, accountOf(event));
    if (!state) continue;
    switch (event.type) {
      case 'position_opened': {
        touchPosition(engine, shadow, state, event.position.positionId);
        // A market order is done the moment it opens its position: it joins the order history
        // (as in MT5, the position carries the order's ticket).
        if (event.orderId === null) {
          const p = event.position;
          finished.push({
            id: p.positionId,
            account_id: p.accountId,
            symbol: p.symbol,
            order_type: p.side,
            volume: p.volume,
            price: p.openPrice,
            limit_price: null,
            take_profit: p.takeProfit,
            stop_loss: p.stopLoss,
            placed_time: event.time,
            done_time: event.time,
            status: 'filled',
            cancel_reason: null,
            position_id: p.positionId,
            fill_price: p.openPrice,
          });
        }
        break;
      }
      case 'position_modified':
        touchPosition(engine, shadow, state, event.positionId);
        break;
      case 'position_closed': {
        const before = shadow.positions.get(event.positionId);
        const full = event.remainingVolume === 0;
        deals.push({
          position_id: event.positionId,
          account_id: event.accountId,
          symbol: event.symbol,
          side: event.side,
          volume: event.volume,
          open_price: event.openPrice,
          close_price: event.closePrice,
          open_time: before?.openTime ?? event.time,
          close_time: event.time,
          profit: event.profit,
          // Swap and commission are charged to the balance as they happen; the deal that ends the
          // position carries the position's totals.
          swap: full ? (before?.swap ?? 0) : 0,
          commission: full ? (before?.commission ?? 0) : 0,
          reason: event.reason,
        });
        touchPosition(engine, shadow, state, event.positionId);
        if (full) shadow.positions.delete(event.positionId);
        break;
      }
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
          });
        if (event.positionId !== null && engine.position(event.positionId))
          touchPosition(engine, shadow, state, event.positionId);
        break;
      case 'order_placed':
      case 'order_modified':
        touchOrder(engine, shadow, state, event.order.orderId);
        break;
      case 'order_activated':
        touchOrder(engine, shadow, state, event.orderId);
        break;
      case 'order_filled':
      case 'order_cancelled': {
        const order = shadow.orders.get(event.orderId);
        if (order)
          finished.push({
            id: event.orderId,
            account_id: event.accountId,
            symbol: order.symbol,
            order_type: order.type,
            volume: order.volume,
            price: order.price,
            limit_price: order.limitPrice,
            take_profit: order.takeProfit,
            stop_loss: order.stopLoss,
            placed_time: order.time,
            done_time: event.time,
            status: event.type === 'order_filled' ? 'filled' : 'cancelled',
            cancel_reason: event.type === 'order_cancelled' ? event.reason : null,
            position_id: event.type === 'order_filled' ? event.positionId : null,
            fill_price: event.type === 'order_filled' ? event.price : null,
          });
        state.orders.set(event.orderId, null);
        shadow.orders.delete(event.orderId);
        break;
      }
      default:
        break;
    }
  }
  return { events, states, deals, finished, ledger };
}

/** A SQL literal of a parameter: integers, booleans, null and strings only (never floats). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not a safe integer: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new Error('NUL in SQL text');
    return `'${value.replace(/'/g, "''")}'`;
  }
  throw new Error(`unsupported SQL parameter: ${typeof value}`);
}

/** Double-quotes an identifier of ours (tables and columns are fixed names, never input). */
const ident = (name: string) => `"${name}"`;

/**
 * One multi-row INSERT with its values written in as literals (a column a row lacks gets its
 * default). Built directly rather than through the query builder: this runs for every group commit.
 */
function insertSql(table: string, rows: readonly object[], suffix = ''): string {
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of rows)
    for (const column of Object.keys(row))
      if (!seen.has(column)) {
        seen.add(column);
        columns.push(column);
      }
  const values = rows.map((row) => {
    const record = row as Record<string, unknown>;
    return `(${columns.map((c) => (c in record ? literal(record[c]) : 'default')).join(', ')})`;
  });
  return `insert into ${ident(table)} (${columns.map(ident).join(', ')}) values ${values.join(', ')}${suffix}`;
}

/** `on conflict (id) do update` of the given columns from the proposed row. */
const upsertById = (columns: readonly string[]) =>
  ` on conflict ("id") do update set ${columns.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}`;

/**
 * Writes one group of accepted commands and ticks as ONE multi-statement query: PostgreSQL (and
 * PGlite) run the statements of a simple query as a single implicit transaction, all or nothing,
 * in one round trip. The statements: new accounts, deals, finished orders, ledger postings,
 * idempotency results, then every changed account row (one update), position and pending order
 * (one delete and one upsert each). An account row equal to the one last written is left out.
 */
export async function persistBatch(
  database: TDatabase,
  items: readonly TBatchItem[],
  written?: Map<number, string>,
): Promise<void> {
  const statements: string[] = [];
  const created: object[] = [];
  for (const item of items) {
    const state = item.owner ? item.states.get(item.owner.accountId) : undefined;
    if (item.owner && state)
      created.push({
        id: item.owner.accountId,
        tenant_id: item.owner.tenantId,
        user_id: item.owner.userId,
        ...accountColumns(state.row),
      });
  }
  if (created.length > 0) statements.push(insertSql('trading_accounts', created));
  const deals = items.flatMap((i) => i.deals);
  if (deals.length > 0) statements.push(insertSql('deals', deals));
  const finished = items.flatMap((i) => i.finished);
  if (finished.length > 0)
    statements.push(insertSql('order_history', finished, ' on conflict ("id") do nothing'));
  const ledger = items.flatMap((i) => i.ledger);
  if (ledger.length > 0) statements.push(insertSql('ledger_entries', ledger));
  const results = items.flatMap((i) => (i.idempotency ? [i.idempotency] : []));
  if (results.length > 0)
    statements.push(
      insertSql(
        'engine_idempotency',
        results.map((r) => ({ key: r.key, fingerprint: r.fingerprint, result: JSON.stringify(r.result) })),
        ' on conflict ("key") do nothing',
      ),
    );
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
  const newAccounts = new Set(items.flatMap((i) => (i.owner ? [i.owner.accountId] : [])));
  const changed = syncStatements(latest, newAccounts, written);
  statements.push(...changed.statements);
  if (statements.length === 0) return;
  await database.exec(statements.join(';\n'));
  // Only once committed: the rows the database now holds.
  if (written) for (const [id, text] of changed.accountTexts) written.set(id, text);
}

/** An account row's values in the order of the update below, as SQL text. */
function accountValues(r: TAccountRow): string {
  return `(${literal(r.accountId)}::bigint, ${literal(r.balance)}::bigint, ${literal(r.followEquity)}::bigint, ${literal(r.strategyEquity)}::bigint, ${literal(r.initMoney)}::bigint, ${literal(r.totalInAmount)}::bigint, ${literal(r.totalOutAmount)}::bigint, ${literal(r.marginCallBp)}::integer, ${literal(r.stopOutBp)}::integer, ${literal(r.marginCall)}::boolean, ${literal(r.negativeBalanceProtection)}::boolean, ${literal(JSON.stringify(r.restrictions))}::jsonb, ${literal(r.closed)}::boolean, ${literal(r.leverage)}::integer, ${literal(r.tradeType)}::smallint, ${literal(r.profile ?? null)}::text)`;
}

/**
 * The account rows (one update), positions and orders (a delete and an upsert each) of a group.
 * An account whose row is the same text as the last one committed (`written`) is not updated: a
 * market order without commission changes positions, not the account row.
 */
function syncStatements(
  states: Map<number, TAccountState>,
  created: ReadonlySet<number>,
  written: Map<number, string> | undefined,
): { statements: string[]; accountTexts: Map<number, string> } {
  const statements: string[] = [];
  const accountTexts = new Map<number, string>();
  if (states.size === 0) return { statements, accountTexts };
  const rows: string[] = [];
  for (const [id, state] of states) {
    const text = accountValues(state.row);
    accountTexts.set(id, text);
    if (!created.has(id) && written?.get(id) !== text) rows.push(text);
  }
  if (rows.length > 0)
    statements.push(`update trading_accounts as t set
      balance = v.balance, follow_equity = v.follow_equity, strategy_equity = v.strategy_equity,
      init_money = v.init_money, total_in = v.total_in, total_out = v.total_out,
      margin_call_bp = v.margin_call_bp, stop_out_bp = v.stop_out_bp, margin_call = v.margin_call,
      negative_balance_protection = v.nbp, restrictions = v.restrictions, closed = v.closed,
      leverage = v.leverage, trade_type = v.trade_type, group_id = v.group_id, updated_at = now()
    from (values ${rows.join(', ')}) as v(id, balance, follow_equity, strategy_equity, init_money,
      total_in, total_out, margin_call_bp, stop_out_bp, margin_call, nbp, restrictions, closed,
      leverage, trade_type, group_id)
    where t.id = v.id`);
  const positions: TPositionRow[] = [];
  const closed: number[] = [];
  const orders: TOrderView[] = [];
  const done: number[] = [];
  for (const state of states.values()) {
    for (const [id, p] of state.positions)
      if (p) positions.push(p);
      else closed.push(id);
    for (const [id, o] of state.orders)
      if (o) orders.push(o);
      else done.push(id);
  }
  if (closed.length > 0)
    statements.push(`delete from positions where id in (${closed.map(literal).join(', ')})`);
  if (positions.length > 0)
    statements.push(
      insertSql(
        'positions',
        positions.map(positionColumns),
        upsertById(['volume', 'take_profit', 'stop_loss', 'margin', 'swap', 'commission']),
      ),
    );
  if (done.length > 0)
    statements.push(`delete from pending_orders where id in (${done.map(literal).join(', ')})`);
  if (orders.length > 0)
    statements.push(
      insertSql(
        'pending_orders',
        orders.map(orderColumns),
        upsertById(['volume', 'price', 'limit_price', 'activated', 'take_profit', 'stop_loss']),
      ),
    );
  return { statements, accountTexts };
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
    group_id: view.profile ?? null,
  };
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
      profile: a.group_id,
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

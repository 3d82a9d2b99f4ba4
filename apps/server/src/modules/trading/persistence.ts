import type { TAccountType, TTradeType } from '@broker/domain/trading/calculations';
import type {
  TAccountRow,
  TCopyRelationView,
  TEngineEvent,
  TEngineSnapshot,
  TOrderRow,
  TOrderView,
  TPositionRow,
  TradingEngine,
  TStrategyView,
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
  /** A copy's deal: the leader's position it followed. */
  parent_ticket?: number | null;
  /** A bot's deal: its strategy. */
  strategy_id?: number | null;
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
  strategy_id?: number | null;
};
type TStrategyLogRow = {
  strategy_id: number;
  account_id: number;
  action: string;
  reason: string | null;
  level: number | null;
  price: number | null;
  volume: number | null;
  ticket: number | null;
  profit: number | null;
  created_at: number;
};
type TCopySkipRow = {
  account_id: number;
  leader_account_id: number;
  leader_position_id: number;
  action: string;
  reason: string;
  volume: number | null;
  created_at: number;
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
  /** Copy relations as each copy_relation_changed event left them (the later wins). */
  relations?: TCopyRelationView[];
  /** Leader trades a follower did not copy. */
  skips?: TCopySkipRow[];
  /** Bots as each strategy_changed event left them (the later wins), and what they did. */
  strategies?: TStrategyView[];
  strategyLogs?: TStrategyLogRow[];
  /**
   * Stop-losses moved by trailing stops, as [position id, stop-loss] in the order they moved: only
   * the stop-loss changed, so no account row or position row is captured for them.
   */
  trails?: [number, number][];
  owner?: TAccountOwner;
  /** `nonce`: the order signature's session-scoped nonce, kept so a restart still knows it. */
  idempotency?: { key: string; fingerprint: string; result: unknown; nonce?: string | null };
}

/**
 * The last written form of every open position and pending order, so history rows can be made
 * without reading the database (a closed position or a filled order is gone from the engine).
 */
export interface TShadow {
  positions: Map<number, TPositionRow>;
  orders: Map<number, TOrderRow>;
}

const n = (value: string | number | null): number | null => (value === null ? null : Number(value));
const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

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
  const relations: TCopyRelationView[] = [];
  const skips: TCopySkipRow[] = [];
  const strategies: TStrategyView[] = [];
  const strategyLogs: TStrategyLogRow[] = [];
  const trails: [number, number][] = [];
  for (const event of events) {
    // A trailing stop's move touches one column of one position: the cheap path, no views built.
    if (event.type === 'stop_loss_trailed') {
      trails.push([event.positionId, event.stopLoss]);
      continue;
    }
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
            strategy_id: p.strategyId,
          });
        }
        break;
      }
      case 'position_modified':
      case 'position_unlinked':
        touchPosition(engine, shadow, state, event.positionId);
        break;
      case 'copy_relation_changed':
        relations.push(event.relation);
        break;
      case 'strategy_changed':
        strategies.push(event.strategy);
        break;
      case 'strategy_log':
        strategyLogs.push({
          strategy_id: event.strategyId,
          account_id: event.accountId,
          action: event.action,
          reason: event.reason,
          level: event.level,
          price: event.price,
          volume: event.volume,
          ticket: event.ticket,
          profit: event.profit,
          created_at: event.time,
        });
        break;
      case 'copy_skipped':
        skips.push({
          account_id: event.accountId,
          leader_account_id: event.leaderAccountId,
          leader_position_id: event.leaderPositionId,
          action: event.action,
          reason: event.reason,
          volume: event.volume,
          created_at: event.time,
        });
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
          parent_ticket: event.parentTicket,
          strategy_id: event.strategyId,
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
            strategy_id: order.strategyId ?? null,
          });
        state.orders.set(event.orderId, null);
        shadow.orders.delete(event.orderId);
        break;
      }
      default:
        break;
    }
  }
  return {
    events,
    states,
    deals,
    finished,
    ledger,
    ...(relations.length > 0 ? { relations } : {}),
    ...(skips.length > 0 ? { skips } : {}),
    ...(strategies.length > 0 ? { strategies } : {}),
    ...(strategyLogs.length > 0 ? { strategyLogs } : {}),
    ...(trails.length > 0 ? { trails } : {}),
  };
}

/** One element of a PostgreSQL array literal: integers, booleans, null and strings only (never floats). */
function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not a safe integer: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new Error('NUL in SQL text');
    return `"${value.replace(/[\\"]/g, '\\$&')}"`;
  }
  throw new Error(`unsupported SQL parameter: ${typeof value}`);
}

/** A column of values as the text of a PostgreSQL array (`{1,NULL,"a\"b"}`). */
function arrayText(values: readonly unknown[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) text += (i > 0 ? ',' : '') + element(values[i]);
  return `${text}}`;
}

/** An account's stored state (what commands change), in the order of accountState(). */
const ACCOUNT_STATE = [
  ['trade_type', 'smallint'],
  ['leverage', 'integer'],
  ['balance', 'bigint'],
  ['follow_equity', 'bigint'],
  ['strategy_equity', 'bigint'],
  ['init_money', 'bigint'],
  ['total_in', 'bigint'],
  ['total_out', 'bigint'],
  ['margin_call_bp', 'integer'],
  ['stop_out_bp', 'integer'],
  ['margin_call', 'boolean'],
  ['negative_balance_protection', 'boolean'],
  ['restrictions', 'jsonb'],
  ['closed', 'boolean'],
  ['group_id', 'text'],
  ['followers_paused', 'boolean'],
  ['leader_suspended', 'boolean'],
] as const;

function accountState(r: TAccountRow): unknown[] {
  return [
    r.tradeType,
    r.leverage,
    r.balance,
    r.followEquity,
    r.strategyEquity,
    r.initMoney,
    r.totalInAmount,
    r.totalOutAmount,
    r.marginCallBp,
    r.stopOutBp,
    r.marginCall,
    r.negativeBalanceProtection,
    JSON.stringify(r.restrictions),
    r.closed,
    r.profile ?? null,
    r.followersPaused ?? false,
    r.leaderSuspended ?? false,
  ];
}

/**
 * The parts of a group commit: each one table's rows, as columns with their SQL types in parameter
 * order. A part with rows becomes one data-modifying CTE over `unnest` of its columns.
 */
const PARTS = {
  accountsNew: [
    ['id', 'bigint'],
    ['tenant_id', 'text'],
    ['user_id', 'text'],
    ['account_type', 'smallint'],
    ['currency', 'text'],
    ['parent_id', 'bigint'],
    ['purpose', 'text'],
    ...ACCOUNT_STATE,
  ],
  deals: [
    ['position_id', 'bigint'],
    ['account_id', 'bigint'],
    ['symbol', 'text'],
    ['side', 'text'],
    ['volume', 'integer'],
    ['open_price', 'bigint'],
    ['close_price', 'bigint'],
    ['open_time', 'bigint'],
    ['close_time', 'bigint'],
    ['profit', 'bigint'],
    ['swap', 'bigint'],
    ['commission', 'bigint'],
    ['reason', 'smallint'],
    ['parent_ticket', 'bigint'],
    ['strategy_id', 'bigint'],
  ],
  finished: [
    ['id', 'bigint'],
    ['account_id', 'bigint'],
    ['symbol', 'text'],
    ['order_type', 'text'],
    ['volume', 'integer'],
    ['price', 'bigint'],
    ['limit_price', 'bigint'],
    ['take_profit', 'bigint'],
    ['stop_loss', 'bigint'],
    ['placed_time', 'bigint'],
    ['done_time', 'bigint'],
    ['status', 'text'],
    ['cancel_reason', 'text'],
    ['position_id', 'bigint'],
    ['fill_price', 'bigint'],
    ['strategy_id', 'bigint'],
  ],
  ledger: [
    ['tx_id', 'bigint'],
    ['account_id', 'bigint'],
    ['ledger_account', 'text'],
    ['amount', 'bigint'],
    ['kind', 'text'],
    ['currency', 'text'],
    ['position_id', 'bigint'],
    ['balance_after', 'bigint'],
    ['created_at', 'bigint'],
  ],
  idempotency: [
    ['key', 'text'],
    ['fingerprint', 'text'],
    ['result', 'jsonb'],
    ['nonce', 'text'],
  ],
  accountsChanged: [['id', 'bigint'], ...ACCOUNT_STATE],
  positionsGone: [['id', 'bigint']],
  positions: [
    ['id', 'bigint'],
    ['account_id', 'bigint'],
    ['symbol', 'text'],
    ['side', 'text'],
    ['volume', 'integer'],
    ['open_price', 'bigint'],
    ['open_time', 'bigint'],
    ['take_profit', 'bigint'],
    ['stop_loss', 'bigint'],
    ['margin', 'bigint'],
    ['swap', 'bigint'],
    ['commission', 'bigint'],
    ['parent_ticket', 'bigint'],
    ['strategy_id', 'bigint'],
    ['trailing_stop', 'integer'],
  ],
  ordersGone: [['id', 'bigint']],
  orders: [
    ['id', 'bigint'],
    ['account_id', 'bigint'],
    ['symbol', 'text'],
    ['order_type', 'text'],
    ['volume', 'integer'],
    ['price', 'bigint'],
    ['limit_price', 'bigint'],
    ['activated', 'boolean'],
    ['take_profit', 'bigint'],
    ['stop_loss', 'bigint'],
    ['placed_time', 'bigint'],
    ['strategy_id', 'bigint'],
  ],
  copyRelations: [
    ['account_id', 'bigint'],
    ['leader_account_id', 'bigint'],
    ['mode', 'text'],
    ['mode_value', 'bigint'],
    ['max_volume', 'integer'],
    ['max_positions', 'integer'],
    ['max_slippage_points', 'integer'],
    ['stop_loss_bp', 'integer'],
    ['take_profit_bp', 'integer'],
    ['copy_stops', 'boolean'],
    ['copy_existing', 'boolean'],
    ['status', 'text'],
    ['stop_reason', 'text'],
    ['created_at', 'bigint'],
    ['updated_at', 'bigint'],
    ['fee_bp', 'integer'],
    ['hwm', 'bigint'],
    ['fees_paid', 'bigint'],
  ],
  copySkips: [
    ['account_id', 'bigint'],
    ['leader_account_id', 'bigint'],
    ['leader_position_id', 'bigint'],
    ['action', 'text'],
    ['reason', 'text'],
    ['volume', 'integer'],
    ['created_at', 'bigint'],
  ],
  strategies: [
    ['id', 'bigint'],
    ['account_id', 'bigint'],
    ['kind', 'text'],
    ['symbol', 'text'],
    ['state', 'text'],
    ['stop_reason', 'text'],
    ['params', 'jsonb'],
    ['runtime', 'jsonb'],
    ['realized_profit', 'bigint'],
    ['created_at', 'bigint'],
    ['updated_at', 'bigint'],
  ],
  strategyLogs: [
    ['strategy_id', 'bigint'],
    ['account_id', 'bigint'],
    ['action', 'text'],
    ['reason', 'text'],
    ['level', 'integer'],
    ['price', 'bigint'],
    ['volume', 'integer'],
    ['ticket', 'bigint'],
    ['profit', 'bigint'],
    ['created_at', 'bigint'],
  ],
  /** Trailed stop-losses of positions the group writes no row for (last move per position). */
  stopLosses: [
    ['id', 'bigint'],
    ['stop_loss', 'bigint'],
  ],
} as const satisfies Record<string, readonly (readonly [string, string])[]>;

type TPart = keyof typeof PARTS;
const PART_ORDER = Object.keys(PARTS) as TPart[];

/** A part's `select … from unnest($n::t[], …)`, its parameters numbered from `first`. */
function unnestSelect(part: TPart, first: number): string {
  const columns = PARTS[part];
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  // jsonb travels as text (an array of jsonb would quote it twice) and is cast per row.
  const params = columns.map(([, type], i) => `$${first + i}::${type === 'jsonb' ? 'text' : type}[]`);
  const list = columns.map(([name, type]) => (type === 'jsonb' ? `"${name}"::jsonb` : `"${name}"`));
  return `select ${list.join(', ')} from unnest(${params.join(', ')}) as u(${names})`;
}

const columnList = (part: TPart) => PARTS[part].map(([name]) => `"${name}"`).join(', ');
const updateSet = (columns: readonly string[], from: string) =>
  columns.map((c) => `"${c}" = ${from}."${c}"`).join(', ');

/** Each part's data-modifying statement around its select. */
const STATEMENTS: Record<TPart, (select: string) => string> = {
  accountsNew: (select) => `insert into trading_accounts (${columnList('accountsNew')}) ${select}`,
  deals: (select) => `insert into deals (${columnList('deals')}) ${select}`,
  finished: (select) =>
    `insert into order_history (${columnList('finished')}) ${select} on conflict ("id") do nothing`,
  ledger: (select) => `insert into ledger_entries (${columnList('ledger')}) ${select}`,
  idempotency: (select) =>
    `insert into engine_idempotency (${columnList('idempotency')}) ${select} on conflict ("key") do nothing`,
  accountsChanged: (select) =>
    `update trading_accounts as t set ${updateSet(
      PARTS.accountsChanged.slice(1).map(([name]) => name),
      'v',
    )}, "updated_at" = now() from (${select}) as v where t.id = v.id`,
  positionsGone: (select) => `delete from positions where id in (${select})`,
  positions: (select) =>
    `insert into positions (${columnList('positions')}) ${select} on conflict ("id") do update set ${updateSet(['volume', 'take_profit', 'stop_loss', 'margin', 'swap', 'commission', 'parent_ticket', 'trailing_stop'], 'excluded')}`,
  ordersGone: (select) => `delete from pending_orders where id in (${select})`,
  orders: (select) =>
    `insert into pending_orders (${columnList('orders')}) ${select} on conflict ("id") do update set ${updateSet(['volume', 'price', 'limit_price', 'activated', 'take_profit', 'stop_loss'], 'excluded')}`,
  copyRelations: (select) =>
    `insert into copy_relations (${columnList('copyRelations')}) ${select} on conflict ("account_id") do update set ${updateSet(
      PARTS.copyRelations.slice(1).map(([name]) => name),
      'excluded',
    )}`,
  copySkips: (select) => `insert into copy_skips (${columnList('copySkips')}) ${select}`,
  strategies: (select) =>
    `insert into strategies (${columnList('strategies')}) ${select} on conflict ("id") do update set ${updateSet(
      ['state', 'stop_reason', 'params', 'runtime', 'realized_profit', 'updated_at'],
      'excluded',
    )}`,
  strategyLogs: (select) => `insert into strategy_logs (${columnList('strategyLogs')}) ${select}`,
  stopLosses: (select) =>
    `update positions as t set "stop_loss" = v."stop_loss" from (${select}) as v where t.id = v.id`,
};

const commitStatements = new Map<number, { name: string; text: string }>();

/** SQLSTATE of engine_fence's refusal: a newer epoch exists (migration 028, ADR 013). */
export const FENCED_OFF = 'BF001';

/** Whether a commit failed because its epoch was fenced off by a newer leader's. */
export function isFencedOff(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === FENCED_OFF;
}

/**
 * The fenced commit's main query, which runs before the data-modifying CTEs. engine_fence is the
 * leadership module's (migration 028): it holds the epoch row FOR SHARE, so a newer leader's bump
 * of the epoch waits for this commit to end, and raises BF001 when the row no longer has this epoch
 * (read committed re-checks the newest version), which undoes the whole statement.
 */
const fence = (param: number) => `select engine_fence($${param}::bigint)`;

/**
 * The group commit as ONE statement: a data-modifying CTE for each part that has rows, in PART_ORDER
 * (positions and pending orders get a delete and an upsert on disjoint ids). One statement is one
 * transaction, all or nothing. The text depends only on which parts are present (`mask`), so
 * PostgreSQL prepares each shape once per connection; a market order's group is always the same
 * shape. Against multi-row INSERTs with literal values, PostgreSQL spends about a third less CPU
 * per order: it parses no literals (ADR 009, bench/RESULTS.md).
 *
 * A fenced statement (the engine's, ADR 013) ends with the fence (see `fence`), the leader's epoch
 * as its last parameter: a refusal (SQLSTATE BF001) undoes the whole statement. Unfenced statements
 * (`select 1`) are for engines outside a lease (tests' scratch engines).
 */
export function commitStatement(mask: number, fenced = false): { name: string; text: string } {
  const key = fenced ? -mask : mask;
  let statement = commitStatements.get(key);
  if (!statement) {
    const ctes: string[] = [];
    let next = 1;
    PART_ORDER.forEach((part, i) => {
      if ((mask & (1 << i)) === 0) return;
      ctes.push(`p${i} as (${STATEMENTS[part](unnestSelect(part, next))})`);
      next += PARTS[part].length;
    });
    statement = fenced
      ? {
          name: `engine_commit_f${mask}`,
          text: `with ${ctes.join(',\n')}\n${fence(next)}`,
        }
      : { name: `engine_commit_${mask}`, text: `with ${ctes.join(',\n')}\nselect 1` };
    commitStatements.set(key, statement);
  }
  return statement;
}

/** Rows of one part, as one value array per column in PARTS order. */
class Columns {
  readonly values: unknown[][];
  length = 0;
  constructor(part: TPart) {
    this.values = PARTS[part].map(() => []);
  }
  push(...row: unknown[]) {
    // A row that does not match its columns would shift every value after the gap.
    if (row.length !== this.values.length)
      throw new Error(`a row of ${row.length} values for ${this.values.length} columns`);
    for (let i = 0; i < row.length; i++) this.values[i]?.push(row[i]);
    this.length++;
  }
}

/**
 * Writes one group of accepted commands and ticks in one statement (see commitStatement). An
 * account row equal to the one last written is left out: a market order without commission
 * changes positions, not the account row. With `epoch`, the statement is fenced: the database
 * refuses it (isFencedOff) unless that epoch is still the engine lease's current one.
 */
export async function persistBatch(
  database: TDatabase,
  items: readonly TBatchItem[],
  written?: Map<number, string>,
  epoch?: number,
): Promise<void> {
  const parts = Object.fromEntries(PART_ORDER.map((part) => [part, new Columns(part)])) as Record<
    TPart,
    Columns
  >;
  const owners: TAccountOwner[] = [];
  for (const item of items) {
    if (item.owner && item.states.has(item.owner.accountId)) owners.push(item.owner);
    for (const d of item.deals)
      parts.deals.push(
        d.position_id,
        d.account_id,
        d.symbol,
        d.side,
        d.volume,
        d.open_price,
        d.close_price,
        d.open_time,
        d.close_time,
        d.profit,
        d.swap,
        d.commission,
        d.reason,
        d.parent_ticket ?? null,
        d.strategy_id ?? null,
      );
    for (const f of item.finished)
      parts.finished.push(
        f.id,
        f.account_id,
        f.symbol,
        f.order_type,
        f.volume,
        f.price,
        f.limit_price,
        f.take_profit,
        f.stop_loss,
        f.placed_time,
        f.done_time,
        f.status,
        f.cancel_reason,
        f.position_id,
        f.fill_price,
        f.strategy_id ?? null,
      );
    for (const l of item.ledger)
      parts.ledger.push(
        l.tx_id,
        l.account_id,
        l.ledger_account,
        l.amount,
        l.kind,
        l.currency,
        l.position_id,
        l.balance_after,
        l.created_at,
      );
    for (const k of item.skips ?? [])
      parts.copySkips.push(
        k.account_id,
        k.leader_account_id,
        k.leader_position_id,
        k.action,
        k.reason,
        k.volume,
        k.created_at,
      );
    for (const g of item.strategyLogs ?? [])
      parts.strategyLogs.push(
        g.strategy_id,
        g.account_id,
        g.action,
        g.reason,
        g.level,
        g.price,
        g.volume,
        g.ticket,
        g.profit,
        g.created_at,
      );
    if (item.idempotency)
      parts.idempotency.push(
        item.idempotency.key,
        item.idempotency.fingerprint,
        JSON.stringify(item.idempotency.result),
        item.idempotency.nonce ?? null,
      );
  }
  // Later captures win: the account row and each position or order as last seen in the group.
  const latestRows = new Map<number, TAccountRow>();
  const positions = new Map<number, TPositionRow | null>();
  const orders = new Map<number, TOrderView | null>();
  const relations = new Map<number, TCopyRelationView>();
  const strategies = new Map<number, TStrategyView>();
  // Trailed stop-losses of positions without a row in this group: the last move of each.
  const trailed = new Map<number, number>();
  for (const item of items) {
    for (const relation of item.relations ?? []) relations.set(relation.accountId, relation);
    for (const strategy of item.strategies ?? []) strategies.set(strategy.strategyId, strategy);
    for (const [id, state] of item.states) {
      latestRows.set(id, state.row);
      for (const [k, v] of state.positions) {
        positions.set(k, v);
        trailed.delete(k);
      }
      for (const [k, v] of state.orders) orders.set(k, v);
    }
    for (const [id, stopLoss] of item.trails ?? []) {
      // A position written (or deleted) by this group takes the move into its row; the others get
      // one update of their stop-loss (an upsert and an update of one row in one statement clash).
      const row = positions.get(id);
      if (row === undefined) trailed.set(id, stopLoss);
      else if (row !== null) positions.set(id, { ...row, stopLoss });
    }
  }
  // A new account is inserted as last seen in the group (a later command may have changed it).
  const newAccounts = new Set<number>();
  for (const owner of owners) {
    const r = latestRows.get(owner.accountId);
    if (!r || newAccounts.has(owner.accountId)) continue;
    newAccounts.add(owner.accountId);
    parts.accountsNew.push(
      owner.accountId,
      owner.tenantId,
      owner.userId,
      r.accountType,
      r.currency,
      r.parentId ?? null,
      r.purpose ?? null,
      ...accountState(r),
    );
  }
  const accountTexts = new Map<number, string>();
  for (const [id, r] of latestRows) {
    const state = accountState(r);
    const text = state.join('|');
    accountTexts.set(id, text);
    if (newAccounts.has(id) || written?.get(id) === text) continue;
    parts.accountsChanged.push(id, ...state);
  }
  for (const [id, p] of positions)
    if (!p) parts.positionsGone.push(id);
    else
      parts.positions.push(
        p.positionId,
        p.accountId,
        p.symbol,
        p.side,
        p.volume,
        p.openPrice,
        p.openTime,
        p.takeProfit,
        p.stopLoss,
        p.margin,
        p.swap,
        p.commission,
        p.parentTicket ?? null,
        p.strategyId ?? null,
        p.trailingStop ?? null,
      );
  for (const [id, stopLoss] of trailed) parts.stopLosses.push(id, stopLoss);
  for (const [id, o] of orders)
    if (!o) parts.ordersGone.push(id);
    else
      parts.orders.push(
        o.orderId,
        o.accountId,
        o.symbol,
        o.type,
        o.volume,
        o.price,
        o.limitPrice,
        o.activated,
        o.takeProfit,
        o.stopLoss,
        o.time,
        o.strategyId ?? null,
      );
  for (const r of relations.values())
    parts.copyRelations.push(
      r.accountId,
      r.leaderAccountId,
      r.mode,
      r.modeValue,
      r.maxVolume,
      r.maxPositions,
      r.maxSlippagePoints,
      r.stopLossBp,
      r.takeProfitBp,
      r.copyStops,
      r.copyExisting,
      r.status,
      r.stopReason,
      r.createdAt,
      r.updatedAt,
      r.feeBp,
      r.hwm,
      r.feesPaid,
    );
  for (const v of strategies.values()) {
    const { strategyId, accountId, kind, params, state, stopReason, createdAt, updatedAt, ...runtime } = v;
    parts.strategies.push(
      strategyId,
      accountId,
      kind,
      params.symbol,
      state,
      stopReason,
      JSON.stringify(params),
      JSON.stringify(runtime),
      runtime.realizedProfit,
      createdAt,
      updatedAt,
    );
  }
  let mask = 0;
  const params: string[] = [];
  PART_ORDER.forEach((part, i) => {
    if (parts[part].length === 0) return;
    mask |= 1 << i;
    for (const column of parts[part].values) params.push(arrayText(column));
  });
  if (mask === 0) return;
  const fenced = epoch !== undefined;
  if (fenced) params.push(String(epoch));
  const { name, text } = commitStatement(mask, fenced);
  await database.run(name, text, params);
  // Only once committed: the rows the database now holds.
  if (written) for (const [id, text] of accountTexts) written.set(id, text);
}

/** The engine's durable state as a snapshot to restore from (quotes come from the feed). */
export async function loadSnapshot(db: TDb): Promise<TEngineSnapshot> {
  const [maxima, accounts, positions, orders, relations, strategies, idempotency] = await Promise.all([
    sql<{ ticket: string | null; tx: string | null }>`
      select greatest(
        (select max(id) from positions), (select max(id) from pending_orders),
        (select max(position_id) from deals), (select max(id) from order_history),
        (select max(position_id) from order_history)
      ) as ticket, (select max(tx_id) from ledger_entries) as tx`.execute(db),
    db.selectFrom('trading_accounts').selectAll().orderBy('id').execute(),
    db.selectFrom('positions').selectAll().orderBy('id').execute(),
    db.selectFrom('pending_orders').selectAll().orderBy('id').execute(),
    db
      .selectFrom('copy_relations')
      .selectAll()
      .where('status', '!=', 'stopped')
      .orderBy('account_id')
      .execute(),
    db.selectFrom('strategies').selectAll().where('state', '!=', 'stopped_closed').orderBy('id').execute(),
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
      parentId: a.parent_id === null ? null : Number(a.parent_id),
      purpose: a.purpose,
      followersPaused: a.followers_paused,
      leaderSuspended: a.leader_suspended,
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
      parentTicket: n(p.parent_ticket),
      strategyId: n(p.strategy_id),
      trailingStop: p.trailing_stop ?? null,
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
      strategyId: n(o.strategy_id),
    })),
    strategies: strategies.map(
      (r) =>
        ({
          strategyId: Number(r.id),
          accountId: Number(r.account_id),
          kind: r.kind,
          params: json(r.params),
          state: r.state,
          stopReason: r.stop_reason,
          createdAt: Number(r.created_at),
          updatedAt: Number(r.updated_at),
          ...(json(r.runtime) as object),
        }) as TStrategyView,
    ),
    copyRelations: relations.map((r) => ({
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
      status: r.status,
      stopReason: null,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
      feeBp: r.fee_bp,
      hwm: Number(r.hwm),
      feesPaid: Number(r.fees_paid),
    })),
    idempotency: idempotency.map((i) => ({
      key: i.key,
      fingerprint: i.fingerprint,
      result: (typeof i.result === 'string' ? JSON.parse(i.result) : i.result) as never,
    })),
  };
}

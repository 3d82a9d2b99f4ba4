import type { TAccountRow, TOrderView, TPositionRow } from '@broker/domain/trading/engine-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import {
  commitStatement,
  persistBatch,
  type TAccountState,
  type TBatchItem,
} from '../../src/modules/trading/persistence';
import { freshDatabaseUrl } from '../helpers';

/** The group commit on in-memory PGlite, and on the PostgreSQL server when DATABASE_URL names one. */
const servers: [string, () => Promise<{ url: string; drop: () => Promise<void> }>][] = [
  ['PGlite', async () => ({ url: 'memory://', drop: async () => undefined })],
];
if (process.env.DATABASE_URL?.startsWith('postgres')) servers.push(['PostgreSQL', freshDatabaseUrl]);

/** Text that breaks naive quoting at every level: SQL, the array literal, and JSON. */
const AWKWARD = `it's "quoted", {braced}, back\\slash, NULL, comma,space ünïcødé 🙂`;

const ACCOUNT = 99_000_001;

function accountRow(balance: number, restrictions = { noOpen: false, noClose: true }): TAccountRow {
  return {
    accountId: ACCOUNT,
    accountType: 1,
    tradeType: 2,
    currency: 'USD',
    leverage: 100,
    balance,
    followEquity: 0,
    strategyEquity: 0,
    initMoney: 10_000_000,
    totalInAmount: 0,
    totalOutAmount: 0,
    marginCallBp: 10_000,
    stopOutBp: 5_000,
    marginCall: false,
    negativeBalanceProtection: true,
    restrictions: { noTakeProfit: false, noStopLoss: false, noWithdrawal: false, ...restrictions },
    closed: false,
    profile: null,
  };
}

const position: TPositionRow = {
  positionId: 501,
  accountId: ACCOUNT,
  symbol: 'BTCUSDT',
  side: 'buy',
  volume: 100,
  openPrice: 6_733_750,
  openTime: 1_763_900_000_000,
  takeProfit: null,
  stopLoss: 6_500_000,
  margin: 67_337,
  swap: 0,
  commission: -120,
};

const order: TOrderView = {
  orderId: 502,
  accountId: ACCOUNT,
  symbol: 'ETHUSDT',
  type: 'buy_stop_limit',
  volume: 5,
  price: 350_000,
  limitPrice: 349_000,
  activated: false,
  takeProfit: 360_000,
  stopLoss: null,
  time: 1_763_900_000_500,
  strategyId: null,
};

function state(
  row: TAccountRow,
  positions: [number, TPositionRow | null][],
  orders: [number, TOrderView | null][],
) {
  return new Map<number, TAccountState>([
    [ACCOUNT, { row, positions: new Map(positions), orders: new Map(orders) }],
  ]);
}

describe.each(servers)('the group commit (%s)', (_name, fresh) => {
  let database: TDatabase;
  let drop: () => Promise<void>;
  const rows = async <R>(text: string) => database.withConnection((c) => c.rows<R>(text));

  beforeAll(async () => {
    const target = await fresh();
    drop = target.drop;
    database = await openDatabase({ url: target.url, dataDir: '/tmp/group-commit-test' });
    await migrate(database);
    await database.exec(`insert into tenants (id, slug, name) values ('tg', 'tg', 'G');
      insert into users (id, tenant_id, email, password_hash, display_name)
        values ('ug', 'tg', 'g@example.com', 'x', 'G');`);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('writes every part in one statement, with awkward text intact', async () => {
    const opened: TBatchItem = {
      events: [],
      owner: { accountId: ACCOUNT, tenantId: 'tg', userId: 'ug' },
      states: state(accountRow(10_000_000), [], []),
      deals: [],
      finished: [],
      ledger: [],
    };
    const traded: TBatchItem = {
      events: [],
      states: state(accountRow(9_999_880), [[501, position]], [[502, order]]),
      deals: [
        {
          position_id: 400,
          account_id: ACCOUNT,
          symbol: 'EURUSD',
          side: 'sell',
          volume: 10,
          open_price: 108_000,
          close_price: 107_950,
          open_time: 1,
          close_time: 2,
          profit: 50,
          swap: -3,
          commission: -7,
          reason: 4,
        },
      ],
      finished: [
        {
          id: 503,
          account_id: ACCOUNT,
          symbol: 'XAUUSD',
          order_type: 'sell_limit',
          volume: 1,
          price: 270_000,
          limit_price: null,
          take_profit: null,
          stop_loss: null,
          placed_time: 3,
          done_time: 4,
          status: 'cancelled',
          cancel_reason: AWKWARD,
          position_id: null,
          fill_price: null,
        },
      ],
      ledger: [
        {
          tx_id: 77,
          account_id: ACCOUNT,
          ledger_account: 'client',
          amount: -120,
          kind: 'commission',
          currency: 'USD',
          position_id: 501,
          balance_after: 9_999_880,
          created_at: 5,
        },
        {
          tx_id: 77,
          account_id: ACCOUNT,
          ledger_account: 'broker:commission',
          amount: 120,
          kind: 'commission',
          currency: 'USD',
          position_id: null,
          balance_after: 9_999_880,
          created_at: 5,
        },
      ],
      idempotency: {
        key: `${ACCOUNT}:${AWKWARD}`,
        fingerprint: AWKWARD,
        result: { ok: true, note: AWKWARD, list: [1, null] },
      },
    };
    const written = new Map<number, string>();
    await persistBatch(database, [opened, traded], written);

    const [account] = await rows<{ balance: string; restrictions: unknown }>(
      `select balance, restrictions from trading_accounts where id = ${ACCOUNT}`,
    );
    // The account is inserted with its last row in the group (the later capture wins).
    expect(Number(account?.balance)).toBe(9_999_880);
    const restrictions =
      typeof account?.restrictions === 'string' ? JSON.parse(account.restrictions) : account?.restrictions;
    expect(restrictions).toMatchObject({ noClose: true, noOpen: false });
    expect(
      await rows(`select id::text, stop_loss::text, take_profit::text, commission::text from positions`),
    ).toEqual([{ id: '501', stop_loss: '6500000', take_profit: null, commission: '-120' }]);
    expect(
      await rows(
        `select id::text, order_type, limit_price::text, stop_loss::text, activated from pending_orders`,
      ),
    ).toEqual([
      { id: '502', order_type: 'buy_stop_limit', limit_price: '349000', stop_loss: null, activated: false },
    ]);
    expect(await rows(`select reason, profit::text from deals`)).toEqual([{ reason: 4, profit: '50' }]);
    expect(await rows(`select cancel_reason, fill_price::text from order_history where id = 503`)).toEqual([
      { cancel_reason: AWKWARD, fill_price: null },
    ]);
    expect(
      await rows(`select sum(amount)::int as total, count(*)::int as n from ledger_entries where tx_id = 77`),
    ).toEqual([{ total: 0, n: 2 }]);
    const [stored] = await rows<{ key: string; fingerprint: string; result: unknown }>(
      `select key, fingerprint, result from engine_idempotency`,
    );
    expect(stored?.key).toBe(`${ACCOUNT}:${AWKWARD}`);
    expect(stored?.fingerprint).toBe(AWKWARD);
    const result = typeof stored?.result === 'string' ? JSON.parse(stored.result) : stored?.result;
    expect(result).toEqual({ ok: true, note: AWKWARD, list: [1, null] });
    expect(written.has(ACCOUNT)).toBe(true);

    // The next group closes the position, fills the order and moves the balance; an account row
    // equal to the one written before is left out of the statement.
    await persistBatch(
      database,
      [
        {
          events: [],
          states: state(accountRow(10_000_100), [[501, null]], [[502, null]]),
          deals: [],
          finished: [],
          ledger: [],
        },
      ],
      written,
    );
    expect(await rows(`select count(*)::int as n from positions`)).toEqual([{ n: 0 }]);
    expect(await rows(`select count(*)::int as n from pending_orders`)).toEqual([{ n: 0 }]);
    expect(await rows(`select balance::text from trading_accounts where id = ${ACCOUNT}`)).toEqual([
      { balance: '10000100' },
    ]);
  });

  it('is all or nothing: a failing part leaves every other part unwritten', async () => {
    const before = await rows(`select count(*)::int as n from order_history`);
    const broken: TBatchItem = {
      events: [],
      states: state(accountRow(1), [[601, { ...position, positionId: 601 }]], []),
      deals: [],
      finished: [
        {
          id: 602,
          account_id: ACCOUNT,
          symbol: 'BTCUSDT',
          order_type: 'buy',
          volume: 1,
          price: 1,
          limit_price: null,
          take_profit: null,
          stop_loss: null,
          placed_time: 1,
          done_time: 1,
          status: 'filled',
          cancel_reason: null,
          position_id: 601,
          fill_price: 1,
        },
      ],
      // An account that does not exist: the foreign key fails the statement.
      ledger: [
        {
          tx_id: 78,
          account_id: 12_345,
          ledger_account: 'client',
          amount: 1,
          kind: 'deposit',
          currency: 'USD',
          position_id: null,
          balance_after: 1,
          created_at: 1,
        },
      ],
    };
    await expect(persistBatch(database, [broken])).rejects.toThrow();
    expect(await rows(`select count(*)::int as n from order_history`)).toEqual(before);
    expect(await rows(`select count(*)::int as n from positions`)).toEqual([{ n: 0 }]);
    expect(await rows(`select balance::text from trading_accounts where id = ${ACCOUNT}`)).toEqual([
      { balance: '10000100' },
    ]);

    // The same shape commits once the data is right (a failed attempt leaves nothing in the way).
    await persistBatch(database, [
      { ...broken, ledger: [{ ...(broken.ledger[0] as TBatchItem['ledger'][number]), account_id: ACCOUNT }] },
    ]);
    expect(await rows(`select count(*)::int as n from positions`)).toEqual([{ n: 1 }]);
  });

  it('writes nothing for an empty group, and one statement text per shape', async () => {
    await persistBatch(database, [{ events: [], states: new Map(), deals: [], finished: [], ledger: [] }]);
    expect(commitStatement(5)).toBe(commitStatement(5));
    expect(commitStatement(5).text).not.toBe(commitStatement(6).text);
    // Parameters are numbered from 1 in every shape.
    expect(commitStatement(1 << 4).text).toContain('$1::text[]');
  });
});

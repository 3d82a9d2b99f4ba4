import { CloseReason } from '@broker/domain/trading/orders';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { pushTick } from '../helpers';
import { fundedSubAccount, restartableServers, submitCommand } from '../restart';
import { Trader } from '../trader';

/**
 * Strategy bots' engine side against the real server and database (PGlite on disk, or PostgreSQL
 * when DATABASE_URL names one): bots started through engine commands place their orders with their
 * strategy id in the same group commit as the bot's own row, and a server started again on the same
 * database finds every bot where it was, with nothing placed twice; a kept position closed later is
 * close reason 6.
 */
const servers = restartableServers('strategy-engine');
const boot = () => servers.boot();
const fundedStrategyAccount = (trader: Trader, main: number, amount: string, key: string) =>
  fundedSubAccount(trader, { main, purpose: 'strategy', amount, key });
const submit = submitCommand;

describe('strategy engine on the server', () => {
  it('persists bots with their orders, restores them exactly after a restart, and closes kept positions with reason 6', {
    timeout: 120_000,
  }, async () => {
    let server = await boot();
    // prices in points (hundredths of a dollar); the helper takes dollars; a spread of 25.00
    const tick = (bid: number) => pushTick(server, 'BTCUSDT', bid / 100, bid / 100 + 25);
    tick(6_725_000);
    const trader = await Trader.signIn(server.baseUrl);
    const main = await trader.createAccount(1, 2, 100);
    const gridAccount = await fundedStrategyAccount(trader, main, '20000.00', 'grid');
    const dcaAccount = await fundedStrategyAccount(trader, main, '20000.00', 'dca');

    // A long BTCUSDT grid from 66,000.00 to 67,200.00 in 4 cells of 300.00, 0.01 lot a cell.
    await submit(server, 'grid-start', {
      type: 'start_strategy',
      accountId: gridAccount,
      strategyId: 101,
      kind: 'grid',
      params: {
        symbol: 'BTCUSDT',
        direction: 'long',
        lowerPrice: 6_600_000,
        upperPrice: 6_720_000,
        grids: 4,
        spacing: 'arithmetic',
        volumePerGrid: 1,
      },
    });
    // A long martingale: 0.01 lot, adds every 1 %, x2, at most 3, take-profit 0.5 % from the average.
    await submit(server, 'dca-start', {
      type: 'start_strategy',
      accountId: dcaAccount,
      strategyId: 102,
      kind: 'martingale',
      params: {
        symbol: 'BTCUSDT',
        direction: 'long',
        firstVolume: 1,
        stepBp: 100,
        multiplierBp: 20_000,
        maxAdds: 3,
        takeProfitBp: 50,
      },
    });
    const core = () => server.app.services.engine.core;
    expect(
      core()
        .ordersOf(gridAccount)
        .map((o) => [o.price, o.takeProfit, o.strategyId]),
    ).toEqual([
      [6_600_000, 6_630_000, 101],
      [6_630_000, 6_660_000, 101],
      [6_660_000, 6_690_000, 101],
      [6_690_000, 6_720_000, 101],
    ]);
    // the price falls through two grid levels and the martingale's first add
    tick(6_680_000);
    tick(6_655_000);
    await server.app.services.engine.idle();
    expect(
      core()
        .positionsOf(gridAccount)
        .map((p) => p.strategyId),
    ).toEqual([101, 101]);
    expect(core().strategy(102)!.strategy.martingale!.adds).toBe(1);
    const db = server.app.services.database.db;
    const stored = await db
      .selectFrom('strategies')
      .select(['id', 'kind', 'state', 'symbol'])
      .orderBy('id')
      .execute();
    expect(stored.map((r) => [Number(r.id), r.kind, r.state, r.symbol])).toEqual([
      [101, 'grid', 'running', 'BTCUSDT'],
      [102, 'martingale', 'running', 'BTCUSDT'],
    ]);
    const storedOrders = await db
      .selectFrom('pending_orders')
      .select(['id', 'strategy_id'])
      .orderBy('id')
      .execute();
    expect(storedOrders.every((o) => o.strategy_id !== null)).toBe(true);
    const logs = await db
      .selectFrom('strategy_logs')
      .select(['strategy_id', 'action'])
      .orderBy('id')
      .execute();
    expect(logs.map((l) => l.action)).toContain('filled');
    expect(logs.map((l) => l.action)).toContain('added');

    const before = {
      grid: core().strategy(101),
      dca: core().strategy(102),
      gridOrders: core().ordersOf(gridAccount),
      dcaOrders: core().ordersOf(dcaAccount),
      gridPositions: core()
        .positionsOf(gridAccount)
        .map(({ profit: _p, ...p }) => p),
      dcaPositions: core()
        .positionsOf(dcaAccount)
        .map(({ profit: _p, ...p }) => p),
    };
    await server.close();

    // ---- a new server on the same database
    server = await boot();
    tick(6_655_000);
    expect(core().strategy(101)!.strategy).toEqual(before.grid!.strategy);
    expect(core().strategy(102)!.strategy).toEqual(before.dca!.strategy);
    expect(core().ordersOf(gridAccount)).toEqual(before.gridOrders);
    expect(core().ordersOf(dcaAccount)).toEqual(before.dcaOrders);
    expect(
      core()
        .positionsOf(gridAccount)
        .map(({ profit: _p, ...p }) => p),
    ).toEqual(before.gridPositions);
    expect(
      core()
        .positionsOf(dcaAccount)
        .map(({ profit: _p, ...p }) => p),
    ).toEqual(before.dcaPositions);
    expect(core().checkInvariants()).toEqual([]);
    // the start sent again under its key answers its first result and places nothing twice
    const again = await server.app.services.engine.submit({
      type: 'start_strategy',
      clientKey: 'grid-start',
      time: Date.now(),
      accountId: gridAccount,
      strategyId: 101,
      kind: 'grid',
      params: {
        symbol: 'BTCUSDT',
        direction: 'long',
        lowerPrice: 6_600_000,
        upperPrice: 6_720_000,
        grids: 4,
        spacing: 'arithmetic',
        volumePerGrid: 1,
      },
    });
    expect(again.ok).toBe(true);
    expect(core().ordersOf(gridAccount)).toHaveLength(2);

    // back up one level: the 66,600.00 cell takes its profit (reason 3) and is armed again
    tick(6_690_000);
    await server.app.services.engine.idle();
    expect(core().strategy(101)!.strategy.realizedProfit).toBeGreaterThan(0);

    // the trader stops the grid keeping its position, then closes it: reason 6
    await submit(server, 'grid-stop', {
      type: 'stop_strategy',
      accountId: gridAccount,
      strategyId: 101,
      closePositions: false,
    });
    expect(core().strategy(101)!.strategy.state).toBe('stopped_open');
    const kept = core().positionsOf(gridAccount)[0]!;
    await submit(server, 'grid-close-kept', {
      type: 'close_position',
      accountId: gridAccount,
      positionId: kept.positionId,
    });
    expect(core().strategy(101)).toBeUndefined();
    // and the martingale stopped, closing: reason 6
    await submit(server, 'dca-stop', {
      type: 'stop_strategy',
      accountId: dcaAccount,
      strategyId: 102,
      closePositions: true,
    });
    await server.app.services.engine.idle();

    const db2 = server.app.services.database.db;
    const rows = await db2
      .selectFrom('strategies')
      .select(['id', 'state', 'stop_reason'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [Number(r.id), r.state, r.stop_reason])).toEqual([
      [101, 'stopped_closed', 'client'],
      [102, 'stopped_closed', 'client'],
    ]);
    const deals = await db2
      .selectFrom('deals')
      .select(['account_id', 'reason', 'strategy_id'])
      .where('account_id', 'in', [gridAccount, dcaAccount])
      .orderBy('id')
      .execute();
    expect(deals.every((d) => d.strategy_id !== null)).toBe(true);
    expect(deals.filter((d) => Number(d.account_id) === gridAccount).map((d) => d.reason)).toEqual([
      CloseReason.TAKE_PROFIT_OR_STOP_LOSS,
      CloseReason.STRATEGY_STOPPED_ACTIVELY,
    ]);
    expect(new Set(deals.filter((d) => Number(d.account_id) === dcaAccount).map((d) => d.reason))).toEqual(
      new Set([CloseReason.STRATEGY_STOPPED_ACTIVELY]),
    );
    const history = await db2
      .selectFrom('order_history')
      .select(['strategy_id'])
      .where('account_id', 'in', [gridAccount, dcaAccount])
      .execute();
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((h) => h.strategy_id !== null)).toBe(true);
    const unbalanced =
      await sql`select tx_id from ledger_entries group by tx_id having sum(amount) <> 0`.execute(db2);
    expect(unbalanced.rows).toEqual([]);
    await server.close();
  });
});

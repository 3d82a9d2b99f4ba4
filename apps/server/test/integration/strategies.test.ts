import { randomUUID } from 'node:crypto';
import { STRATEGY_PATHS } from '@broker/contracts/strategy-paths';
import { CloseReason } from '@broker/domain/trading/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTick, startTestServer, type TTestServer } from '../helpers';
import { Trader } from '../trader';

/**
 * Strategy bots through their routes (spec 7.8 `strategy` family; spec 7.10 create, list and stop),
 * on the real server and database: the worst case before launch and the refusal of a bot that
 * breaches the margin rules, a grid created on a funded strategy account that buys a level and takes
 * its profit, stopped keeping its position (closed later by the trader with reason 6), the money back,
 * a martingale with its log, novice mode refused, and another trader's bot out of reach.
 */
let server: TTestServer;
let trader: Trader;
let demo: number;
const engine = () => server.app.services.engine;

async function tick(bid: number) {
  pushTick(server, 'BTCUSDT', bid, bid + 50);
  await expect
    .poll(() => Math.abs((engine().core.quote('BTCUSDT')?.bid ?? 0) - bid * 100), { interval: 5 })
    .toBeLessThan(1_000);
  // what the bots did on this tick (their log, their rows) is committed before a test reads the database
  await engine().idle();
}

beforeAll(async () => {
  server = await startTestServer({ FEED: 'off' });
  pushTick(server, 'BTCUSDT', 67_000, 67_050);
  trader = await Trader.signIn(server.baseUrl);
  demo = await trader.createAccount(1, 2, 100);
});
afterAll(() => server.close());

type TName = keyof typeof STRATEGY_PATHS;
const call = (who: Trader, name: TName, input: Record<string, unknown>) =>
  who.call(STRATEGY_PATHS[name], input);
async function ok(who: Trader, name: TName, input: Record<string, unknown>) {
  const answer = await call(who, name, input);
  expect(answer.body.success, `${name}: ${answer.body.message} ${JSON.stringify(answer.body.fields)}`).toBe(
    true,
  );
  return answer.body.data;
}

/** A long BTCUSDT grid 66,000–67,000 in 4 cells of 250.00, 0.01 lot each. */
const GRID = {
  kind: 'grid',
  params: {
    symbol: 'BTCUSDT',
    direction: 'long',
    lowerPrice: '66000.00',
    upperPrice: '67000.00',
    grids: 4,
    spacing: 'arithmetic',
    volumePerGrid: '0.01',
  },
};

describe('strategy routes', { timeout: 60_000 }, () => {
  it('shows the worst case before launch and refuses a bot whose margin call comes inside its range', async () => {
    await tick(67_000);
    const preview = await ok(trader, 'strategypreview', {
      account_id: demo,
      investment: '1000.00',
      spec: GRID,
    });
    expect(preview.levels).toEqual(['66000.00', '66250.00', '66500.00', '66750.00', '67000.00']);
    expect(Number(preview.worstCase.maxMargin)).toBeGreaterThan(0);
    expect(preview.worstCase.breachesMarginRules, JSON.stringify(preview)).toBe(false);
    // the same grid at 1.00 lot a cell on 1,000.00: the margin call would come inside the range
    const heavy = { ...GRID, params: { ...GRID.params, volumePerGrid: '1.00' } };
    const risky = await ok(trader, 'strategypreview', {
      account_id: demo,
      investment: '1000.00',
      spec: heavy,
    });
    expect(risky.worstCase.breachesMarginRules, JSON.stringify(risky)).toBe(true);
    const refused = await call(trader, 'strategycreate', {
      account_id: demo,
      investment: '1000.00',
      spec: heavy,
      idempotencyKey: randomUUID(),
    });
    expect(refused.body.code).toBe(-5208);
    // a malformed parameter: a clear field error, nothing started
    const bad = await call(trader, 'strategypreview', {
      account_id: demo,
      investment: '1000.00',
      spec: { ...GRID, params: { ...GRID.params, grids: 1 } },
    });
    expect(bad.body.code).toBe(-9001);
  });

  it('runs a grid: buys a level, takes its profit, stops keeping a position, and gives the money back', async () => {
    await tick(67_000);
    const before = engine().core.account(demo)!.balance;
    const key = randomUUID();
    const bot = await ok(trader, 'strategycreate', {
      account_id: demo,
      investment: '1000.00',
      spec: GRID,
      idempotencyKey: key,
    });
    // a retry of the same request answers the same bot and moves no money twice
    const again = await ok(trader, 'strategycreate', {
      account_id: demo,
      investment: '1000.00',
      spec: GRID,
      idempotencyKey: key,
    });
    expect(again.strategy_id).toBe(bot.strategy_id);
    expect(engine().core.account(demo)!.balance).toBe(before - 100_000);
    expect(bot).toMatchObject({
      state: 'running',
      kind: 'grid',
      investment: '1000.00',
      openOrders: 4,
      parent_account_id: demo,
    });
    // every order of the bot says so (spec 3 strategy order), in the trading calls the terminal reads
    const pending = await trader.call('/api/v1/order/pending', { account_id: bot.account_id });
    expect(pending.body.data.map((o: { strategy_id: number | null }) => o.strategy_id)).toEqual(
      Array(4).fill(bot.strategy_id),
    );
    // the ask reaches 66,750.00: the top cell buys; the bid comes back to 67,000.00: it takes 250.00 x 0.01
    await tick(66_700);
    await tick(67_000);
    const list = await ok(trader, 'strategylist', {});
    const running = list.items.find((s: { strategy_id: number }) => s.strategy_id === bot.strategy_id);
    expect(running).toMatchObject({ state: 'running', realizedProfit: '2.50', closedTrades: 1 });

    // the lowest cell: buy again at 66,750, then stop keeping the position
    await tick(66_700);
    const stopped = await ok(trader, 'strategystop', {
      strategy_id: bot.strategy_id,
      closePositions: false,
      idempotencyKey: randomUUID(),
    });
    expect(stopped.strategy).toMatchObject({ state: 'stopped_open', stopReason: 'client', openOrders: 0 });
    expect(stopped.returned).toBe('0.00');
    const kept = engine().core.positionsOf(bot.account_id);
    expect(kept).toHaveLength(1);
    const open = await trader.call('/api/v1/order/positions', { account_id: bot.account_id });
    expect(open.body.data).toMatchObject([{ order_id: kept[0]!.positionId, strategy_id: bot.strategy_id }]);
    // the trader closes it later: close reason 6
    const closed = await trader.call('/api/v1/order/close', {
      account_id: bot.account_id,
      order_id: kept[0]!.positionId,
      idempotencyKey: randomUUID(),
    });
    expect(closed.body.success, closed.body.message).toBe(true);
    const history = await trader.call('/api/v1/order/history', {
      account_id: bot.account_id,
      page: 1,
      size: 10,
    });
    expect(history.body.data.items.map((d: { close_reason: number }) => d.close_reason)).toEqual([
      CloseReason.STRATEGY_STOPPED_ACTIVELY,
      CloseReason.TAKE_PROFIT_OR_STOP_LOSS,
    ]);
    expect(history.body.data.items.map((d: { strategy_id: number | null }) => d.strategy_id)).toEqual([
      bot.strategy_id,
      bot.strategy_id,
    ]);
    // stopping again with nothing open: the money goes back and the strategy account closes
    const mainBefore = engine().core.account(demo)!.balance;
    const done = await ok(trader, 'strategystop', {
      strategy_id: bot.strategy_id,
      closePositions: true,
      idempotencyKey: randomUUID(),
    });
    expect(Number(done.returned)).toBeGreaterThan(990);
    expect(engine().core.account(demo)!.balance).toBe(mainBefore + Math.round(Number(done.returned) * 100));
    expect(engine().core.account(bot.account_id)?.closed).toBe(true);
    const all = await ok(trader, 'strategylist', { includeClosed: true });
    expect(all.items.find((s: { strategy_id: number }) => s.strategy_id === bot.strategy_id)?.state).toBe(
      'stopped_closed',
    );
  });

  it('backtests a grid over the stored candles of the last 7 days with the live engine code', async () => {
    await tick(67_000);
    // 7 days of M5 candles swinging between 66,100 and 67,100 every hour (12 bars)
    const now = Date.now();
    const start = Math.floor((now - 7 * 86_400_000) / 300_000) * 300_000 + 300_000;
    const rows = [];
    for (let t = start, i = 0; t < now - 300_000; t += 300_000, i++) {
      const phase = i % 12;
      const mid = 6_610_000 + Math.round((100_000 * (phase < 6 ? phase : 12 - phase)) / 6);
      rows.push({
        symbol: 'BTCUSDT',
        timeframe: 'M5',
        open_time: String(t),
        open: mid,
        high: mid + 4_000,
        low: mid - 4_000,
        close: mid,
        volume: 1,
      });
    }
    const db = server.app.services.database.db;
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('candles')
        .values(rows.slice(i, i + 500))
        .execute();
    const result = await ok(trader, 'strategybacktest', {
      account_id: demo,
      investment: '1000.00',
      spec: GRID,
      days: 7,
    });
    expect(result).toMatchObject({ days: 7, timeframe: 'M5' });
    expect(result.bars).toBeGreaterThanOrEqual(rows.length);
    // every hour the price crosses the three upper cells both ways: at least one take-profit a swing
    expect(result.closedTrades).toBeGreaterThan(100);
    expect(Number(result.realizedProfit)).toBeGreaterThan(0);
    expect(result.curve.length).toBeGreaterThanOrEqual(7);
    expect(result.elapsedMs).toBeLessThan(10_000);
  });

  it('shows a martingale round, the prices of its adds and a log that says why: an add, the take-profit of the round, the next round', async () => {
    await tick(67_000);
    const bot = await ok(trader, 'strategycreate', {
      account_id: demo,
      investment: '2000.00',
      spec: {
        kind: 'martingale',
        params: {
          symbol: 'BTCUSDT',
          direction: 'long',
          firstVolume: '0.01',
          stepPercent: '0.5',
          multiplier: '2',
          maxAdds: 2,
          takeProfitPercent: '0.3',
          cycle: 'repeat',
        },
      },
      idempotencyKey: randomUUID(),
    });
    // bought 0.01 at the ask 67,050.00; the adds wait 0.5 % and 1 % below it
    expect(bot.levels).toEqual(['67050.00', '66714.75', '66379.50']);
    expect(bot.round).toEqual({
      number: 1,
      completed: 0,
      adds: 0,
      averagePrice: '67050.00',
      takeProfit: '67251.15',
    });
    // the ask comes down to 66,700.00: add 1 (0.02) fills; the round's take-profit follows the average
    await tick(66_650);
    await expect
      .poll(
        async () =>
          (await ok(trader, 'strategydetail', { strategy_id: bot.strategy_id })).strategy.round.adds,
      )
      .toBe(1);
    // back up through the take-profit: the round closes (reason 3) and the next one opens at once
    await tick(67_100);
    const detail = await ok(trader, 'strategydetail', { strategy_id: bot.strategy_id });
    expect(detail.strategy.round).toMatchObject({ number: 2, completed: 1, adds: 0 });
    const added = detail.log.find((l: { action: string }) => l.action === 'added');
    expect(added).toMatchObject({ level: 1, volume: '0.02', price: '66700.00' });
    const closes = detail.log.filter((l: { action: string }) => l.action === 'position_closed');
    expect(closes.map((l: { detail: string }) => l.detail)).toEqual(['3', '3']);
    expect(closes.every((l: { profit: string | null }) => l.profit !== null)).toBe(true);
    expect(detail.log.find((l: { action: string }) => l.action === 'round_closed')).toMatchObject({
      detail: '1',
    });
    expect(
      detail.log
        .filter((l: { action: string }) => l.action === 'round_started')
        .map((l: { detail: string }) => l.detail),
    ).toEqual(['2', '1']);
    await ok(trader, 'strategystop', {
      strategy_id: bot.strategy_id,
      closePositions: true,
      idempotencyKey: randomUUID(),
    });
  });

  it('runs a martingale with its log; novice mode and other traders are refused', async () => {
    await tick(67_000);
    const bot = await ok(trader, 'strategycreate', {
      account_id: demo,
      investment: '2000.00',
      spec: {
        kind: 'martingale',
        params: {
          symbol: 'BTCUSDT',
          direction: 'long',
          firstVolume: '0.01',
          stepPercent: '0.5',
          multiplier: '2',
          maxAdds: 3,
          takeProfitPercent: '0.3',
          cycle: 'stop',
        },
      },
      idempotencyKey: randomUUID(),
    });
    expect(bot).toMatchObject({ kind: 'martingale', state: 'running', openPositions: 1 });
    const detail = await ok(trader, 'strategydetail', { strategy_id: bot.strategy_id });
    expect(detail.log.map((l: { action: string }) => l.action)).toContain('started');
    expect(detail.strategy.params.params).toMatchObject({ multiplier: '2', stepPercent: '0.50', maxAdds: 3 });

    const other = await Trader.signInStranger(server);
    const theirs = await call(other, 'strategydetail', { strategy_id: bot.strategy_id });
    expect(theirs.body.code).toBe(-5204);
    const stop = await call(other, 'strategystop', {
      strategy_id: bot.strategy_id,
      closePositions: true,
      idempotencyKey: randomUUID(),
    });
    expect(stop.body.code).toBe(-5204);

    const novice = await other.createAccount(1, 1, 100);
    const refused = await call(other, 'strategycreate', {
      account_id: novice,
      investment: '100.00',
      spec: GRID,
      idempotencyKey: randomUUID(),
    });
    expect(refused.body.code).toBe(-5202);
    // nothing was left behind: no strategy account of the novice trader holds money
    expect(engine().core.account(novice)!.balance).toBe(10_000_000);
  });
});

import { describe, expect, it } from 'vitest';
import { TradeType } from '../../src/trading/calculations';
import {
  type TEngineEvent,
  type TGridParamsInput,
  type TMartingaleParamsInput,
  TradingEngine,
} from '../../src/trading/engine-core';
import { CloseReason } from '../../src/trading/orders';
import { engineConfig, eventsOf, Harness } from './harness';

/** The trader's main account (10,000.00 USD) and its strategy account funded with 1,000.00. */
const MAIN = 10;
const BOT_ACCOUNT = 11;

function world(): Harness {
  const h = new Harness();
  h.seedQuotes();
  h.createAccount(MAIN, { initialBalance: 1_000_000 });
  h.createAccount(BOT_ACCOUNT, { parentId: MAIN, purpose: 'strategy', initialBalance: 0 });
  h.ok({
    type: 'transfer',
    accountId: MAIN,
    toAccountId: BOT_ACCOUNT,
    transferType: 'transfer_strategy_out',
    amount: 100_000,
  });
  return h;
}

/** A long EURUSD grid from 1.08000 to 1.08400 in 4 cells of 100 points, 0.10 lot each. */
const GRID: TGridParamsInput = {
  symbol: 'EURUSD',
  direction: 'long',
  lowerPrice: 108_000,
  upperPrice: 108_400,
  grids: 4,
  spacing: 'arithmetic',
  volumePerGrid: 10,
};

function startGrid(h: Harness, params: Partial<TGridParamsInput> = {}, strategyId = 1) {
  return h.ok({
    type: 'start_strategy',
    accountId: BOT_ACCOUNT,
    strategyId,
    kind: 'grid',
    params: { ...GRID, ...params },
  });
}

function logs(events: readonly TEngineEvent[]) {
  return eventsOf(events, 'strategy_log').map((e) => [e.action, e.level, e.price, e.profit]);
}

function expectSound(h: Harness) {
  expect(h.engine.checkInvariants()).toEqual([]);
}

describe('grid bot', () => {
  it('works a buy limit below the price at every level, each with its take-profit one level up', () => {
    const h = world();
    const { events } = startGrid(h);
    const orders = h.engine.ordersOf(BOT_ACCOUNT);
    expect(orders.map((o) => [o.type, o.price, o.takeProfit, o.volume, o.strategyId])).toEqual([
      ['buy_limit', 108_000, 108_100, 10, 1],
      ['buy_limit', 108_100, 108_200, 10, 1],
      ['buy_limit', 108_200, 108_300, 10, 1],
      ['buy_limit', 108_300, 108_400, 10, 1],
    ]);
    const changed = eventsOf(events, 'strategy_changed');
    expect(changed).toHaveLength(1);
    // the investment is the base plus the money moved in: 0 + 1,000.00
    expect(changed[0]!.strategy).toMatchObject({ state: 'running', strategyId: 1, investmentBase: 0 });
    expect(changed[0]!.strategy.grid?.levels).toEqual([108_000, 108_100, 108_200, 108_300, 108_400]);
    expect(logs(events)[0]).toEqual(['started', null, null, null]);
    expectSound(h);
  });

  it('realises grid profit as the price crosses levels down and back up, re-arming each level', () => {
    const h = world();
    startGrid(h);
    // down through 1.08300 and 1.08200: two cells fill (at the ask)
    h.tick('EURUSD', '1.08290', '1.08300');
    h.tick('EURUSD', '1.08190', '1.08200');
    const held = h.engine.positionsOf(BOT_ACCOUNT);
    expect(held.map((p) => [p.openPrice, p.takeProfit, p.strategyId])).toEqual(
      [
        [108_200, 108_300, 1],
        [108_300, 108_400, 1],
      ].sort((a, b) => a[0]! - b[0]!),
    );
    expect(h.engine.strategy(1)!.strategy.grid!.cells.map((c) => c.holding)).toEqual([
      'order',
      'order',
      'position',
      'position',
    ]);
    // back up to a bid of 1.08300: the 1.08200 cell takes its profit, 100 points x 0.10 lot = 10.00 USD,
    // and its buy limit is placed again at once
    const up = h.tick('EURUSD', '1.08300', '1.08310');
    const closed = eventsOf(up, 'position_closed');
    expect(closed.map((e) => [e.openPrice, e.closePrice, e.profit, e.reason, e.strategyId])).toEqual([
      [108_200, 108_300, 1_000, CloseReason.TAKE_PROFIT_OR_STOP_LOSS, 1],
    ]);
    expect(eventsOf(up, 'order_placed').map((e) => [e.order.price, e.order.takeProfit])).toEqual([
      [108_200, 108_300],
    ]);
    expect(logs(up).map((l) => l[0])).toEqual(['position_closed', 'order_placed']);
    // up to 1.08400: the 1.08300 cell takes its 10.00 too
    h.tick('EURUSD', '1.08400', '1.08410');
    const report = h.engine.strategy(1)!;
    expect(report.strategy.realizedProfit).toBe(2_000);
    expect(report.strategy.closedTrades).toBe(2);
    expect(report.openPositions).toBe(0);
    expect(report.openOrders).toBe(4);
    expect(report.unrealizedProfit).toBe(0);
    // the account's money moved exactly by the grid profit (no commission on EURUSD here)
    expect(h.engine.account(BOT_ACCOUNT)!.balance).toBe(102_000);
    expectSound(h);
  });

  it('stopped keeping its positions: "stopped with position open", and a later close is reason 6', () => {
    const h = world();
    startGrid(h);
    h.tick('EURUSD', '1.08290', '1.08300');
    const position = h.engine.positionsOf(BOT_ACCOUNT)[0]!;
    // while the bot runs its positions and orders are its own
    expect(
      h.run({ type: 'close_position', accountId: BOT_ACCOUNT, positionId: position.positionId }),
    ).toEqual({
      ok: false,
      error: 'STRATEGY_MANAGED',
    });
    const stop = h.ok({
      type: 'stop_strategy',
      accountId: BOT_ACCOUNT,
      strategyId: 1,
      closePositions: false,
    });
    expect(eventsOf(stop.events, 'order_cancelled').map((e) => e.reason)).toEqual([
      'strategy',
      'strategy',
      'strategy',
    ]);
    expect(h.engine.strategy(1)!.strategy).toMatchObject({ state: 'stopped_open', stopReason: 'client' });
    expect(h.engine.ordersOf(BOT_ACCOUNT)).toEqual([]);
    // the price moves on: the bot does nothing
    expect(eventsOf(h.tick('EURUSD', '1.08350', '1.08360'), 'order_placed')).toEqual([]);
    const closed = h.ok({ type: 'close_position', accountId: BOT_ACCOUNT, positionId: position.positionId });
    expect(eventsOf(closed.events, 'position_closed').map((e) => [e.reason, e.profit, e.strategyId])).toEqual(
      [[CloseReason.STRATEGY_STOPPED_ACTIVELY, 500, 1]],
    );
    const last = eventsOf(closed.events, 'strategy_changed').at(-1)!.strategy;
    expect(last).toMatchObject({ state: 'stopped_closed', realizedProfit: 500, closedTrades: 1 });
    expect(h.engine.strategy(1)).toBeUndefined();
    expectSound(h);
  });

  it('stopped by the trader closing: orders cancelled, positions closed with reason 6', () => {
    const h = world();
    startGrid(h);
    h.tick('EURUSD', '1.08190', '1.08200');
    const stop = h.ok({ type: 'stop_strategy', accountId: BOT_ACCOUNT, strategyId: 1, closePositions: true });
    // the gap filled both cells at the ask 1.08200 (a limit fills at the better price): -1.00 each
    expect(
      eventsOf(stop.events, 'position_closed').map((e) => [e.reason, e.openPrice, e.closePrice, e.profit]),
    ).toEqual([
      [CloseReason.STRATEGY_STOPPED_ACTIVELY, 108_200, 108_190, -100],
      [CloseReason.STRATEGY_STOPPED_ACTIVELY, 108_200, 108_190, -100],
    ]);
    expect(eventsOf(stop.events, 'strategy_changed').at(-1)!.strategy.state).toBe('stopped_closed');
    // a new bot can start on the emptied account
    startGrid(h, {}, 2);
    expectSound(h);
  });

  it('stopped by the broker: stop reason "broker", positions closed with reason 6 as an active stop', () => {
    const h = world();
    startGrid(h);
    h.tick('EURUSD', '1.08290', '1.08300');
    const stop = h.ok({
      type: 'stop_strategy',
      accountId: BOT_ACCOUNT,
      strategyId: 1,
      closePositions: true,
      by: 'broker',
    });
    expect(eventsOf(stop.events, 'position_closed').map((e) => e.reason)).toEqual([
      CloseReason.STRATEGY_STOPPED_ACTIVELY,
    ]);
    expect(eventsOf(stop.events, 'strategy_changed').at(-1)!.strategy).toMatchObject({
      state: 'stopped_closed',
      stopReason: 'broker',
    });
    expectSound(h);
  });

  it('waits for its trigger price, then starts', () => {
    const h = world();
    const { events } = startGrid(h, { triggerPrice: 108_350 });
    expect(h.engine.strategy(1)!.strategy).toMatchObject({ state: 'waiting', triggerAbove: false });
    expect(h.engine.ordersOf(BOT_ACCOUNT)).toEqual([]);
    expect(logs(events).map((l) => l[0])).toEqual(['started', 'waiting']);
    expect(eventsOf(h.tick('EURUSD', '1.08360', '1.08370'), 'order_placed')).toEqual([]);
    const crossed = h.tick('EURUSD', '1.08350', '1.08360');
    expect(logs(crossed)[0]).toEqual(['triggered', null, 108_350, null]);
    expect(h.engine.ordersOf(BOT_ACCOUNT)).toHaveLength(4);
    expect(h.engine.strategy(1)!.strategy.state).toBe('running');
    expectSound(h);
  });

  it('stops itself at its stop-loss price, closing with reason 5', () => {
    const h = world();
    startGrid(h, { stopLossPrice: 107_950 });
    h.tick('EURUSD', '1.08090', '1.08100');
    const events = h.tick('EURUSD', '1.07950', '1.07960');
    expect(
      eventsOf(events, 'position_closed').every(
        (e) => e.reason === CloseReason.STRATEGY_STOPPED_AUTOMATICALLY,
      ),
    ).toBe(true);
    // the 1.08000 cell filled on the same quote, before the bot looked: four positions close
    expect(eventsOf(events, 'position_closed')).toHaveLength(4);
    expect(eventsOf(events, 'strategy_changed').at(-1)!.strategy).toMatchObject({
      state: 'stopped_closed',
      stopReason: 'stop_loss',
    });
    expectSound(h);
  });

  it('trails up: the range moves a level at a time when the price leaves it upward', () => {
    const h = world();
    startGrid(h, { trailingUp: true });
    const events = h.tick('EURUSD', '1.08520', '1.08530');
    // the bid 1.08520 is above the top (1.08400): two moves, 1.08500 and 1.08600 on top
    expect(h.engine.strategy(1)!.strategy.grid!.levels).toEqual([
      108_200, 108_300, 108_400, 108_500, 108_600,
    ]);
    expect(h.engine.ordersOf(BOT_ACCOUNT).map((o) => o.price)).toEqual([108_200, 108_300, 108_400, 108_500]);
    expect(logs(events).filter((l) => l[0] === 'trailed')).toHaveLength(2);
    expectSound(h);
  });

  it('refuses what it cannot run, changing nothing', () => {
    const h = world();
    const refuse = (accountId: number, params: Partial<TGridParamsInput>) =>
      h.run({
        type: 'start_strategy',
        accountId,
        strategyId: 9,
        kind: 'grid',
        params: { ...GRID, ...params },
      });
    expect(refuse(MAIN, {})).toEqual({ ok: false, error: 'STRATEGY_NOT_ALLOWED' });
    expect(refuse(BOT_ACCOUNT, { grids: 1 })).toEqual({ ok: false, error: 'STRATEGY_INVALID' });
    expect(refuse(BOT_ACCOUNT, { grids: 201 })).toEqual({ ok: false, error: 'STRATEGY_INVALID' });
    expect(refuse(BOT_ACCOUNT, { upperPrice: 108_000 })).toEqual({ ok: false, error: 'STRATEGY_INVALID' });
    expect(refuse(BOT_ACCOUNT, { volumePerGrid: 0 })).toEqual({ ok: false, error: 'INVALID_VOLUME' });
    expect(refuse(BOT_ACCOUNT, { direction: 'short', trailingUp: true })).toEqual({
      ok: false,
      error: 'STRATEGY_INVALID',
    });
    expect(refuse(BOT_ACCOUNT, { symbol: 'NOPE' })).toEqual({ ok: false, error: 'SYMBOL_UNKNOWN' });
    h.createAccount(20, { initialBalance: 1_000_000, tradeType: TradeType.NOVICE });
    h.createAccount(21, {
      parentId: 20,
      purpose: 'strategy',
      initialBalance: 0,
      tradeType: TradeType.NOVICE,
    });
    expect(refuse(21, {})).toEqual({ ok: false, error: 'STRATEGY_NOVICE_MODE' });
    startGrid(h);
    expect(refuse(BOT_ACCOUNT, {})).toEqual({ ok: false, error: 'STRATEGY_ACCOUNT_BUSY' });
    expect(h.engine.strategies().map((r) => r.strategy.strategyId)).toEqual([1]);
    expectSound(h);
  });
});

/**
 * A long EURUSD martingale: 0.10 lot first, adds every 0.5 % of the first price, each twice the one
 * before, at most 2 adds, take-profit 0.3 % above the round's average.
 */
const MARTINGALE: TMartingaleParamsInput = {
  symbol: 'EURUSD',
  direction: 'long',
  firstVolume: 10,
  stepBp: 50,
  multiplierBp: 20_000,
  maxAdds: 2,
  takeProfitBp: 30,
};

describe('martingale bot', () => {
  it('adds on a falling price, takes profit for the round from its average, and starts the next cycle', () => {
    const h = world();
    h.ok({
      type: 'start_strategy',
      accountId: BOT_ACCOUNT,
      strategyId: 5,
      kind: 'martingale',
      params: MARTINGALE,
    });
    // the first order at the ask 1.08430; take-profit ceil(108,430 x 1.003) = 108,756
    let [first] = h.engine.positionsOf(BOT_ACCOUNT);
    expect([first!.openPrice, first!.volume, first!.takeProfit, first!.strategyId]).toEqual([
      108_430, 10, 108_756, 5,
    ]);
    // add 1 waits at floor(108,430 x 0.995) = 107,887 for 0.20 lot
    expect(h.engine.ordersOf(BOT_ACCOUNT).map((o) => [o.type, o.price, o.volume])).toEqual([
      ['buy_limit', 107_887, 20],
    ]);
    // the price falls: add 1 fills at 1.07887; the average is (10 x 108,430 + 20 x 107,887) / 30 =
    // 108,068; the take-profit of both moves to ceil(3,242,040 x 1.003 / 30) = 108,393; add 2 waits at
    // floor(108,430 x 0.99) = 107,345 for 0.40 lot
    h.tick('EURUSD', '1.07877', '1.07887');
    const round = h.engine.positionsOf(BOT_ACCOUNT);
    expect(round.map((p) => [p.openPrice, p.volume, p.takeProfit])).toEqual([
      [108_430, 10, 108_393],
      [107_887, 20, 108_393],
    ]);
    expect(h.engine.ordersOf(BOT_ACCOUNT).map((o) => [o.price, o.volume])).toEqual([[107_345, 40]]);
    expect(h.engine.strategy(5)!.strategy.martingale).toMatchObject({ adds: 1, volume: 30, cost: 3_242_040 });
    // the bid comes back to 1.08393: the whole round closes at its take-profit (reason 3):
    // (108,393 - 108,430) x 10 = -3.70 and (108,393 - 107,887) x 20 = +101.20, 97.50 in all;
    // the add order is cancelled and the next round opens at the ask 1.08403
    [first] = round;
    const events = h.tick('EURUSD', '1.08393', '1.08403');
    expect(eventsOf(events, 'position_closed').map((e) => [e.profit, e.reason])).toEqual([
      [-370, CloseReason.TAKE_PROFIT_OR_STOP_LOSS],
      [10_120, CloseReason.TAKE_PROFIT_OR_STOP_LOSS],
    ]);
    expect(eventsOf(events, 'strategy_log').map((e) => e.action)).toContain('round_closed');
    const report = h.engine.strategy(5)!;
    expect(report.strategy.realizedProfit).toBe(9_750);
    expect(report.strategy.martingale).toMatchObject({ rounds: 1, adds: 0, firstPrice: 108_403 });
    expect(h.engine.positionsOf(BOT_ACCOUNT).map((p) => [p.openPrice, p.volume])).toEqual([[108_403, 10]]);
    expect(h.engine.ordersOf(BOT_ACCOUNT).map((o) => o.price)).toEqual([
      Math.floor((108_403 * 9_950) / 10_000),
    ]);
    expect(h.engine.account(BOT_ACCOUNT)!.balance).toBe(100_000 + 9_750);
    expectSound(h);
  });

  it('never adds beyond its maximum, and stops at its stop-loss with reason 5', () => {
    const h = world();
    h.ok({
      type: 'start_strategy',
      accountId: BOT_ACCOUNT,
      strategyId: 6,
      kind: 'martingale',
      params: { ...MARTINGALE, firstVolume: 1, stopLossBp: 200 },
    });
    // a gap straight through both adds: each opens (add 2 at the market, its level passed)
    h.tick('EURUSD', '1.07000', '1.07010');
    expect(h.engine.positionsOf(BOT_ACCOUNT).map((p) => p.volume)).toEqual([1, 2, 4]);
    expect(h.engine.strategy(6)!.strategy.martingale!.adds).toBe(2);
    expect(h.engine.ordersOf(BOT_ACCOUNT)).toEqual([]);
    h.tick('EURUSD', '1.06900', '1.06910');
    expect(h.engine.positionsOf(BOT_ACCOUNT)).toHaveLength(3);
    // the stop-loss: 2 % under the first price, floor(108,430 x 0.98) = 106,261
    const events = h.tick('EURUSD', '1.06261', '1.06271');
    expect(eventsOf(events, 'position_closed').map((e) => e.reason)).toEqual([5, 5, 5]);
    expect(eventsOf(events, 'strategy_changed').at(-1)!.strategy).toMatchObject({
      state: 'stopped_closed',
      stopReason: 'stop_loss',
    });
    expectSound(h);
  });

  it('in "stop" cycle mode, stops after its round’s take-profit', () => {
    const h = world();
    h.ok({
      type: 'start_strategy',
      accountId: BOT_ACCOUNT,
      strategyId: 7,
      kind: 'martingale',
      params: { ...MARTINGALE, cycle: 'stop' },
    });
    const events = h.tick('EURUSD', '1.08760', '1.08770');
    expect(eventsOf(events, 'position_closed').map((e) => [e.profit, e.reason])).toEqual([[3_300, 3]]);
    expect(eventsOf(events, 'strategy_changed').at(-1)!.strategy).toMatchObject({
      state: 'stopped_closed',
      stopReason: 'cycle_done',
    });
    expect(h.engine.ordersOf(BOT_ACCOUNT)).toEqual([]);
    expectSound(h);
  });
});

describe('bots and restarts', () => {
  it('a restored engine holds every bot where it was and carries on identically', () => {
    const h = world();
    startGrid(h);
    h.tick('EURUSD', '1.08190', '1.08200');
    const restored = new Harness(
      {},
      TradingEngine.restore(structuredClone(h.engine.snapshot()), engineConfig()),
    );
    expect(restored.engine.snapshot()).toEqual(h.engine.snapshot());
    expect(restored.engine.checkInvariants()).toEqual([]);
    restored.time = h.time;
    const a = h.tick('EURUSD', '1.08300', '1.08310');
    const b = restored.tick('EURUSD', '1.08300', '1.08310');
    expect(b).toEqual(a);
    expect(restored.engine.snapshot()).toEqual(h.engine.snapshot());
  });
});

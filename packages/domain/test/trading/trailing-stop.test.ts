import { describe, expect, it } from 'vitest';
import { TradingEngine } from '../../src/trading/engine-core';
import { CloseReason, MAX_TRAILING_POINTS, trailTriggerPrice } from '../../src/trading/orders';
import { engineConfig, eventsOf, Harness, points } from './harness';

/** EURUSD at 1.08420 / 1.08430 (10 points of spread) and a funded account 1. */
function trader(overrides = {}): Harness {
  const h = new Harness(overrides);
  h.seedQuotes();
  h.createAccount(1);
  return h;
}

function open(h: Harness, side: 'buy' | 'sell', trailingStop: number | null, stopLoss: number | null = null) {
  return h.ok({
    type: 'open_market',
    accountId: 1,
    symbol: 'EURUSD',
    side,
    volume: 100,
    stopLoss,
    trailingStop,
  }).ticket!;
}

const stopLossOf = (h: Harness, ticket: number) => h.engine.position(ticket)?.stopLoss;
const px = (price: string) => points('EURUSD', price);

/** A tick whose events are checked against the engine's self-check. */
function tick(h: Harness, bid: string, ask: string) {
  const events = h.tick('EURUSD', bid, ask);
  expect(h.engine.checkInvariants()).toEqual([]);
  return events;
}

describe('trailing stop: a buy', () => {
  it('starts only once the profit exceeds the distance, then follows the bid and never moves back', () => {
    const h = trader();
    const ticket = open(h, 'buy', 200); // opened at the ask 1.08430
    expect(h.engine.position(ticket)).toMatchObject({ trailingStop: 200, stopLoss: null });
    // 170 points of profit: below the 200-point distance, nothing moves
    expect(eventsOf(tick(h, '1.08600', '1.08610'), 'stop_loss_trailed')).toEqual([]);
    // exactly the distance (bid - 200 = the open price) is not more than it: still nothing
    expect(eventsOf(tick(h, '1.08630', '1.08640'), 'stop_loss_trailed')).toEqual([]);
    expect(stopLossOf(h, ticket)).toBeNull();
    // 210 points: the stop-loss is set 200 points under the bid, beyond the open price
    const first = eventsOf(tick(h, '1.08640', '1.08650'), 'stop_loss_trailed');
    expect(first).toEqual([
      { type: 'stop_loss_trailed', positionId: ticket, accountId: 1, stopLoss: px('1.08440'), time: h.time },
    ]);
    tick(h, '1.08700', '1.08710');
    expect(stopLossOf(h, ticket)).toBe(px('1.08500'));
    // the price falls back: the stop-loss stays where it was moved
    expect(eventsOf(tick(h, '1.08650', '1.08660'), 'stop_loss_trailed')).toEqual([]);
    expect(stopLossOf(h, ticket)).toBe(px('1.08500'));
    // a quote equal to the best one moves nothing either
    expect(eventsOf(tick(h, '1.08700', '1.08710'), 'stop_loss_trailed')).toEqual([]);
  });

  it('closes at the bid with close reason 3 when the trailed stop-loss is hit', () => {
    const h = trader();
    const ticket = open(h, 'buy', 200);
    tick(h, '1.08700', '1.08710');
    const events = tick(h, '1.08500', '1.08510');
    expect(eventsOf(events, 'position_closed')[0]).toMatchObject({
      positionId: ticket,
      closePrice: px('1.08500'),
      reason: CloseReason.TAKE_PROFIT_OR_STOP_LOSS,
      profit: 7_000, // 70 points on one lot, locked in by the trail
    });
    expect(h.engine.position(ticket)).toBeUndefined();
  });

  it('closes at the gapped price when the market gaps through the trailed stop-loss', () => {
    const h = trader();
    const ticket = open(h, 'buy', 200);
    tick(h, '1.08700', '1.08710');
    const closed = eventsOf(tick(h, '1.08350', '1.08360'), 'position_closed');
    expect(closed[0]).toMatchObject({
      positionId: ticket,
      closePrice: px('1.08350'),
      reason: CloseReason.TAKE_PROFIT_OR_STOP_LOSS,
      profit: -8_000,
    });
  });

  it('jumps the whole way on a gap up, in one move', () => {
    const h = trader();
    const ticket = open(h, 'buy', 200);
    const moves = eventsOf(tick(h, '1.09500', '1.09510'), 'stop_loss_trailed');
    expect(moves.map((m) => m.stopLoss)).toEqual([px('1.09300')]);
    expect(stopLossOf(h, ticket)).toBe(px('1.09300'));
  });

  it('starts from the trader stop-loss when it is beyond the open price, and never pulls it back', () => {
    const h = trader();
    const ticket = open(h, 'buy', 200);
    tick(h, '1.08800', '1.08810'); // trailed to 1.08600
    // the trader tightens the stop-loss by hand to 1.08750 (closer than the distance): kept
    h.ok({
      type: 'modify_position',
      accountId: 1,
      positionId: ticket,
      takeProfit: null,
      stopLoss: px('1.08750'),
    });
    expect(h.engine.position(ticket)).toMatchObject({ stopLoss: px('1.08750'), trailingStop: 200 });
    expect(eventsOf(tick(h, '1.08900', '1.08910'), 'stop_loss_trailed')).toEqual([]);
    expect(stopLossOf(h, ticket)).toBe(px('1.08750'));
    tick(h, '1.08960', '1.08970');
    expect(stopLossOf(h, ticket)).toBe(px('1.08760'));
  });

  it('keeps a stop-loss below the open price until the trail passes the open price', () => {
    const h = trader();
    const ticket = open(h, 'buy', 100, px('1.08300'));
    tick(h, '1.08520', '1.08530'); // 90 points of profit
    expect(stopLossOf(h, ticket)).toBe(px('1.08300'));
    tick(h, '1.08540', '1.08550');
    expect(stopLossOf(h, ticket)).toBe(px('1.08440'));
  });

  it('lets the take-profit win when one quote reaches both', () => {
    const h = trader();
    const { ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
      takeProfit: px('1.08700'),
      trailingStop: 100,
    });
    const events = tick(h, '1.08800', '1.08810');
    expect(eventsOf(events, 'stop_loss_trailed')).toEqual([]);
    expect(eventsOf(events, 'position_closed')[0]).toMatchObject({ positionId: ticket, reason: 3 });
  });
});

describe('trailing stop: a sell', () => {
  it('follows the ask down, never back up, and closes with reason 3 at the ask', () => {
    const h = trader();
    const ticket = open(h, 'sell', 150); // opened at the bid 1.08420
    tick(h, '1.08260', '1.08270'); // 150 points of profit at the ask: not more than the distance
    expect(stopLossOf(h, ticket)).toBeNull();
    tick(h, '1.08250', '1.08260');
    expect(stopLossOf(h, ticket)).toBe(px('1.08410'));
    tick(h, '1.08090', '1.08100');
    expect(stopLossOf(h, ticket)).toBe(px('1.08250'));
    expect(eventsOf(tick(h, '1.08190', '1.08200'), 'stop_loss_trailed')).toEqual([]);
    expect(stopLossOf(h, ticket)).toBe(px('1.08250'));
    const closed = eventsOf(tick(h, '1.08240', '1.08250'), 'position_closed');
    expect(closed[0]).toMatchObject({
      positionId: ticket,
      closePrice: px('1.08250'),
      reason: CloseReason.TAKE_PROFIT_OR_STOP_LOSS,
      profit: 17_000,
    });
  });

  it('closes at the gapped ask when the market gaps up through it', () => {
    const h = trader();
    const ticket = open(h, 'sell', 150);
    tick(h, '1.08090', '1.08100'); // trailed to 1.08250
    const closed = eventsOf(tick(h, '1.08390', '1.08400'), 'position_closed');
    expect(closed[0]).toMatchObject({ positionId: ticket, closePrice: px('1.08400'), reason: 3 });
  });
});

describe('trailing stop: setting it', () => {
  it('checks the distance against the stops level and the maximum', () => {
    const h = trader({ EURUSD: { stopsLevelPoints: 50 } });
    for (const trailingStop of [49, 10.5, -5, MAX_TRAILING_POINTS + 1])
      expect(
        h.run({
          type: 'open_market',
          accountId: 1,
          symbol: 'EURUSD',
          side: 'buy',
          volume: 100,
          trailingStop,
        }),
      ).toEqual({ ok: false, error: 'INVALID_TRAILING_STOP' });
    expect(open(h, 'buy', 50)).toBeGreaterThan(0);
    expect(open(h, 'buy', MAX_TRAILING_POINTS)).toBeGreaterThan(0);
    expect(h.engine.position(open(h, 'buy', 0))?.trailingStop).toBeNull();
    expect(h.engine.checkInvariants()).toEqual([]);
  });

  it('sets, keeps (when absent) and removes it by modifying the position', () => {
    const h = trader();
    const ticket = open(h, 'buy', null);
    const set = h.ok({
      type: 'modify_position',
      accountId: 1,
      positionId: ticket,
      takeProfit: null,
      stopLoss: null,
      trailingStop: 120,
    });
    expect(eventsOf(set.events, 'position_modified')[0]).toMatchObject({ trailingStop: 120 });
    h.ok({
      type: 'modify_position',
      accountId: 1,
      positionId: ticket,
      takeProfit: px('1.09500'),
      stopLoss: null,
    });
    expect(h.engine.position(ticket)).toMatchObject({ trailingStop: 120, takeProfit: px('1.09500') });
    expect(h.engine.checkInvariants()).toEqual([]);
    h.ok({
      type: 'modify_position',
      accountId: 1,
      positionId: ticket,
      takeProfit: null,
      stopLoss: null,
      trailingStop: null,
    });
    expect(h.engine.position(ticket)?.trailingStop).toBeNull();
    expect(h.engine.checkInvariants()).toEqual([]);
    expect(eventsOf(tick(h, '1.09000', '1.09010'), 'stop_loss_trailed')).toEqual([]);
  });

  it('is a stop-loss for the no-stop-loss restriction: setting refused, removing allowed', () => {
    const h = trader();
    const ticket = open(h, 'buy', 100);
    h.ok({
      type: 'set_restrictions',
      accountId: 1,
      restrictions: {
        noOpen: false,
        noClose: false,
        noTakeProfit: false,
        noStopLoss: true,
        noWithdrawal: false,
      },
    });
    expect(
      h.run({
        type: 'open_market',
        accountId: 1,
        symbol: 'EURUSD',
        side: 'buy',
        volume: 100,
        trailingStop: 100,
      }),
    ).toEqual({ ok: false, error: 'ACCOUNT_RESTRICTED' });
    // the engine's own moves are not the trader's: they go on
    tick(h, '1.08600', '1.08610');
    expect(stopLossOf(h, ticket)).toBe(px('1.08500'));
    expect(
      h.run({
        type: 'modify_position',
        accountId: 1,
        positionId: ticket,
        takeProfit: null,
        stopLoss: px('1.08500'),
        trailingStop: 150,
      }),
    ).toEqual({ ok: false, error: 'ACCOUNT_RESTRICTED' });
    h.ok({
      type: 'modify_position',
      accountId: 1,
      positionId: ticket,
      takeProfit: null,
      stopLoss: px('1.08500'),
      trailingStop: 0,
    });
    expect(h.engine.position(ticket)?.trailingStop).toBeNull();
  });
});

describe('trailing stop: durable and deterministic', () => {
  it('carries on after a snapshot and restore from the moved stop-loss', () => {
    const h = trader();
    const ticket = open(h, 'buy', 200);
    tick(h, '1.08700', '1.08710');
    const snapshot = h.engine.snapshot();
    expect(snapshot.positions.find((p) => p.positionId === ticket)).toMatchObject({
      trailingStop: 200,
      stopLoss: px('1.08500'),
    });
    const restored = new Harness(
      {},
      TradingEngine.restore(JSON.parse(JSON.stringify(snapshot)), engineConfig()),
    );
    expect(restored.engine.checkInvariants()).toEqual([]);
    restored.tick('EURUSD', '1.08600', '1.08610');
    expect(restored.engine.position(ticket)?.stopLoss).toBe(px('1.08500'));
    restored.tick('EURUSD', '1.08800', '1.08810');
    expect(restored.engine.position(ticket)?.stopLoss).toBe(px('1.08600'));
    const closed = eventsOf(restored.tick('EURUSD', '1.08600', '1.08610'), 'position_closed');
    expect(closed[0]).toMatchObject({ positionId: ticket, reason: 3, closePrice: px('1.08600') });
  });

  it('waits one point beyond the best stop-loss so far (the trigger rule)', () => {
    expect(trailTriggerPrice('buy', 1000, null, 50)).toBe(1051);
    expect(trailTriggerPrice('buy', 1000, 900, 50)).toBe(1051);
    expect(trailTriggerPrice('buy', 1000, 1020, 50)).toBe(1071);
    expect(trailTriggerPrice('sell', 1000, null, 50)).toBe(949);
    expect(trailTriggerPrice('sell', 1000, 1100, 50)).toBe(949);
    expect(trailTriggerPrice('sell', 1000, 980, 50)).toBe(929);
  });
});

describe('trailing stop: copy trading', () => {
  /** Leader 1 and follower 10 with copy account 11 copying one lot for one (stops copied). */
  function copying(copyStops: boolean) {
    const h = trader();
    h.createAccount(10);
    h.createAccount(11, { parentId: 10, purpose: 'copy', initialBalance: 0 });
    h.ok({
      type: 'transfer',
      accountId: 10,
      toAccountId: 11,
      transferType: 'transfer_follow_out',
      amount: 500_000,
    });
    h.ok({
      type: 'set_copy',
      accountId: 11,
      leaderAccountId: 1,
      mode: 'fixed_lot',
      modeValue: 100,
      copyStops,
    });
    return h;
  }

  it('gives a copy the leader distance, follows a change of it, and lets each trail on its own', () => {
    const h = copying(true);
    const leader = open(h, 'buy', 200);
    const copy = h.engine.positionsOf(11)[0]!;
    expect(copy).toMatchObject({ parentTicket: leader, trailingStop: 200 });
    h.ok({
      type: 'modify_position',
      accountId: 1,
      positionId: leader,
      takeProfit: null,
      stopLoss: null,
      trailingStop: 150,
    });
    expect(h.engine.position(copy.positionId)?.trailingStop).toBe(150);
    const moves = eventsOf(tick(h, '1.08700', '1.08710'), 'stop_loss_trailed');
    // both moved by the engine, each from its own price (one move each, no copied move)
    expect(moves.map((m) => [m.positionId, m.stopLoss])).toEqual([
      [leader, px('1.08550')],
      [copy.positionId, px('1.08550')],
    ]);
  });

  it('copies no trailing stop when the relation copies no stops', () => {
    const h = copying(false);
    open(h, 'buy', 200);
    expect(h.engine.positionsOf(11)[0]?.trailingStop).toBeNull();
  });
});

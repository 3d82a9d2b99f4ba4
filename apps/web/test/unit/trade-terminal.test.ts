import { describe, expect, it } from 'vitest';
import { fromUnits, normalizeInput, roundTo, toUnits } from '../../src/features/trade/decimal';
import {
  averageOpenPrice,
  distancePoints,
  entryPoints,
  pendingProblem,
  pricePoints,
  remainingVolume,
  stepVolume,
  stopFromDistance,
  stopProblem,
  stopsReference,
  volumeProblem,
} from '../../src/features/trade/ticket-rules';
import { ActionKeys, diffTrading, PlacedOrders, settingOf } from '../../src/features/trade/trade-events';

const lots = (overrides: Partial<{ minVolume: string; volumeStep: string; maxVolume: string }> = {}) => ({
  minVolume: '0.01',
  volumeStep: '0.01',
  maxVolume: '50',
  ...overrides,
});

const position = (overrides: Partial<{ order_id: number; volume: string; side: 'buy' | 'sell' }> = {}) => ({
  order_id: 1,
  symbol: 'BTCUSDT',
  side: 'buy' as const,
  volume: '0.10',
  ...overrides,
});
const order = (overrides: Partial<{ order_id: number; type: string }> = {}) => ({
  order_id: 2,
  symbol: 'BTCUSDT',
  type: 'buy_limit',
  volume: '0.05',
  ...overrides,
});

describe('decimal strings of the terminal', () => {
  it('reads what traders type in any locale without float rounding', () => {
    expect(normalizeInput('1 234,56')).toBe('1234.56');
    expect(normalizeInput('1,234.56')).toBe('1234.56');
    expect(normalizeInput('1.234,5')).toBe('1234.5');
    expect(toUnits('67025.25', 2)).toBe(6702525n);
    expect(toUnits('0.1', 2)).toBe(10n);
    expect(toUnits('1.2300', 2)).toBe(123n);
    expect(toUnits('1.234', 2)).toBeNull();
    expect(toUnits('abc', 2)).toBeNull();
    expect(fromUnits(5n, 2)).toBe('0.05');
    expect(fromUnits(-108420n, 5)).toBe('-1.08420');
    expect(roundTo('1.005', 2)).toBe('1.01');
  });
});

describe('order ticket rules', () => {
  it('keeps the volume on the symbol grid between its minimum and maximum', () => {
    expect(volumeProblem('0.01', lots())).toBeNull();
    expect(volumeProblem('0', lots())).toBe('format');
    expect(volumeProblem('0.001', lots())).toBe('format');
    expect(volumeProblem('0.05', lots({ minVolume: '0.1', volumeStep: '0.1' }))).toBe('min');
    expect(volumeProblem('0.15', lots({ minVolume: '0.1', volumeStep: '0.1' }))).toBe('step');
    expect(volumeProblem('51', lots())).toBe('max');
    expect(stepVolume('0.01', lots(), 1)).toBe('0.02');
    expect(stepVolume('0.01', lots(), -1)).toBe('0.01');
    expect(stepVolume('0.15', lots({ minVolume: '0.1', volumeStep: '0.1' }), 1)).toBe('0.20');
    expect(stepVolume('0.15', lots({ minVolume: '0.1', volumeStep: '0.1' }), -1)).toBe('0.10');
    expect(stepVolume('50', lots(), 1)).toBe('50.00');
    expect(stepVolume('', lots(), 1)).toBe('0.01');
  });

  it('checks take-profit and stop-loss against the closing price of a market order', () => {
    const bid = pricePoints('67000.00', 2) as bigint;
    const ask = pricePoints('67025.00', 2) as bigint;
    const reference = stopsReference({ side: 'buy', kind: 'market', bid, ask, entry: null }) as bigint;
    expect(reference).toBe(bid);
    expect(stopProblem('buy', 'takeProfit', pricePoints('67000.01', 2) as bigint, reference)).toBeNull();
    expect(stopProblem('buy', 'takeProfit', pricePoints('67000.00', 2) as bigint, reference)).toBe('side');
    expect(stopProblem('buy', 'stopLoss', pricePoints('66999.99', 2) as bigint, reference)).toBeNull();
    expect(stopProblem('sell', 'stopLoss', pricePoints('67024.00', 2) as bigint, ask)).toBe('side');
  });

  it('keeps stops at least the broker’s stops level away from the market', () => {
    const bid = pricePoints('67000.00', 2) as bigint;
    // A stops level of 500 points (5.00): a take-profit 4.99 above the bid is too near, 5.00 is fine.
    expect(stopProblem('buy', 'takeProfit', pricePoints('67004.99', 2) as bigint, bid, 500)).toBe('side');
    expect(stopProblem('buy', 'takeProfit', pricePoints('67005.00', 2) as bigint, bid, 500)).toBeNull();
    expect(stopProblem('buy', 'stopLoss', pricePoints('66995.01', 2) as bigint, bid, 500)).toBe('side');
  });

  it('turns a distance in points into a level on the right side of the entry', () => {
    const entry = entryPoints({
      side: 'sell',
      kind: 'market',
      bid: 108420n,
      ask: 108428n,
      price: null,
      limitPrice: null,
    });
    expect(entry).toBe(108420n);
    expect(stopFromDistance('sell', 'takeProfit', 108420n, 150n)).toBe(108270n);
    expect(stopFromDistance('sell', 'stopLoss', 108420n, 150n)).toBe(108570n);
    expect(stopFromDistance('buy', 'takeProfit', 108428n, 150n)).toBe(108578n);
    expect(distancePoints('150')).toBe(150n);
    expect(distancePoints('1.5')).toBeNull();
  });

  it('refuses pending prices that would fill at once and stop-limits with the limit beyond the stop', () => {
    const quote = { bid: 6700000n, ask: 6702500n };
    expect(
      pendingProblem({ side: 'buy', kind: 'limit', price: 6702400n, limitPrice: null, ...quote }),
    ).toBeNull();
    expect(pendingProblem({ side: 'buy', kind: 'limit', price: 6702500n, limitPrice: null, ...quote })).toBe(
      'side',
    );
    expect(
      pendingProblem({ side: 'buy', kind: 'stop', price: 6702600n, limitPrice: null, ...quote }),
    ).toBeNull();
    expect(pendingProblem({ side: 'sell', kind: 'stop', price: 6700000n, limitPrice: null, ...quote })).toBe(
      'side',
    );
    expect(
      pendingProblem({ side: 'buy', kind: 'stop_limit', price: 6710000n, limitPrice: 6711000n, ...quote }),
    ).toBe('limit');
    expect(
      pendingProblem({ side: 'sell', kind: 'stop_limit', price: 6690000n, limitPrice: 6691000n, ...quote }),
    ).toBeNull();
  });

  it('averages open prices by volume and splits a partial close on the grid', () => {
    expect(
      averageOpenPrice(
        [
          { open_price: '1.10000', volume: '0.10' },
          { open_price: '1.20000', volume: '0.30' },
        ],
        5,
      ),
    ).toBe('1.17500');
    expect(averageOpenPrice([], 5)).toBeNull();
    expect(remainingVolume('0.10', '0.04')).toBe('0.06');
    expect(remainingVolume('0.10', '0.11')).toBeNull();
  });
});

describe('trade events between refreshes', () => {
  it('tells opens, fills, partial and full closes, placed and deleted orders apart', () => {
    const before = {
      accountId: 7,
      positions: [position(), position({ order_id: 3, volume: '0.20' })],
      orders: [order(), order({ order_id: 4 })],
    };
    const after = {
      accountId: 7,
      positions: [
        position({ order_id: 3, volume: '0.15' }),
        position({ order_id: 2, volume: '0.05' }),
        position({ order_id: 5 }),
      ],
      orders: [order({ order_id: 6, type: 'sell_stop' })],
    };
    const events = diffTrading(before, after);
    expect(events.map((e) => e.kind).sort()).toEqual([
      'cancelled',
      'closed',
      'filled',
      'opened',
      'partlyClosed',
      'placed',
    ]);
    expect(events.find((e) => e.kind === 'partlyClosed')).toMatchObject({ closedVolume: '0.05' });
    expect(events.find((e) => e.kind === 'cancelled')).toMatchObject({ order: { order_id: 4 } });
    expect(events.map(settingOf)).toContain('pendingOrder');
  });

  it('says nothing on the first snapshot or after an account switch', () => {
    const snapshot = { accountId: 7, positions: [position()], orders: [] };
    expect(diffTrading(null, snapshot)).toEqual([]);
    expect(diffTrading({ ...snapshot, accountId: 8, positions: [] }, snapshot)).toEqual([]);
  });

  it('knows an order placed here that filled before any refresh listed it', () => {
    const placed = new PlacedOrders(() => 0);
    placed.remember(order({ order_id: 9, type: 'buy_stop' }));
    const events = diffTrading(
      { accountId: 7, positions: [], orders: [] },
      { accountId: 7, positions: [position({ order_id: 9 })], orders: [] },
      placed,
    );
    expect(events).toMatchObject([{ kind: 'filled', order: { type: 'buy_stop' } }]);
  });

  it('keeps one idempotency key per action until the server has answered', () => {
    let n = 0;
    const keys = new ActionKeys(() => `key-${++n}`);
    const first = keys.keyFor('buy 0.01');
    keys.settle('buy 0.01', false);
    expect(keys.keyFor('buy 0.01')).toBe(first);
    keys.settle('buy 0.01', true);
    expect(keys.keyFor('buy 0.01')).not.toBe(first);
    expect(keys.keyFor('sell 0.01')).not.toBe(first);
  });
});

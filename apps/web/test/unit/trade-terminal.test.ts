import { describe, expect, it } from 'vitest';
import { fromUnits, parseNumber, roundTo, toInputText, toUnits } from '../../src/features/trade/decimal';
import {
  averageOpenPrice,
  distancePoints,
  entryPoints,
  lotsText,
  partProfit,
  pendingProblem,
  pricePoints,
  remainingVolume,
  SubmitGate,
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

/** What a number typed in `intl` is read as: the plain decimal string, or the problem. */
const read = (text: string, intl: string) => {
  const parsed = parseNumber(text, intl);
  return parsed.ok ? parsed.value : parsed.problem;
};

describe('numbers typed in the page language', () => {
  it('reads German points before three digits as grouping and other points as decimals', () => {
    expect(read('74.000', 'de')).toBe('74000');
    expect(read('70.000', 'de')).toBe('70000');
    expect(read('1.000', 'de')).toBe('1000');
    expect(read('74.000,00', 'de')).toBe('74000.00');
    expect(read('1.234.567,5', 'de')).toBe('1234567.5');
    expect(read('0,01', 'de')).toBe('0.01');
    expect(read('0.01', 'de')).toBe('0.01');
    expect(read('0.015', 'de')).toBe('0.015');
    expect(read('67025.25', 'de')).toBe('67025.25');
    expect(read('1,2,3', 'de')).toBe('format');
    expect(read('1,234.5', 'de')).toBe('format');
  });

  it('reads English commas only as thousands and refuses 1,5 as ambiguous', () => {
    expect(read('1,000', 'en')).toBe('1000');
    expect(read('1,234,567.89', 'en')).toBe('1234567.89');
    expect(read('0.01', 'en')).toBe('0.01');
    expect(read('1,5', 'en')).toBe('ambiguous');
    expect(read('0,01', 'en')).toBe('ambiguous');
    expect(read('1,00,000', 'en')).toBe('format');
    expect(read('1.2.3', 'en')).toBe('format');
    expect(read('', 'en')).toBe('empty');
    expect(read('abc', 'en')).toBe('format');
    expect(read('-1', 'en')).toBe('-1');
  });

  it('reads French spaces, no-break and narrow no-break spaces as grouping', () => {
    expect(read('74 000,5', 'fr')).toBe('74000.5');
    expect(read('74\u00a0000,5', 'fr')).toBe('74000.5');
    expect(read('74\u202f000,5', 'fr')).toBe('74000.5');
    expect(read(new Intl.NumberFormat('fr').format(1234567.5), 'fr')).toBe('1234567.5');
    expect(read('74.000', 'fr')).toBe('74000');
    expect(read('0.01', 'fr')).toBe('0.01');
  });

  it('accepts Indian grouping in Hindi', () => {
    expect(read('1,00,000', 'hi')).toBe('100000');
    expect(read('12,34,567.50', 'hi')).toBe('1234567.50');
    expect(read('1,000', 'hi')).toBe('1000');
    expect(read(new Intl.NumberFormat('hi').format(1234567.5), 'hi')).toBe('1234567.5');
    expect(read('1,5', 'hi')).toBe('ambiguous');
  });

  it('reads Japanese like English', () => {
    expect(read('74,000', 'ja')).toBe('74000');
    expect(read('0.01', 'ja')).toBe('0.01');
    expect(read('1,5', 'ja')).toBe('ambiguous');
  });

  it('shows plain decimals with the locale’s decimal mark in inputs', () => {
    expect(toInputText('0.01', 'de')).toBe('0,01');
    expect(toInputText('74000.00', 'fr')).toBe('74000,00');
    expect(toInputText('0.01', 'en')).toBe('0.01');
    expect(toInputText('0.01', 'ja')).toBe('0.01');
    // What is shown is read back as the same value.
    for (const intl of ['de', 'en', 'fr', 'hi', 'ja'])
      expect(read(toInputText('74000.50', intl), intl)).toBe('74000.50');
  });
});

describe('decimal strings of the terminal', () => {
  it('turns decimal strings into integer units and back without float rounding', () => {
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
    expect(volumeProblem(null, lots())).toBe('format');
    expect(volumeProblem('0', lots())).toBe('min');
    expect(volumeProblem('-1', lots())).toBe('min');
    expect(volumeProblem('0.001', lots())).toBe('min');
    expect(volumeProblem('0.015', lots())).toBe('step');
    expect(volumeProblem('0.0100', lots())).toBeNull();
    expect(volumeProblem('0.05', lots({ minVolume: '0.1', volumeStep: '0.1' }))).toBe('min');
    expect(volumeProblem('0.15', lots({ minVolume: '0.1', volumeStep: '0.1' }))).toBe('step');
    expect(volumeProblem('51', lots())).toBe('max');
    expect(stepVolume('0.01', lots(), 1)).toBe('0.02');
    expect(stepVolume('0.01', lots(), -1)).toBe('0.01');
    expect(stepVolume('0.15', lots({ minVolume: '0.1', volumeStep: '0.1' }), 1)).toBe('0.20');
    expect(stepVolume('0.15', lots({ minVolume: '0.1', volumeStep: '0.1' }), -1)).toBe('0.10');
    expect(stepVolume('50', lots(), 1)).toBe('50.00');
    expect(stepVolume(null, lots(), 1)).toBe('0.01');
    expect(stepVolume('0.015', lots(), 1)).toBe('0.02');
    expect(stepVolume('0.015', lots(), -1)).toBe('0.01');
    expect(lotsText('0.1')).toBe('0.10');
    expect(lotsText('0')).toBeNull();
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
    expect(distancePoints(null)).toBeNull();
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

  it('gives the part of a position being closed its share of the profit, exactly', () => {
    expect(partProfit('100.00', '0.10', '0.04')).toBe('40.00');
    expect(partProfit('-12.35', '0.03', '0.01')).toBe('-4.12');
    expect(partProfit('10.00', '0.03', '0.01')).toBe('3.33');
    expect(partProfit('0.05', '0.02', '0.01')).toBe('0.03');
    expect(partProfit('-0.05', '0.02', '0.01')).toBe('-0.03');
    expect(partProfit('123456789012345.67', '3.00', '1.00')).toBe('41152263004115.22');
    expect(partProfit('1.00', '0.10', '0.11')).toBeNull();
  });

  it('sends one submission per intent: clicks while sending and just after the result are ignored', () => {
    let now = 0;
    const gate = new SubmitGate(() => now, 500);
    expect(gate.tryStart()).toBe(true);
    now = 110;
    expect(gate.tryStart()).toBe(false);
    now = 80;
    gate.finish();
    now = 190;
    expect(gate.tryStart()).toBe(false);
    now = 579;
    expect(gate.tryStart()).toBe(false);
    now = 580;
    expect(gate.tryStart()).toBe(true);
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

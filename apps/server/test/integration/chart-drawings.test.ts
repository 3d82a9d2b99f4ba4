import { CHART_DRAWINGS_PATHS } from '@broker/contracts/chart-drawings-paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';
import { Trader } from '../trader';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const { chartdrawings: READ, chartdrawingssave: SAVE } = CHART_DRAWINGS_PATHS;
const csrf = (trader: Trader) => ({ 'x-csrf-token': trader.api.cookies.get('csrf') ?? '' });
const time = Date.UTC(2026, 10, 2, 9);
const trend = {
  id: 'trend1',
  kind: 'trend',
  points: [
    { time, price: 1.0812 },
    { time: time + 3_600_000, price: 1.0875 },
  ],
};
const note = { id: 'note1', kind: 'text', points: [{ time, price: 1.09 }], text: 'Breakout über 1.09 🚀' };

describe('chart drawings per trader and symbol', () => {
  it('saves, reads back, replaces and clears a trader’s drawings on one symbol', async () => {
    const trader = await Trader.signInStranger(server);
    const empty = await trader.api.post(READ, { symbol: 'EURUSD' });
    expect(empty.body.success).toBe(true);
    expect(empty.body.data).toEqual({ drawings: [] });

    const saved = await trader.api.post(SAVE, { symbol: 'eurusd', drawings: [trend, note] }, csrf(trader));
    expect(saved.body.success).toBe(true);
    const read = await trader.api.post(READ, { symbol: 'EURUSD' });
    expect(read.body.data.drawings).toEqual([trend, note]);
    // Another symbol has its own list.
    expect((await trader.api.post(READ, { symbol: 'XAUUSD' })).body.data.drawings).toEqual([]);

    await trader.api.post(SAVE, { symbol: 'EURUSD', drawings: [note] }, csrf(trader));
    expect((await trader.api.post(READ, { symbol: 'EURUSD' })).body.data.drawings).toEqual([note]);
    await trader.api.post(SAVE, { symbol: 'EURUSD', drawings: [] }, csrf(trader));
    expect((await trader.api.post(READ, { symbol: 'EURUSD' })).body.data.drawings).toEqual([]);
  });

  it('keeps each trader’s drawings to themselves', async () => {
    const owner = await Trader.signInStranger(server);
    const other = await Trader.signInStranger(server);
    await owner.api.post(SAVE, { symbol: 'GBPUSD', drawings: [trend] }, csrf(owner));
    expect((await other.api.post(READ, { symbol: 'GBPUSD' })).body.data.drawings).toEqual([]);
    expect((await owner.api.post(READ, { symbol: 'GBPUSD' })).body.data.drawings).toEqual([trend]);
  });

  it('refuses lists over the bounds and leaves the saved one as it was', async () => {
    const trader = await Trader.signInStranger(server);
    await trader.api.post(SAVE, { symbol: 'USDJPY', drawings: [trend] }, csrf(trader));
    const tooMany = Array.from({ length: 101 }, (_, i) => ({
      id: `h${i}`,
      kind: 'hline',
      points: [{ time, price: 150 + i }],
    }));
    const bad = [
      tooMany,
      [{ ...note, text: 'x'.repeat(201) }],
      [{ id: 'w', kind: 'pitchfork', points: [{ time, price: 1 }] }],
      [{ id: 'n', kind: 'hline', points: [{ time, price: '1e999' }] }],
    ];
    for (const drawings of bad) {
      const answer = await trader.api.post(SAVE, { symbol: 'USDJPY', drawings }, csrf(trader));
      expect(answer.body.success).toBe(false);
    }
    // Only the broker's instruments keep drawings: a made-up symbol is refused.
    const madeUp = await trader.api.post(SAVE, { symbol: 'ZZZ999', drawings: [trend] }, csrf(trader));
    expect(madeUp.body.errorCode).toBe(-3003);
    expect((await trader.api.post(READ, { symbol: 'USDJPY' })).body.data.drawings).toEqual([trend]);
    const hundred = await trader.api.post(
      SAVE,
      { symbol: 'USDJPY', drawings: tooMany.slice(0, 100) },
      csrf(trader),
    );
    expect(hundred.body.success).toBe(true);
    expect((await trader.api.post(READ, { symbol: 'USDJPY' })).body.data.drawings).toHaveLength(100);
  });

  it('is for signed-in traders only', async () => {
    const visitor = new ApiClient(server.baseUrl);
    const answer = await visitor.post(READ, { symbol: 'EURUSD' });
    expect(answer.body.success).toBe(false);
  });
});

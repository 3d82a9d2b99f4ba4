import { CHART_LAYOUT_PATHS } from '@broker/contracts/chart-layout-paths';
import { ROUTE_LIMITS } from '@broker/contracts/route-limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';
import { Trader } from '../trader';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const { chartlayout: READ, chartlayoutsave: SAVE } = CHART_LAYOUT_PATHS;
const csrf = (trader: Trader) => ({ 'x-csrf-token': trader.api.cookies.get('csrf') ?? '' });
const four = {
  kind: 4,
  panes: [
    { symbol: 'EURUSD', timeframe: 'M15' },
    { symbol: 'XAUUSD', timeframe: 'H1' },
    { symbol: 'BTCUSDT', timeframe: 'M5' },
    { symbol: 'USDJPY', timeframe: 'D1' },
  ],
  active: 2,
};

describe('the terminal chart layout per trader', () => {
  it('is null before the first save, then saves, reads back and replaces the layout', async () => {
    const trader = await Trader.signInStranger(server);
    const empty = await trader.api.post(READ, {});
    expect(empty.body.success).toBe(true);
    expect(empty.body.data).toEqual({ layout: null });

    const saved = await trader.api.post(SAVE, { layout: four }, csrf(trader));
    expect(saved.body.success).toBe(true);
    expect(saved.body.data).toEqual({ layout: four });
    expect((await trader.api.post(READ, {})).body.data).toEqual({ layout: four });

    // Back to one chart: the other panes are remembered for when it grows again.
    const single = { ...four, kind: 1, active: 0 };
    await trader.api.post(SAVE, { layout: single }, csrf(trader));
    expect((await trader.api.post(READ, {})).body.data.layout).toEqual(single);
    // Symbols are kept in upper case whatever the client sent.
    const lower = { kind: 2, panes: [{ symbol: 'gbpusd', timeframe: 'H4' }, four.panes[1]], active: 1 };
    const answer = await trader.api.post(SAVE, { layout: lower }, csrf(trader));
    expect(answer.body.data.layout.panes[0]).toEqual({ symbol: 'GBPUSD', timeframe: 'H4' });
  });

  it('keeps each trader’s layout to themselves and follows them to another session', async () => {
    const owner = await Trader.signIn(server.baseUrl);
    const other = await Trader.signInStranger(server);
    await owner.api.post(SAVE, { layout: four }, csrf(owner));
    expect((await other.api.post(READ, {})).body.data.layout).toBeNull();
    // The same trader signed in elsewhere (another browser, its own cookies) reads the same layout.
    const elsewhere = await Trader.signIn(server.baseUrl);
    expect((await elsewhere.api.post(READ, {})).body.data.layout).toEqual(four);
  });

  it('refuses a layout the server cannot show, with stable codes, and keeps the saved one', async () => {
    const trader = await Trader.signInStranger(server);
    await trader.api.post(SAVE, { layout: four }, csrf(trader));
    const pane = { symbol: 'EURUSD', timeframe: 'M15' };
    const malformed = [
      { ...four, kind: 3 },
      { ...four, panes: [...four.panes, pane] },
      { ...four, panes: [] },
      { kind: 4, panes: four.panes.slice(0, 3), active: 0 },
      { kind: 2, panes: four.panes.slice(0, 2), active: 2 },
      { ...four, active: -1 },
      { ...four, active: 1.5 },
      { ...four, panes: [{ symbol: 'EURUSD', timeframe: 'M2' }, ...four.panes.slice(1)] },
      { ...four, panes: [{ symbol: 'EUR/USD', timeframe: 'M15' }, ...four.panes.slice(1)] },
      { ...four, panes: [{ ...pane, extra: 1 }, ...four.panes.slice(1)] },
      { ...four, theme: 'dark' },
    ];
    for (const layout of malformed) {
      const answer = await trader.api.post(SAVE, { layout }, csrf(trader));
      expect(answer.body.success, JSON.stringify(layout)).toBe(false);
      expect(answer.body.errorCode).toBe(-9001);
    }
    // Only the broker's instruments: a made-up symbol is refused and named.
    const madeUp = { ...four, panes: [...four.panes.slice(0, 3), { symbol: 'ZZZ999', timeframe: 'H1' }] };
    const refused = await trader.api.post(SAVE, { layout: madeUp }, csrf(trader));
    expect(refused.body.errorCode).toBe(-3003);
    expect((await trader.api.post(READ, {})).body.data.layout).toEqual(four);
    // A save without the CSRF token is refused.
    const forged = await trader.api.post(SAVE, { layout: { ...four, kind: 1, active: 0 } });
    expect(forged.body.success).toBe(false);
    expect((await trader.api.post(READ, {})).body.data.layout).toEqual(four);
  });

  it('is for signed-in traders only and limits saves per trader', async () => {
    const visitor = new ApiClient(server.baseUrl);
    expect((await visitor.post(READ, {})).body.success).toBe(false);
    expect((await visitor.post(SAVE, { layout: four })).body.success).toBe(false);
    expect(ROUTE_LIMITS.chartlayoutsave).toEqual([{ by: 'subject', max: 120, seconds: 60 }]);
  });
});

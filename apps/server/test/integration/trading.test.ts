import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineHost } from '../../src/modules/trading/engine-host';
import { pushTick, startTestServer, type TTestServer } from '../helpers';
import { Trader } from '../trader';

let server: TTestServer;
/** Pushes a BTCUSDT quote through the market service, as the feed would, at the real time. */
const tick = (bid: number, ask = bid + 25) => pushTick(server, 'BTCUSDT', bid, ask);

beforeAll(async () => {
  // Crypto trades every day, so the test does not depend on the weekday; prices come from the test.
  server = await startTestServer({ FEED: 'off' });
  tick(67000);
});
afterAll(() => server.close());

describe('trading through the API', () => {
  it('opens a demo account, trades, fills, closes and finds it all in history', async () => {
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const list = (await trader.call('/api/v1/account/list')).body.data;
    expect(list[0]).toMatchObject({
      account_id: accountId,
      account_type: 1,
      trade_type: 2,
      is_abnormal: 0,
      equity: '100000.00',
      currency: 'USD',
      currency_symbol: '$',
    });

    const buy = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(buy.body.success, buy.body.message).toBe(true);
    const positionId = buy.body.data.ticket;
    let positions = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data;
    // Bought at the ask 67025.00; BTCUSDT's own leverage (10) caps the account's 100.
    expect(positions[0]).toMatchObject({
      order_id: positionId,
      side: 'buy',
      volume: '0.10',
      open_price: '67025.00',
      margin: '670.25',
    });
    expect(positions[0].profit).toBe('-2.50');

    tick(67500);
    positions = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data;
    expect(positions[0].profit).toBe('47.50');
    const info = (await trader.call('/api/v1/account/info', { account_id: accountId })).body.data;
    expect(info).toMatchObject({ balance: '100000.00', equity: '100047.50', margin: '670.25' });
    // Spec 5: a non-MT account's margin level is total equity / total margin as a ratio (not x100),
    // and the margin-call and stop-out levels are answered in the same form.
    expect(info.margin_level).toBe('149.2689');
    expect(info.margin_call_level).toMatch(/^\d+\.\d{4}$/);
    expect(Number(info.margin_call_level)).toBeLessThan(10);

    const modified = await trader.call('/api/v1/order/positionmodify', {
      account_id: accountId,
      order_id: positionId,
      take_profit: '68000.00',
      stop_loss: '66000.00',
      idempotencyKey: 'modify-0001',
    });
    expect(modified.body.success, modified.body.message).toBe(true);
    const wrongSide = await trader.call('/api/v1/order/positionmodify', {
      account_id: accountId,
      order_id: positionId,
      take_profit: '60000.00',
      idempotencyKey: 'modify-0002',
    });
    expect(wrongSide.body.errorCode).toBe(-3012);

    const limit = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      volume: '0.05',
      price: '66500.00',
    });
    expect(limit.body.success, limit.body.message).toBe(true);
    expect(limit.body.data.kind).toBe('order');
    expect((await trader.call('/api/v1/order/pending', { account_id: accountId })).body.data).toHaveLength(1);

    tick(67000);
    tick(66470); // ask 66495 reaches the buy limit at 66500
    expect((await trader.call('/api/v1/order/pending', { account_id: accountId })).body.data).toHaveLength(0);
    await server.app.services.engine.idle();
    positions = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data;
    expect(positions).toHaveLength(2);

    // Steps under the off-market filter's limit (25 spreads) so no tick is dropped.
    tick(67000);
    tick(67500);
    tick(68010); // bid reaches the first position's take-profit
    await server.app.services.engine.idle();
    positions = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data;
    expect(positions).toHaveLength(1);
    const second = positions[0];
    const close = await trader.call('/api/v1/order/close', {
      account_id: accountId,
      order_id: second.order_id,
      idempotencyKey: 'close-0001',
    });
    expect(close.body.data.closed).toBe(1);

    const deals = (await trader.call('/api/v1/order/history', { account_id: accountId })).body.data;
    expect(deals.total).toBe(2);
    // The symbol filter takes the symbol or its beginning (3 characters or more), in any case.
    const filtered = async (symbol: string) =>
      (await trader.call('/api/v1/order/history', { account_id: accountId, symbol })).body.data.total;
    expect(await filtered('btc')).toBe(2);
    expect(await filtered('BTCUSDT')).toBe(2);
    expect(await filtered('ETH')).toBe(0);
    expect(await filtered('XYZ')).toBe(0);
    const byReason = Object.fromEntries(
      deals.items.map((d: { close_reason: number }) => [d.close_reason, d]),
    );
    expect(byReason[3]).toMatchObject({
      position_id: positionId,
      close_price: '68010.00',
      open_price: '67025.00',
      profit: '98.50',
    });
    expect(byReason[1]).toMatchObject({ open_price: '66495.00', close_price: '68010.00', volume: '0.05' });
    const csv = await (
      await trader.api.get(`/api/v1/order/history.csv?account_id=${accountId}&format=raw`)
    ).text();
    const lines = csv.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^position_id,symbol,side,volume/);
    expect(lines.some((l) => l.endsWith(',98.50,take_profit_or_stop_loss'))).toBe(true);
    // For people: the trader's language, with a byte-order mark for spreadsheet apps.
    const bytes = new Uint8Array(
      await (await trader.api.get(`/api/v1/order/history.csv?account_id=${accountId}`)).arrayBuffer(),
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const english = new TextDecoder().decode(bytes);
    expect(english.startsWith('Position,Symbol,Side,Volume (lots),Open time (UTC)')).toBe(true);
    expect(english).toContain(',98.50,Take-profit or stop-loss');
    trader.api.cookies.set('lang', 'zh-CN');
    const chinese = await (await trader.api.get(`/api/v1/order/history.csv?account_id=${accountId}`)).text();
    trader.api.cookies.set('lang', 'en');
    expect(chinese.split('\n')[0]).toContain('开仓时间（UTC）');
    expect(chinese).not.toContain('take_profit_or_stop_loss');
    // German spreadsheets split on ';' and read decimal commas.
    trader.api.cookies.set('lang', 'de');
    const german = await (await trader.api.get(`/api/v1/order/history.csv?account_id=${accountId}`)).text();
    trader.api.cookies.set('lang', 'en');
    expect(german.split('\n')[0]?.split(';')).toHaveLength(13);
    expect(german).toContain(';98,50;');
    expect(german).toContain(';0,05;');
    const strangerCsv = await new Trader(server.baseUrl).api.get(
      `/api/v1/order/history.csv?account_id=${accountId}`,
    );
    expect(strangerCsv.status).toBe(401);
    const orders = (await trader.call('/api/v1/order/orderhistory', { account_id: accountId })).body.data;
    expect(orders.items[0]).toMatchObject({ status: 'filled', type: 'buy_limit', fill_price: '66495.00' });
    // The market buy is in the order history too, filled at once with its position's ticket.
    expect(orders.items).toContainEqual(
      expect.objectContaining({
        type: 'buy',
        status: 'filled',
        position_id: positionId,
        fill_price: '67025.00',
      }),
    );

    // Every ledger transaction balances, and the stored balance is the sum of the trader's postings.
    const db = server.app.services.database.db;
    const entries = await db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute();
    const byTx = new Map<string, number>();
    for (const e of entries) byTx.set(String(e.tx_id), (byTx.get(String(e.tx_id)) ?? 0) + Number(e.amount));
    expect([...byTx.values()].every((sum) => sum === 0)).toBe(true);
    const traderSum = entries
      .filter((e) => e.ledger_account === `trader:${accountId}`)
      .reduce((sum, e) => sum + Number(e.amount), 0);
    const stored = await db
      .selectFrom('trading_accounts')
      .select('balance')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.balance)).toBe(traderSum);
    expect(Number(stored.balance)).toBe(10_000_000 + 9850 + (68010 - 66495) * 5);

    // A second engine built from the database alone has the same state.
    const rebuilt = new EngineHost(server.app.services.database, null);
    await rebuilt.start();
    expect(rebuilt.core.account(accountId)?.balance).toBe(
      server.app.services.engine.core.account(accountId)?.balance,
    );
    expect(rebuilt.core.positionsOf(accountId)).toHaveLength(0);
  });

  it('answers a repeated idempotency key with the first result, and refuses bad signatures and replayed nonces', async () => {
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const signed = trader.sign({ volume: '0.01', side: 'buy', accountId, leverage: 100, symbol: 'BTCUSDT' });
    const body = {
      account_id: accountId,
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      volume: '0.01',
      idempotencyKey: 'same-key-0001',
      ...signed,
    };
    const [a, b] = await Promise.all([
      trader.call('/api/v1/order/send', body),
      trader.call('/api/v1/order/send', body),
    ]);
    expect(a.body.success, a.body.message).toBe(true);
    expect(b.body.data.ticket).toBe(a.body.data.ticket);
    expect((await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data).toHaveLength(
      1,
    );
    // The same nonce with a new key is a replay.
    const replay = await trader.call('/api/v1/order/send', { ...body, idempotencyKey: 'same-key-0002' });
    expect(replay.body.errorCode).toBe(-3014);
    const forged = await trader.call('/api/v1/order/send', {
      ...body,
      volume: '0.02',
      idempotencyKey: 'same-key-0003',
      ...trader.sign({ volume: '0.01', side: 'buy', accountId, leverage: 100, symbol: 'BTCUSDT' }),
    });
    expect(forged.body.errorCode).toBe(-3014);
    const changed = await trader.call('/api/v1/order/send', { ...body, volume: '0.03' });
    expect(changed.body.errorCode).toBe(-3013);
  });

  it('tells a finished order (-3001) or closed position (-3016) from one that never existed (-3005)', async () => {
    tick(67000);
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const key = () => `key-${crypto.randomUUID()}`;
    const opened = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    const positionId = opened.body.data.ticket;
    const close = (id: number) =>
      trader.call('/api/v1/order/close', { account_id: accountId, order_id: id, idempotencyKey: key() });
    expect((await close(positionId)).body.success).toBe(true);
    const again = await close(positionId);
    expect(again.body.errorCode).toBe(-3016);
    expect(again.body.message).toBe('This position has already been closed.');
    expect((await close(424242)).body.errorCode).toBe(-3005);
    const stops = { account_id: accountId, take_profit: '70000.00', stop_loss: null, idempotencyKey: key() };
    expect(
      (await trader.call('/api/v1/order/positionmodify', { ...stops, order_id: positionId })).body.errorCode,
    ).toBe(-3016);
    expect(
      (await trader.call('/api/v1/order/positionmodify', { ...stops, order_id: 424242 })).body.errorCode,
    ).toBe(-3005);

    const limit = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      volume: '0.05',
      price: '60000.00',
    });
    const orderId = limit.body.data.ticket;
    const cancel = (id: number) =>
      trader.call('/api/v1/order/cancel', { account_id: accountId, order_id: id, idempotencyKey: key() });
    expect((await cancel(orderId)).body.success).toBe(true);
    expect((await cancel(orderId)).body.errorCode).toBe(-3001);
    expect((await cancel(424242)).body.errorCode).toBe(-3005);
    const modify = (id: number) =>
      trader.call('/api/v1/order/modify', {
        account_id: accountId,
        order_id: id,
        price: '61000.00',
        idempotencyKey: key(),
      });
    // A period that ends before it starts is refused, as the portal's filter refuses it.
    const reversed = await trader.call('/api/v1/order/history', {
      account_id: accountId,
      from: Date.now(),
      to: Date.now() - 86_400_000,
    });
    expect(reversed.body.errorCode).toBe(-9001);
    expect(reversed.body.fields?.from).toBe('The start date must not be after the end date.');
    // A number out of range names its bound (not "too long", a text's message).
    const oversized = await trader.call('/api/v1/order/history', { account_id: accountId, size: 500 });
    expect(oversized.body.fields?.size).toBe('Enter a number of at most 200.');
    const undersized = await trader.call('/api/v1/order/history', { account_id: accountId, page: 0 });
    expect(undersized.body.fields?.page).toBe('Enter a number of at least 1.');

    expect((await modify(orderId)).body.errorCode).toBe(-3001);
    expect((await modify(424242)).body.errorCode).toBe(-3005);
    // Another trader's finished order is unknown to this account, not "finished".
    const stranger = await Trader.signInStranger(server);
    const theirs = await stranger.createAccount(1, 2, 100);
    expect(
      (
        await stranger.call('/api/v1/order/cancel', {
          account_id: theirs,
          order_id: orderId,
          idempotencyKey: key(),
        })
      ).body.errorCode,
    ).toBe(-3005);
  });

  it('charges swap once per rollover day, as double-entry postings', async () => {
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const engine = server.app.services.engine;
    // Forex trades on weekdays only: this position is opened at a Wednesday noon, whatever today is.
    const noon = Date.parse('2026-11-25T12:00:00Z');
    server.app.services.market.onTick({ symbol: 'EURUSD', time: Date.now(), bid: 108500, ask: 108512 });
    const opened = await engine.submit({
      type: 'open_market',
      clientKey: 'swap-test-open',
      time: noon,
      accountId,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
    });
    expect(opened.ok).toBe(true);
    const wednesday = Date.parse('2026-11-25T22:00:00Z');
    await engine.rollover(wednesday);
    await engine.rollover(wednesday); // the same day again: nothing more
    const db = server.app.services.database.db;
    const swaps = await db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('kind', '=', 'swap')
      .execute();
    // One transaction: the trader's leg and the broker's swap account, summing to zero.
    expect(new Set(swaps.map((s) => String(s.tx_id))).size).toBe(1);
    expect(swaps.reduce((sum, s) => sum + Number(s.amount), 0)).toBe(0);
    const position = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data[0];
    expect(position.swap).not.toBe('0.00');
  });

  it('needs the trade token, keeps accounts private, and checks volume and margin', async () => {
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const signed = trader.sign({ volume: '0.01', side: 'buy', accountId, leverage: 100, symbol: 'BTCUSDT' });
    const noToken = await trader.api.post(
      '/api/v1/order/send',
      {
        account_id: accountId,
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        volume: '0.01',
        idempotencyKey: 'k-00000001',
        ...signed,
      },
      { 'x-csrf-token': trader.api.cookies.get('csrf') ?? '' },
    );
    expect(noToken.body.errorCode).toBe(-1001);

    const stranger = await Trader.signInStranger(server);
    const peek = await stranger.call('/api/v1/account/info', { account_id: accountId });
    expect(peek.body.errorCode).toBe(-3006);

    expect(
      (await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.015' })).body.errorCode,
    ).toBe(-9001);
    expect(
      (await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '60' })).body.errorCode,
    ).toBe(-3010);
    // 100,000 USD at 1:10 holds about 14.9 BTC: 20 BTC needs more margin than there is.
    expect(
      (await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '20' })).body.errorCode,
    ).toBe(-2001);
    const preview = (
      await trader.call('/api/v1/order/margin', {
        account_id: accountId,
        symbol: 'BTCUSDT',
        side: 'buy',
        volume: '1',
      })
    ).body.data;
    expect(preview).toMatchObject({ currency: 'USD', usable_margin: '100000.00' });
    expect(Number(preview.margin)).toBeGreaterThan(6000);
  });
});

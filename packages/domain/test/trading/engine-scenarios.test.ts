import { describe, expect, it } from 'vitest';
import { AccountType, TradeType } from '../../src/trading/calculations';
import { LedgerAccount, TradingEngine } from '../../src/trading/engine-core';
import { CloseReason } from '../../src/trading/orders';
import { engineConfig, eventsOf, Harness, ledgerEvents, points, SATURDAY } from './harness';

function fundedHarness(balance = 1_000_000, overrides = {}): Harness {
  const h = new Harness(overrides);
  h.seedQuotes();
  h.createAccount(1, { initialBalance: balance });
  return h;
}

describe('market orders', () => {
  it('opens a EURUSD buy at the ask with base-currency margin converted at the ask', () => {
    const h = fundedHarness();
    const { events, ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
    });
    const opened = eventsOf(events, 'position_opened')[0]!;
    expect(opened.position).toMatchObject({
      positionId: ticket,
      openPrice: points('EURUSD', '1.08430'),
      margin: 108_430, // 1,000 EUR at 1.08430 = 1,084.30 USD
      profit: -1_000, // one pip of spread on one lot
    });
    expect(h.engine.account(1)).toMatchObject({
      balance: 1_000_000,
      equity: 999_000,
      margin: 108_430,
      usableMargin: 1_000_000 - 1_000 - 108_430,
    });
  });

  it('realises profit on close at the bid and posts it against broker P/L', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
    });
    h.tick('EURUSD', '1.08520', '1.08530');
    expect(h.engine.position(ticket!)?.profit).toBe(9_000);
    const { events } = h.ok({ type: 'close_position', accountId: 1, positionId: ticket! });
    const closed = eventsOf(events, 'position_closed')[0]!;
    expect(closed).toMatchObject({
      profit: 9_000,
      closePrice: 108_520,
      reason: CloseReason.MANUAL,
      remainingVolume: 0,
    });
    const [ledger] = ledgerEvents(events);
    expect(ledger?.postings).toEqual([
      { ledgerAccount: 'trader:1', amount: 9_000 },
      { ledgerAccount: LedgerAccount.BROKER_PNL, amount: -9_000 },
    ]);
    expect(h.engine.account(1)).toMatchObject({ balance: 1_009_000, margin: 0, totalProfit: 0 });
  });

  it('converts JPY profit to USD with the rate worse for the client', () => {
    const h = fundedHarness();
    const { ticket, events } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'USDJPY',
      side: 'buy',
      volume: 100,
    });
    expect(eventsOf(events, 'position_opened')[0]?.position.margin).toBe(100_000); // 1,000 USD, no conversion
    h.tick('USDJPY', '151.520', '151.530');
    // 9,000 JPY gained, divided by the ask 151.530: 59.3948 -> 59.39
    expect(h.engine.position(ticket!)?.profit).toBe(5_939);
    h.tick('USDJPY', '151.320', '151.330');
    // 11,000 JPY lost, divided by the bid 151.320: 72.6936 -> 72.69
    expect(h.engine.position(ticket!)?.profit).toBe(-7_269);
  });

  it('takes quote-currency margin for metals and indices, with the index leverage cap', () => {
    const h = fundedHarness();
    const gold = h.ok({ type: 'open_market', accountId: 1, symbol: 'XAUUSD', side: 'buy', volume: 100 });
    expect(eventsOf(gold.events, 'position_opened')[0]?.position.margin).toBe(234_180);
    const index = h.ok({ type: 'open_market', accountId: 1, symbol: 'US500', side: 'buy', volume: 100 });
    // 5,231.9 / 20 = 261.595, margin rounds up
    expect(eventsOf(index.events, 'position_opened')[0]?.position.margin).toBe(26_160);
    const dax = h.ok({ type: 'open_market', accountId: 1, symbol: 'GER40', side: 'sell', volume: 100 });
    // 18,175.2 / 20 = 908.76 EUR at the EURUSD ask 1.08430 = 985.3685 USD, rounded up
    expect(eventsOf(dax.events, 'position_opened')[0]?.position.margin).toBe(98_537);
  });

  it('keeps several positions per symbol (hedging) and values each on its own', () => {
    const h = fundedHarness();
    const long = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 })
      .ticket!;
    const short = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'sell', volume: 100 })
      .ticket!;
    h.tick('EURUSD', '1.08620', '1.08630');
    expect(h.engine.position(long)?.profit).toBe(19_000);
    expect(h.engine.position(short)?.profit).toBe(-21_000);
    expect(h.engine.account(1)?.margin).toBe(108_430 + 108_430);
  });

  it('closes part of a position, releasing margin pro rata', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
    });
    h.tick('EURUSD', '1.08530', '1.08540');
    const { events } = h.ok({ type: 'close_position', accountId: 1, positionId: ticket!, volume: 30 });
    expect(eventsOf(events, 'position_closed')[0]).toMatchObject({
      volume: 30,
      remainingVolume: 70,
      profit: 3_000,
    });
    expect(h.engine.position(ticket!)).toMatchObject({ volume: 70, margin: 75_901, profit: 7_000 });
    expect(h.engine.account(1)).toMatchObject({ balance: 1_003_000, margin: 75_901 });
    expect(h.run({ type: 'close_position', accountId: 1, positionId: ticket!, volume: 80 })).toEqual({
      ok: false,
      error: 'INVALID_VOLUME',
    });
  });

  it('charges commission per lot per side', () => {
    const h = fundedHarness(1_000_000, { EURUSD: { commissionPerLotMinor: 350 } });
    const { events, ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 200,
    });
    expect(
      ledgerEvents(events).map((l) => [l.kind, l.postings[0]?.amount, l.postings[1]?.ledgerAccount]),
    ).toEqual([['commission', -700, LedgerAccount.BROKER_COMMISSION]]);
    const closed = h.ok({ type: 'close_position', accountId: 1, positionId: ticket! });
    expect(ledgerEvents(closed.events).map((l) => l.kind)).toEqual(['realized_pnl', 'commission']);
    expect(h.engine.account(1)?.balance).toBe(1_000_000 - 700 - 2_000 - 700);
  });
});

describe('validation', () => {
  it('rejects what the instrument does not allow', () => {
    const h = fundedHarness(1_000_000, {
      EURGBP: { enabled: false },
      GBPUSD: { closeOnly: true },
      EURUSD: { shortAllowed: false },
    });
    h.tick('EURGBP', '0.85560', '0.85570');
    const open = (symbol: string, side: 'buy' | 'sell', volume = 100) =>
      h.run({ type: 'open_market', accountId: 1, symbol, side, volume });
    expect(open('EURGBP', 'buy')).toEqual({ ok: false, error: 'SYMBOL_DISABLED' });
    expect(open('GBPUSD', 'buy')).toEqual({ ok: false, error: 'SYMBOL_CLOSE_ONLY' });
    expect(open('EURUSD', 'sell')).toEqual({ ok: false, error: 'SHORT_NOT_ALLOWED' });
    expect(open('EURUSD', 'buy', 0)).toEqual({ ok: false, error: 'INVALID_VOLUME' });
    expect(open('US500', 'buy', 15)).toEqual({ ok: false, error: 'INVALID_VOLUME' });
    expect(open('NOPE', 'buy')).toEqual({ ok: false, error: 'SYMBOL_UNKNOWN' });
    expect(open('AUDUSD', 'buy')).toEqual({ ok: false, error: 'NO_PRICE' });
    h.time = SATURDAY;
    expect(open('USDJPY', 'buy')).toEqual({ ok: false, error: 'MARKET_CLOSED' });
  });

  it('rejects take-profit and stop-loss on the wrong side', () => {
    const h = fundedHarness();
    const open = (takeProfit: string | null, stopLoss: string | null, side: 'buy' | 'sell' = 'buy') =>
      h.run({
        type: 'open_market',
        accountId: 1,
        symbol: 'EURUSD',
        side,
        volume: 100,
        takeProfit: takeProfit === null ? null : points('EURUSD', takeProfit),
        stopLoss: stopLoss === null ? null : points('EURUSD', stopLoss),
      });
    expect(open('1.08400', null)).toEqual({ ok: false, error: 'INVALID_STOPS' });
    expect(open(null, '1.08420')).toEqual({ ok: false, error: 'INVALID_STOPS' });
    expect(open('1.08500', null, 'sell')).toEqual({ ok: false, error: 'INVALID_STOPS' });
    expect(open('1.08500', '1.08300').ok).toBe(true);
    expect(open('1.08300', '1.08500', 'sell').ok).toBe(true);
  });

  it('enforces per-account restrictions', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
    });
    h.ok({
      type: 'set_restrictions',
      accountId: 1,
      restrictions: { noOpen: true, noClose: true, noTakeProfit: true, noStopLoss: true, noWithdrawal: true },
    });
    const denied = { ok: false, error: 'ACCOUNT_RESTRICTED' };
    expect(h.run({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 })).toEqual(
      denied,
    );
    expect(h.run({ type: 'close_position', accountId: 1, positionId: ticket! })).toEqual(denied);
    expect(h.run({ type: 'close_all', accountId: 1 })).toEqual(denied);
    expect(
      h.run({
        type: 'modify_position',
        accountId: 1,
        positionId: ticket!,
        takeProfit: 109_000,
        stopLoss: null,
      }),
    ).toEqual(denied);
    expect(
      h.run({
        type: 'modify_position',
        accountId: 1,
        positionId: ticket!,
        takeProfit: null,
        stopLoss: 107_000,
      }),
    ).toEqual(denied);
    expect(h.run({ type: 'withdraw', accountId: 1, amount: 100 })).toEqual(denied);
    expect(h.run({ type: 'deposit', accountId: 1, amount: 100 }).ok).toBe(true);
    // The restrictions bind the trader, not the broker: the dealer's close (reason 2) goes through.
    expect(
      h.run({ type: 'close_position', accountId: 1, positionId: ticket!, volume: 50, reason: 2 }).ok,
    ).toBe(true);
    expect(h.engine.position(ticket!)?.volume).toBe(50);
    expect(h.run({ type: 'close_all', accountId: 1, reason: 2 }).ok).toBe(true);
    expect(h.engine.position(ticket!)).toBeUndefined();
  });

  it('refuses a position the usable margin cannot carry', () => {
    const h = fundedHarness(100_000);
    expect(h.run({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 })).toEqual({
      ok: false,
      error: 'INSUFFICIENT_MARGIN',
    });
    expect(h.engine.account(1)?.margin).toBe(0);
  });

  it('reports a closed position as already closed', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
    });
    h.ok({ type: 'close_position', accountId: 1, positionId: ticket! });
    expect(h.run({ type: 'close_position', accountId: 1, positionId: ticket! })).toEqual({
      ok: false,
      error: 'POSITION_ALREADY_CLOSED',
    });
    expect(h.run({ type: 'close_position', accountId: 1, positionId: 999 })).toEqual({
      ok: false,
      error: 'POSITION_NOT_FOUND',
    });
    const open = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 })
      .ticket!;
    // Take-profit/stop-loss (3) is the engine's own reason; no command may claim it.
    expect(h.run({ type: 'close_position', accountId: 1, positionId: open, reason: 3 })).toEqual({
      ok: false,
      error: 'INVALID_CLOSE_REASON',
    });
  });
});

describe('pending orders', () => {
  it('fills a buy limit when the ask falls to it, at the ask', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'place_pending',
      accountId: 1,
      symbol: 'EURUSD',
      orderType: 'buy_limit',
      volume: 100,
      price: points('EURUSD', '1.08300'),
      takeProfit: points('EURUSD', '1.08600'),
    });
    expect(h.tick('EURUSD', '1.08300', '1.08310')).toEqual([]);
    const events = h.tick('EURUSD', '1.08280', '1.08290');
    expect(eventsOf(events, 'order_filled')[0]).toMatchObject({
      orderId: ticket,
      positionId: ticket,
      price: 108_290,
    });
    expect(h.engine.position(ticket!)).toMatchObject({ openPrice: 108_290, takeProfit: 108_600 });
    expect(h.engine.order(ticket!)).toBeUndefined();
  });

  it.each([
    ['sell_limit', '1.08500', ['1.08490', '1.08500'], ['1.08500', '1.08510']],
    ['buy_stop', '1.08500', ['1.08480', '1.08490'], ['1.08490', '1.08500']],
    ['sell_stop', '1.08300', ['1.08310', '1.08320'], ['1.08300', '1.08310']],
  ] as const)('fills a %s only once its side crosses', (orderType, price, quiet, crossing) => {
    const h = fundedHarness();
    h.ok({
      type: 'place_pending',
      accountId: 1,
      symbol: 'EURUSD',
      orderType,
      volume: 100,
      price: points('EURUSD', price),
    });
    expect(eventsOf(h.tick('EURUSD', quiet[0], quiet[1]), 'order_filled')).toHaveLength(0);
    expect(eventsOf(h.tick('EURUSD', crossing[0], crossing[1]), 'order_filled')).toHaveLength(1);
  });

  it('turns a buy stop-limit into a limit when the stop is reached, then fills at the limit', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'place_pending',
      accountId: 1,
      symbol: 'EURUSD',
      orderType: 'buy_stop_limit',
      volume: 100,
      price: points('EURUSD', '1.08600'),
      limitPrice: points('EURUSD', '1.08550'),
    });
    const activated = h.tick('EURUSD', '1.08600', '1.08610');
    expect(activated.map((e) => e.type)).toEqual(['order_activated']);
    expect(h.engine.order(ticket!)?.activated).toBe(true);
    expect(h.tick('EURUSD', '1.08560', '1.08570')).toEqual([]);
    const filled = h.tick('EURUSD', '1.08540', '1.08550');
    expect(eventsOf(filled, 'order_filled')[0]?.price).toBe(108_550);
  });

  it('activates a sell stop-limit at its stop and fills it when the bid rises to the limit', () => {
    const h = fundedHarness();
    h.ok({
      type: 'place_pending',
      accountId: 1,
      symbol: 'EURUSD',
      orderType: 'sell_stop_limit',
      volume: 100,
      price: points('EURUSD', '1.08300'),
      limitPrice: points('EURUSD', '1.08350'),
    });
    h.tick('EURUSD', '1.08290', '1.08300');
    expect(eventsOf(h.tick('EURUSD', '1.08360', '1.08370'), 'order_filled')).toHaveLength(1);
  });

  it('rejects marketable pending prices and cancels on request', () => {
    const h = fundedHarness();
    const place = (orderType: 'buy_limit' | 'buy_stop', price: string) =>
      h.run({
        type: 'place_pending',
        accountId: 1,
        symbol: 'EURUSD',
        orderType,
        volume: 100,
        price: points('EURUSD', price),
      });
    expect(place('buy_limit', '1.08430')).toEqual({ ok: false, error: 'INVALID_PRICE' });
    expect(place('buy_stop', '1.08420')).toEqual({ ok: false, error: 'INVALID_PRICE' });
    const placed = place('buy_limit', '1.08000');
    if (!placed.ok) throw new Error('placed');
    const cancelled = h.ok({ type: 'cancel_order', accountId: 1, orderId: placed.ticket! });
    expect(eventsOf(cancelled.events, 'order_cancelled')[0]?.reason).toBe('client');
    expect(h.run({ type: 'cancel_order', accountId: 1, orderId: placed.ticket! })).toEqual({
      ok: false,
      error: 'ORDER_ALREADY_CLOSED',
    });
  });

  it('cancels a pending order that fills into insufficient margin', () => {
    const h = fundedHarness(60_000);
    h.ok({
      type: 'place_pending',
      accountId: 1,
      symbol: 'EURUSD',
      orderType: 'buy_limit',
      volume: 100,
      price: points('EURUSD', '1.08000'),
    });
    const events = h.tick('EURUSD', '1.07990', '1.08000');
    expect(eventsOf(events, 'order_cancelled')[0]?.reason).toBe('insufficient_margin');
    expect(h.engine.counts).toMatchObject({ positions: 0, orders: 0, triggers: 0 });
  });
});

describe('take-profit and stop-loss', () => {
  it('closes a buy at the bid when it reaches its take-profit, reason 3', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
      takeProfit: points('EURUSD', '1.08500'),
      stopLoss: points('EURUSD', '1.08300'),
    });
    expect(h.tick('EURUSD', '1.08490', '1.08500')).toEqual([]);
    const events = h.tick('EURUSD', '1.08510', '1.08520');
    expect(eventsOf(events, 'position_closed')[0]).toMatchObject({
      positionId: ticket,
      closePrice: 108_510,
      profit: 8_000,
      reason: CloseReason.TAKE_PROFIT_OR_STOP_LOSS,
    });
    expect(h.engine.counts.triggers).toBe(0);
  });

  it('stops a sell out at the ask, slipping through a gap', () => {
    const h = fundedHarness();
    h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'sell',
      volume: 100,
      stopLoss: points('EURUSD', '1.08500'),
    });
    const events = h.tick('EURUSD', '1.08600', '1.08610');
    expect(eventsOf(events, 'position_closed')[0]).toMatchObject({ closePrice: 108_610, profit: -19_000 });
  });

  it('moves the triggers when the levels are modified', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
      takeProfit: points('EURUSD', '1.08500'),
    });
    h.ok({
      type: 'modify_position',
      accountId: 1,
      positionId: ticket!,
      takeProfit: 108_700,
      stopLoss: 108_000,
    });
    expect(h.tick('EURUSD', '1.08510', '1.08520')).toEqual([]);
    expect(h.engine.checkInvariants()).toEqual([]);
    expect(eventsOf(h.tick('EURUSD', '1.07990', '1.08000'), 'position_closed')).toHaveLength(1);
  });
});

describe('margin call and stop-out', () => {
  it('flags a margin call below 100 %, blocks new positions, and clears when equity recovers', () => {
    const h = fundedHarness(100_000);
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 50 }); // margin 54,215
    const call = h.tick('EURUSD', '1.07500', '1.07510');
    expect(eventsOf(call, 'margin_call')[0]).toMatchObject({ active: true, marginLevelBp: 9_868 });
    expect(h.run({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 1 })).toEqual({
      ok: false,
      error: 'MARGIN_LEVEL_TOO_LOW',
    });
    expect(eventsOf(h.tick('EURUSD', '1.08000', '1.08010'), 'margin_call')[0]?.active).toBe(false);
  });

  it('stops out below 50 % at the current bid, reason 2', () => {
    const h = fundedHarness(100_000);
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 50 });
    h.tick('EURUSD', '1.07500', '1.07510');
    const events = h.tick('EURUSD', '1.06950', '1.06960');
    expect(events.map((e) => e.type)).toEqual(['stop_out', 'position_closed', 'ledger', 'margin_call']);
    expect(eventsOf(events, 'position_closed')[0]).toMatchObject({
      reason: CloseReason.AUTOMATIC,
      profit: -74_000,
    });
    expect(h.engine.account(1)).toMatchObject({ balance: 26_000, margin: 0, marginCall: false });
  });

  it('closes the biggest loser first and stops once the level is restored', () => {
    const h = fundedHarness(100_000);
    const euro = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 30 })
      .ticket!;
    const pound = h.ok({ type: 'open_market', accountId: 1, symbol: 'GBPUSD', side: 'buy', volume: 30 })
      .ticket!;
    const events = h.tick('EURUSD', '1.06000', '1.06010');
    expect(eventsOf(events, 'position_closed').map((e) => e.positionId)).toEqual([euro]);
    expect(h.engine.position(pound)).toBeDefined();
  });

  it('floors a real account at zero after a gap with a negative-balance-protection posting', () => {
    const h = fundedHarness(100_000);
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 50 });
    const events = h.tick('EURUSD', '1.05000', '1.05010');
    const nbp = ledgerEvents(events).find((l) => l.kind === 'negative_balance_protection');
    expect(nbp?.postings).toEqual([
      { ledgerAccount: 'trader:1', amount: 71_500 },
      { ledgerAccount: LedgerAccount.BROKER_NBP, amount: -71_500 },
    ]);
    expect(h.engine.account(1)?.balance).toBe(0);
  });

  it('lets a demo account go negative (no protection)', () => {
    const h = new Harness();
    h.seedQuotes();
    h.createAccount(1, { accountType: AccountType.DEMO, initialBalance: 100_000 });
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 50 });
    h.tick('EURUSD', '1.05000', '1.05010');
    expect(h.engine.account(1)?.balance).toBe(-71_500);
  });

  it('counts follow and strategy equity towards the margin level of our accounts', () => {
    const h = fundedHarness(100_000);
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 50 });
    h.ok({ type: 'set_external_equity', accountId: 1, followEquity: 50_000, strategyEquity: 0 });
    expect(eventsOf(h.tick('EURUSD', '1.06950', '1.06960'), 'stop_out')).toHaveLength(0);
  });
});

describe('funding', () => {
  it('books deposits and withdrawals against external funding with signed in/out totals', () => {
    const h = fundedHarness();
    h.ok({ type: 'deposit', accountId: 1, amount: 50_000 });
    h.ok({ type: 'withdraw', accountId: 1, amount: 20_000 });
    expect(h.engine.account(1)).toMatchObject({
      balance: 1_030_000,
      initMoney: 1_000_000,
      totalInAmount: -50_000,
      totalOutAmount: 20_000,
      accountProfit: 0,
    });
    expect(h.run({ type: 'withdraw', accountId: 1, amount: 2_000_000 })).toEqual({
      ok: false,
      error: 'INSUFFICIENT_FUNDS',
    });
  });

  it('books a broker adjustment as money paid in or out, never as trading profit', () => {
    const h = fundedHarness();
    h.ok({ type: 'adjust_balance', accountId: 1, amount: 100_000 });
    h.ok({ type: 'adjust_balance', accountId: 1, amount: -30_000 });
    expect(h.engine.account(1)).toMatchObject({
      balance: 1_070_000,
      totalInAmount: -100_000,
      totalOutAmount: 30_000,
      accountProfit: 0,
    });
    // A demo reset's top-up is the demo's own credit, not a deposit; refused on other accounts.
    expect(h.run({ type: 'adjust_balance', accountId: 1, amount: 5_000, demoReset: true })).toEqual({
      ok: false,
      error: 'INVALID_AMOUNT',
    });
  });

  it('caps experience-account deposits at 100 USDT minus the net value, in USC', () => {
    const h = new Harness();
    h.seedQuotes();
    h.createAccount(3, { accountType: AccountType.EXPERIENCE, currency: 'USC', initialBalance: 400_000 });
    expect(h.run({ type: 'deposit', accountId: 3, amount: 600_001 })).toEqual({
      ok: false,
      error: 'DEPOSIT_CAP_EXCEEDED',
    });
    expect(h.run({ type: 'deposit', accountId: 3, amount: 600_000 }).ok).toBe(true);
  });

  it('values a USD-quoted position in USC at 100 cents per dollar', () => {
    const h = new Harness();
    h.seedQuotes();
    h.createAccount(3, { accountType: AccountType.EXPERIENCE, currency: 'USC', initialBalance: 1_000_000 });
    const { events } = h.ok({ type: 'open_market', accountId: 3, symbol: 'EURUSD', side: 'buy', volume: 1 });
    // 0.01 lot: margin 10 EUR = 10.843 USD = 1,084.30 USC; spread 1 pip = 0.10 USD = 10 USC
    expect(eventsOf(events, 'position_opened')[0]?.position).toMatchObject({
      margin: 108_430,
      profit: -1_000,
    });
  });
});

describe('swaps', () => {
  it('charges triple swap on the Wednesday rollover for forex', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
    });
    h.time = Date.parse('2026-11-25T22:00:00Z');
    const { events } = h.ok({ type: 'rollover' });
    // -6.5 points x 1 lot x 3 nights = -19.5 USD
    expect(ledgerEvents(events)[0]).toMatchObject({
      kind: 'swap',
      postings: [{ amount: -1_950 }, { amount: 1_950 }],
    });
    expect(h.engine.position(ticket!)?.swap).toBe(-1_950);
    expect(h.engine.account(1)?.balance).toBe(1_000_000 - 1_950);
  });
});

describe('close all and account cancellation', () => {
  it('closes every position of a symbol, then everything with reason 7 on cancellation', () => {
    const h = fundedHarness();
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 10 });
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'sell', volume: 10 });
    h.ok({ type: 'open_market', accountId: 1, symbol: 'XAUUSD', side: 'buy', volume: 10 });
    h.ok({
      type: 'place_pending',
      accountId: 1,
      symbol: 'EURUSD',
      orderType: 'buy_limit',
      volume: 10,
      price: 108_000,
    });
    const bySymbol = h.ok({ type: 'close_all', accountId: 1, symbol: 'EURUSD' });
    expect(eventsOf(bySymbol.events, 'position_closed')).toHaveLength(2);
    const cancelled = h.ok({ type: 'close_account', accountId: 1 });
    expect(eventsOf(cancelled.events, 'position_closed').map((e) => e.reason)).toEqual([
      CloseReason.ACCOUNT_CANCELLATION,
    ]);
    expect(eventsOf(cancelled.events, 'order_cancelled')[0]?.reason).toBe('account_closed');
    expect(h.run({ type: 'deposit', accountId: 1, amount: 1 })).toEqual({
      ok: false,
      error: 'ACCOUNT_CLOSED',
    });
  });
});

describe('idempotency', () => {
  it('returns the first result for a repeated key and refuses a different command under it', () => {
    const h = fundedHarness();
    const command = {
      type: 'open_market' as const,
      clientKey: 'open-1',
      time: h.time,
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy' as const,
      volume: 100,
    };
    const first = h.engine.apply(command);
    const again = h.engine.apply({ ...command, time: h.time + 5_000 });
    expect(again).toBe(first);
    expect(h.engine.counts.positions).toBe(1);
    expect(h.engine.apply({ ...command, volume: 200 })).toEqual({ ok: false, error: 'IDEMPOTENCY_CONFLICT' });
  });
});

describe('snapshot and restore', () => {
  it('rebuilds the same state and then behaves the same', () => {
    const h = fundedHarness(100_000);
    h.createAccount(2, { tradeType: TradeType.NOVICE, currency: 'EUR' });
    h.tick('EURJPY', '164.170', '164.190');
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 30, stopLoss: 107_000 });
    h.ok({ type: 'open_market', accountId: 2, symbol: 'USDJPY', side: 'sell', volume: 100 });
    h.ok({
      type: 'place_pending',
      accountId: 2,
      symbol: 'XAUUSD',
      orderType: 'sell_stop_limit',
      volume: 10,
      price: 233_000,
      limitPrice: 233_500,
    });
    const snapshot = h.engine.snapshot();
    const copy = new Harness({}, TradingEngine.restore(structuredClone(snapshot), engineConfig()));
    copy.time = h.time;
    expect(copy.engine.snapshot()).toEqual(snapshot);
    expect(copy.engine.account(2)).toEqual(h.engine.account(2));
    for (const [symbol, bid, ask] of [
      ['XAUUSD', '2329.00', '2329.30'],
      ['XAUUSD', '2336.00', '2336.30'],
      ['EURUSD', '1.06900', '1.06910'],
      ['USDJPY', '150.000', '150.010'],
    ] as const) {
      expect(copy.tick(symbol, bid, ask)).toEqual(h.tick(symbol, bid, ask));
    }
    expect(copy.engine.snapshot()).toEqual(h.engine.snapshot());
    expect(copy.engine.checkInvariants()).toEqual([]);
  });
});

describe('restart from persisted rows', () => {
  it('restores without quotes, primes them all at once, and only then lets ticks stop accounts out', () => {
    const h = fundedHarness(100_000);
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 30 });
    h.ok({ type: 'open_market', accountId: 1, symbol: 'USDJPY', side: 'buy', volume: 30 });
    const snapshot = { ...h.engine.snapshot(), quotes: [] };
    const restored = TradingEngine.restore(snapshot, engineConfig());
    // before any quote, positions are unpriced: a lone tick must not stop the account out on half a book
    restored.primeQuotes(
      ['EURUSD', 'USDJPY', 'GBPUSD', 'XAUUSD'].map((symbol) => ({ symbol, ...h.engine.quote(symbol)! })),
    );
    expect(restored.account(1)).toEqual(h.engine.account(1));
    expect(restored.checkInvariants()).toEqual([]);
  });

  it('defers a take-profit whose conversion pair has not ticked since the restore', () => {
    const h = new Harness();
    h.seedQuotes();
    h.tick('EURJPY', '164.170', '164.190');
    h.createAccount(2, { currency: 'EUR' });
    const { ticket } = h.ok({
      type: 'open_market',
      accountId: 2,
      symbol: 'USDJPY',
      side: 'buy',
      volume: 10,
      takeProfit: points('USDJPY', '151.600'),
    });
    const restored = TradingEngine.restore({ ...h.engine.snapshot(), quotes: [] }, engineConfig());
    const jpy = points('USDJPY', '151.700');
    expect(restored.onTick('USDJPY', jpy, jpy + 10, h.time)).toEqual([]);
    expect(restored.position(ticket!)).toBeDefined();
    expect(restored.checkInvariants()).toEqual([]);
    const cross = points('EURJPY', '164.300');
    restored.onTick('EURJPY', cross, cross + 20, h.time);
    const fired = restored.onTick('USDJPY', jpy, jpy + 10, h.time);
    expect(eventsOf(fired, 'position_closed')[0]?.reason).toBe(CloseReason.TAKE_PROFIT_OR_STOP_LOSS);
  });
});

describe('spread markup', () => {
  it('widens every tick by the broker markup before anything reads it', () => {
    const h = fundedHarness(1_000_000, { EURUSD: { markupPoints: 5 } });
    h.tick('EURUSD', '1.08420', '1.08430');
    expect(h.engine.quote('EURUSD')).toMatchObject({ bid: 108_418, ask: 108_433 });
    const { events } = h.ok({
      type: 'open_market',
      accountId: 1,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
    });
    expect(eventsOf(events, 'position_opened')[0]?.position).toMatchObject({
      openPrice: 108_433,
      profit: -1_500,
    });
  });
});

describe('trade types', () => {
  it('funds novice positions from the balance only, standard ones from equity', () => {
    const novice = fundedHarness(300_000);
    novice.createAccount(2, { tradeType: TradeType.NOVICE, initialBalance: 300_000 });
    for (const id of [1, 2])
      novice.ok({ type: 'open_market', accountId: id, symbol: 'EURUSD', side: 'buy', volume: 100 });
    novice.tick('EURUSD', '1.09420', '1.09430'); // +990 USD floating on each
    // standard: 3,000 + 990 - 1,084.30 usable; novice: 3,000 - 1,084.30
    expect(novice.engine.account(1)?.usableMargin).toBe(300_000 + 99_000 - 108_430);
    expect(novice.engine.account(2)?.usableMargin).toBe(300_000 - 108_430);
    const big = { type: 'open_market' as const, symbol: 'EURUSD', side: 'buy' as const, volume: 250 };
    expect(novice.run({ ...big, accountId: 1 }).ok).toBe(true);
    expect(novice.run({ ...big, accountId: 2 })).toEqual({ ok: false, error: 'INSUFFICIENT_MARGIN' });
  });
});

describe('modifying pending orders', () => {
  it('moves a pending order and its protection, and only the limit of an activated stop-limit', () => {
    const h = fundedHarness();
    const { ticket } = h.ok({
      type: 'place_pending',
      accountId: 1,
      symbol: 'EURUSD',
      orderType: 'buy_stop_limit',
      volume: 10,
      price: 108_600,
      limitPrice: 108_550,
    });
    const modify = (price: number, limitPrice: number) =>
      h.run({
        type: 'modify_order',
        accountId: 1,
        orderId: ticket!,
        price,
        limitPrice,
        takeProfit: limitPrice + 200,
        stopLoss: limitPrice - 200,
      });
    expect(modify(108_700, 108_650).ok).toBe(true);
    expect(h.engine.order(ticket!)).toMatchObject({
      price: 108_700,
      limitPrice: 108_650,
      takeProfit: 108_850,
    });
    h.tick('EURUSD', '1.08700', '1.08710');
    expect(h.engine.order(ticket!)?.activated).toBe(true);
    expect(modify(108_800, 108_650)).toEqual({ ok: false, error: 'INVALID_PRICE' });
    expect(modify(108_700, 108_600).ok).toBe(true);
    expect(h.engine.checkInvariants()).toEqual([]);
  });
});

describe('order ticket preview', () => {
  it('quotes margin, commission and fill price without changing anything', () => {
    const h = fundedHarness(1_000_000, { EURUSD: { commissionPerLotMinor: 350 } });
    const before = h.engine.snapshot();
    expect(h.engine.previewOpen(1, 'EURUSD', 'buy', 100)).toEqual({
      margin: 108_430,
      commission: 350,
      price: 108_430,
    });
    expect(h.engine.previewOpen(1, 'EURUSD', 'sell', 100)).toMatchObject({ price: 108_420 });
    expect(h.engine.previewOpen(1, 'EURUSD', 'buy', 0)).toEqual({ error: 'INVALID_VOLUME' });
    expect(h.engine.previewOpen(1, 'AUDUSD', 'buy', 100)).toEqual({ error: 'NO_PRICE' });
    expect(h.engine.previewOpen(9, 'EURUSD', 'buy', 100)).toEqual({ error: 'ACCOUNT_NOT_FOUND' });
    expect(h.engine.snapshot()).toEqual(before);
  });
});

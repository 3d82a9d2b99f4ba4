import { describe, expect, it } from 'vitest';
import { instrumentBySymbol } from '../../src/market/instruments';
import { compileInstrument, type TInstrumentOverrides } from '../../src/trading/instrument-terms';
import {
  Book,
  CLIENT_CLOSE_REASONS,
  CloseReason,
  checkRestriction,
  entryPrice,
  isCrossed,
  NO_RESTRICTIONS,
  PENDING_TYPES,
  pendingTrigger,
  sideOfPending,
  stopLossBook,
  TriggerKind,
  takeProfitBook,
  validateClosing,
  validateOpening,
  validatePendingPrice,
  validateStops,
  validateVolume,
} from '../../src/trading/orders';
import { SATURDAY, WED_NOON } from './harness';

const terms = (symbol: string, overrides: TInstrumentOverrides = {}) =>
  compileInstrument(instrumentBySymbol(symbol)!, overrides);

describe('close reasons (spec 4)', () => {
  it('numbers the seven reasons as the spec does', () => {
    expect(CloseReason).toEqual({
      MANUAL: 1,
      AUTOMATIC: 2,
      TAKE_PROFIT_OR_STOP_LOSS: 3,
      COPY_TRADE: 4,
      STRATEGY_STOPPED_AUTOMATICALLY: 5,
      STRATEGY_STOPPED_ACTIVELY: 6,
      ACCOUNT_CANCELLATION: 7,
    });
    expect(CLIENT_CLOSE_REASONS).toEqual([1, 2, 4, 5, 6, 7]);
  });
});

describe('volume', () => {
  it.each([
    ['EURUSD', 1, null],
    ['EURUSD', 0, 'INVALID_VOLUME'],
    ['EURUSD', 10_000, null],
    ['EURUSD', 10_001, 'INVALID_VOLUME'],
    ['USOIL', 10, null],
    ['USOIL', 15, 'INVALID_VOLUME'],
    ['USOIL', 5, 'INVALID_VOLUME'],
    ['US500', 50_000, null],
    ['BTCUSDT', 5_000, null],
    ['BTCUSDT', 5_001, 'INVALID_VOLUME'],
    ['EURUSD', 1.5, 'INVALID_VOLUME'],
  ] as const)('%s volume %s -> %s', (symbol, volume, expected) => {
    expect(validateVolume(terms(symbol), volume)).toBe(expected);
  });
});

describe('opening and closing against the instrument', () => {
  it.each([
    ['enabled and open', {}, 'buy', WED_NOON, null],
    ['disabled', { enabled: false }, 'buy', WED_NOON, 'SYMBOL_DISABLED'],
    ['close-only', { closeOnly: true }, 'buy', WED_NOON, 'SYMBOL_CLOSE_ONLY'],
    ['no shorts, a sell', { shortAllowed: false }, 'sell', WED_NOON, 'SHORT_NOT_ALLOWED'],
    ['no shorts, a buy', { shortAllowed: false }, 'buy', WED_NOON, null],
    ['weekend', {}, 'buy', SATURDAY, 'MARKET_CLOSED'],
  ] as const)('%s', (_name, overrides, side, time, expected) => {
    expect(validateOpening(terms('EURUSD', overrides), side, time)).toBe(expected);
  });

  it('lets a close-only symbol close, but not a disabled or closed one', () => {
    expect(validateClosing(terms('EURUSD', { closeOnly: true }), WED_NOON)).toBeNull();
    expect(validateClosing(terms('EURUSD', { enabled: false }), WED_NOON)).toBe('SYMBOL_DISABLED');
    expect(validateClosing(terms('EURUSD'), SATURDAY)).toBe('MARKET_CLOSED');
    expect(validateClosing(terms('BTCUSDT'), SATURDAY)).toBeNull();
  });
});

describe('take-profit and stop-loss sides', () => {
  it.each([
    ['buy', 1_000, 1_010, 990, null],
    ['buy', 1_000, null, null, null],
    ['buy', 1_000, 1_000, null, 'INVALID_STOPS'],
    ['buy', 1_000, 990, null, 'INVALID_STOPS'],
    ['buy', 1_000, null, 1_000, 'INVALID_STOPS'],
    ['buy', 1_000, null, 1_005, 'INVALID_STOPS'],
    ['sell', 1_000, 990, 1_010, null],
    ['sell', 1_000, 1_010, null, 'INVALID_STOPS'],
    ['sell', 1_000, null, 995, 'INVALID_STOPS'],
    ['sell', 1_000, null, -5, 'INVALID_STOPS'],
  ] as const)('%s from %i: tp %s sl %s -> %s', (side, reference, takeProfit, stopLoss, expected) => {
    expect(validateStops({ side, reference, takeProfit, stopLoss, distance: 1 })).toBe(expected);
  });

  it('keeps the broker stops level away from the reference', () => {
    expect(
      validateStops({ side: 'buy', reference: 1_000, takeProfit: 1_005, stopLoss: null, distance: 10 }),
    ).toBe('INVALID_STOPS');
    expect(
      validateStops({ side: 'buy', reference: 1_000, takeProfit: 1_010, stopLoss: 990, distance: 10 }),
    ).toBeNull();
  });
});

describe('pending prices', () => {
  const market = { bid: 1_000, ask: 1_002, distance: 1 };
  it.each([
    ['buy_limit', 1_001, null, null],
    ['buy_limit', 1_002, null, 'INVALID_PRICE'],
    ['sell_limit', 1_001, null, null],
    ['sell_limit', 1_000, null, 'INVALID_PRICE'],
    ['buy_stop', 1_003, null, null],
    ['buy_stop', 1_002, null, 'INVALID_PRICE'],
    ['sell_stop', 999, null, null],
    ['sell_stop', 1_000, null, 'INVALID_PRICE'],
    ['buy_stop_limit', 1_010, 1_005, null],
    ['buy_stop_limit', 1_010, 1_010, null],
    ['buy_stop_limit', 1_010, 1_011, 'INVALID_PRICE'],
    ['buy_stop_limit', 1_010, null, 'INVALID_PRICE'],
    ['sell_stop_limit', 990, 995, null],
    ['sell_stop_limit', 990, 985, 'INVALID_PRICE'],
    ['buy_limit', 990, 980, 'INVALID_PRICE'],
    ['buy_limit', 0, null, 'INVALID_PRICE'],
  ] as const)('%s at %i (limit %s) -> %s', (type, price, limitPrice, expected) => {
    expect(validatePendingPrice({ type, price, limitPrice, ...market })).toBe(expected);
  });

  it('measures take-profit and stop-loss of a stop-limit from its limit price', () => {
    expect(entryPrice('buy_stop_limit', 1_010, 1_005)).toBe(1_005);
    expect(entryPrice('buy_stop', 1_010, null)).toBe(1_010);
  });
});

describe('restrictions (spec 6)', () => {
  it.each([
    ['open', 'noOpen'],
    ['close', 'noClose'],
    ['take_profit', 'noTakeProfit'],
    ['stop_loss', 'noStopLoss'],
    ['withdraw', 'noWithdrawal'],
  ] as const)('%s is refused under %s and only under it', (action, flag) => {
    expect(checkRestriction(NO_RESTRICTIONS, action)).toBeNull();
    expect(checkRestriction({ ...NO_RESTRICTIONS, [flag]: true }, action)).toBe('ACCOUNT_RESTRICTED');
    const others = { noOpen: true, noClose: true, noTakeProfit: true, noStopLoss: true, noWithdrawal: true };
    expect(checkRestriction({ ...others, [flag]: false }, action)).toBeNull();
  });
});

describe('trigger books', () => {
  it('closes buys at the bid and sells at the ask', () => {
    expect([takeProfitBook('buy'), stopLossBook('buy')]).toEqual([Book.BID_RISING, Book.BID_FALLING]);
    expect([takeProfitBook('sell'), stopLossBook('sell')]).toEqual([Book.ASK_FALLING, Book.ASK_RISING]);
  });

  it.each([
    ['buy_limit', false, Book.ASK_FALLING, TriggerKind.ENTRY, 100],
    ['sell_limit', false, Book.BID_RISING, TriggerKind.ENTRY, 100],
    ['buy_stop', false, Book.ASK_RISING, TriggerKind.ENTRY, 100],
    ['sell_stop', false, Book.BID_FALLING, TriggerKind.ENTRY, 100],
    ['buy_stop_limit', false, Book.ASK_RISING, TriggerKind.ACTIVATION, 100],
    ['buy_stop_limit', true, Book.ASK_FALLING, TriggerKind.ENTRY, 95],
    ['sell_stop_limit', false, Book.BID_FALLING, TriggerKind.ACTIVATION, 100],
    ['sell_stop_limit', true, Book.BID_RISING, TriggerKind.ENTRY, 105],
  ] as const)('%s (activated %s) waits in book %i', (type, activated, book, kind, price) => {
    const limit = type === 'buy_stop_limit' ? 95 : type === 'sell_stop_limit' ? 105 : null;
    expect(pendingTrigger(type, 100, limit, activated)).toEqual({ book, kind, price });
  });

  it.each([
    [Book.BID_RISING, 100, 100, 101, true],
    [Book.BID_RISING, 100, 99, 101, false],
    [Book.BID_FALLING, 100, 100, 101, true],
    [Book.BID_FALLING, 100, 101, 102, false],
    [Book.ASK_RISING, 100, 98, 100, true],
    [Book.ASK_RISING, 100, 98, 99, false],
    [Book.ASK_FALLING, 100, 98, 100, true],
    [Book.ASK_FALLING, 100, 100, 101, false],
  ] as const)('book %i at %i is crossed by %i/%i: %s', (book, price, bid, ask, crossed) => {
    expect(isCrossed(book, price, bid, ask)).toBe(crossed);
  });

  it('knows each pending type side', () => {
    expect(PENDING_TYPES.map(sideOfPending)).toEqual(['buy', 'sell', 'buy', 'sell', 'buy', 'sell']);
  });
});

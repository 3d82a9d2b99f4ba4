import { describe, expect, it } from 'vitest';
import {
  canonicalConfig,
  canonicalDecimal,
  changedKeys,
  dayRangesProblem,
  daysToSessions,
  mergeOverrides,
  normalizeSessions,
  sessionsProblem,
  sessionsToDays,
  type TInstrumentConfig,
  validateGroupOverrides,
  validateInstrumentConfig,
} from '../../src/market/market-config';
import {
  isOpenAt,
  MINUTES_PER_WEEK,
  SESSION_CRYPTO,
  SESSION_DAILY_BREAK,
  SESSION_FX,
} from '../../src/market/sessions';

const config = (overrides: Partial<TInstrumentConfig> = {}): TInstrumentConfig => ({
  enabled: true,
  closeOnly: false,
  shortAllowed: true,
  markupPoints: 0,
  stopsLevelPoints: 0,
  minVolume: '0.01',
  volumeStep: '0.01',
  maxVolume: '100',
  maxLeverage: null,
  leverageTiers: [],
  sessions: [...SESSION_FX],
  swapLong: '-6.5',
  swapShort: '1.2',
  commissionPerLot: '0',
  ...overrides,
});
const check = (c: TInstrumentConfig) => validateInstrumentConfig(c, { defaultLeverage: 100 });

describe('instrument configuration rules', () => {
  it('accepts the catalogue defaults', () => {
    expect(check(config())).toEqual({});
  });

  it('refuses volume limits that do not fit together', () => {
    expect(check(config({ minVolume: '0' }))).toEqual({ minVolume: 'volumePositive' });
    expect(check(config({ volumeStep: '0.001' }))).toEqual({ volumeStep: 'lotsFormat' });
    expect(check(config({ minVolume: '5', maxVolume: '1' }))).toEqual({ maxVolume: 'maxBelowMin' });
    expect(check(config({ minVolume: '0.15', volumeStep: '0.1' }))).toEqual({
      minVolume: 'minNotMultipleOfStep',
    });
    expect(check(config({ minVolume: '0.2', volumeStep: '0.1', maxVolume: '0.2' }))).toEqual({});
  });

  it('keeps numbers in range and decimals to two places', () => {
    expect(
      check(
        config({
          markupPoints: -1,
          stopsLevelPoints: 1.5,
          maxLeverage: 3001,
          swapLong: '1.234',
          swapShort: 'abc',
          commissionPerLot: '-1',
        }),
      ),
    ).toEqual({
      markupPoints: 'markupRange',
      stopsLevelPoints: 'stopsRange',
      maxLeverage: 'leverageRange',
      swapLong: 'swapFormat',
      swapShort: 'swapFormat',
      commissionPerLot: 'commissionFormat',
    });
    expect(check(config({ swapLong: '-12.75', commissionPerLot: '3.5', maxLeverage: 3000 }))).toEqual({});
  });

  it('wants leverage tiers ascending in size, descending in leverage, under the symbol cap', () => {
    const tiers = [
      { upToLots: '5', maxLeverage: 100 },
      { upToLots: '20', maxLeverage: 50 },
      { upToLots: '50', maxLeverage: 10 },
    ];
    expect(check(config({ leverageTiers: tiers }))).toEqual({});
    expect(check(config({ leverageTiers: [{ upToLots: '5', maxLeverage: 200 }] }))).toEqual({
      'leverageTiers.0.maxLeverage': 'tierAboveMax',
    });
    expect(check(config({ maxLeverage: 500, leverageTiers: [{ upToLots: '5', maxLeverage: 200 }] }))).toEqual(
      {},
    );
    expect(
      check(
        config({
          leverageTiers: [
            { upToLots: '5', maxLeverage: 50 },
            { upToLots: '5', maxLeverage: 100 },
          ],
        }),
      ),
    ).toEqual({
      'leverageTiers.1.upToLots': 'tiersAscending',
      'leverageTiers.1.maxLeverage': 'tiersLeverageDescending',
    });
  });

  it('checks session windows', () => {
    expect(sessionsProblem([])).toBe('sessionsEmpty');
    expect(sessionsProblem([{ from: 100, to: 100 }])).toBe('sessionWindow');
    expect(sessionsProblem([{ from: -1, to: 100 }])).toBe('sessionWindow');
    expect(sessionsProblem([{ from: 0, to: MINUTES_PER_WEEK + 1 }])).toBe('sessionWindow');
    expect(
      sessionsProblem([
        { from: 0, to: 100 },
        { from: 50, to: 200 },
      ]),
    ).toBe('sessionsOverlap');
    // Saturday 22:00 to Sunday 02:00 runs past the week's end into a window at Sunday 01:00.
    expect(
      sessionsProblem([
        { from: 60, to: 300 },
        { from: 6 * 1440 + 22 * 60, to: 7 * 1440 + 120 },
      ]),
    ).toBe('sessionsOverlap');
    expect(sessionsProblem(SESSION_DAILY_BREAK)).toBeNull();
  });

  it('edits sessions per weekday and back without changing the hours', () => {
    for (const sessions of [SESSION_FX, SESSION_CRYPTO, SESSION_DAILY_BREAK]) {
      const days = sessionsToDays(sessions);
      expect(daysToSessions(days)).toEqual(normalizeSessions(sessions));
      expect(normalizeSessions(sessions)).toEqual([...sessions]);
    }
    const fx = sessionsToDays(SESSION_FX);
    expect(fx[0]).toEqual([{ from: 22 * 60, to: 1440 }]);
    expect(fx[3]).toEqual([{ from: 0, to: 1440 }]);
    expect(fx[5]).toEqual([{ from: 0, to: 22 * 60 }]);
    expect(fx[6]).toEqual([]);
    // A window over the week's end is kept as one window, open at the same minutes.
    const weekend = [{ from: 6 * 1440 + 22 * 60, to: 7 * 1440 + 120 }];
    const back = daysToSessions(sessionsToDays(weekend));
    expect(back).toEqual(weekend);
    const sunday = Date.parse('2026-11-22T01:00:00Z');
    expect(isOpenAt(back, sunday)).toBe(true);
    expect(
      dayRangesProblem([
        { from: 60, to: 120 },
        { from: 100, to: 200 },
      ]),
    ).toBe('sessionsOverlap');
    expect(dayRangesProblem([{ from: 60, to: 1441 }])).toBe('sessionWindow');
  });

  it('writes decimals and sessions one way, so an unchanged form changes nothing', () => {
    expect(canonicalDecimal('0.10')).toBe('0.1');
    expect(canonicalDecimal('-0.00')).toBe('0');
    expect(canonicalDecimal('007.50')).toBe('7.5');
    const padded = config({ minVolume: '0.10', volumeStep: '0.10', swapLong: '-6.50' });
    expect(
      changedKeys(canonicalConfig(padded), canonicalConfig(config({ minVolume: '0.1', volumeStep: '0.1' }))),
    ).toEqual([]);
    expect(changedKeys({ a: 1, b: [1] }, { a: 1, b: [2], c: true })).toEqual(['b', 'c']);
    // A store may answer an object's keys in another order (PostgreSQL jsonb does).
    expect(changedKeys({ s: [{ to: 5, from: 1 }] }, { s: [{ from: 1, to: 5 }] })).toEqual([]);
  });
});

describe('group overrides', () => {
  it('apply over the instrument and report clashes on the overridden field', () => {
    const base = config();
    expect(mergeOverrides(base, { maxVolume: '5', enabled: false })).toMatchObject({
      maxVolume: '5',
      enabled: false,
      minVolume: '0.01',
    });
    expect(validateGroupOverrides(base, { volumeStep: '0.03' }, { defaultLeverage: 100 })).toEqual({
      volumeStep: 'minNotMultipleOfStep',
    });
    expect(validateGroupOverrides(base, { minVolume: '200' }, { defaultLeverage: 100 })).toEqual({
      minVolume: 'maxBelowMin',
    });
    expect(
      validateGroupOverrides(
        config({ leverageTiers: [{ upToLots: '1', maxLeverage: 100 }] }),
        { maxLeverage: 50 },
        { defaultLeverage: 100 },
      ),
    ).toEqual({ maxLeverage: 'tierAboveMax' });
    expect(
      validateGroupOverrides(base, { maxVolume: '2', maxLeverage: 20 }, { defaultLeverage: 100 }),
    ).toEqual({});
  });
});

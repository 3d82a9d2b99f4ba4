import { describe, expect, it } from 'vitest';
import { DEFAULT_INSTRUMENTS } from '../../src/market/instruments';
import { AccountType } from '../../src/trading/calculations';
import { TradingEngine } from '../../src/trading/engine-core';
import { compileInstrument, type TInstrumentOverrides } from '../../src/trading/instrument-terms';
import { engineConfig, Harness, points } from './harness';

/** A broker's group: its own terms of every symbol (here with a few overrides). */
function profileTerms(overrides: Record<string, TInstrumentOverrides>) {
  return DEFAULT_INSTRUMENTS.map((spec) => compileInstrument(spec, overrides[spec.symbol] ?? {}));
}

function withProfiles() {
  const engine = new TradingEngine({
    ...engineConfig(),
    profiles: {
      wide: profileTerms({ EURUSD: { markupPoints: 20 } }),
      closed: profileTerms({ EURUSD: { enabled: false } }),
    },
  });
  const h = new Harness({}, engine);
  h.seedQuotes();
  return h;
}

describe('terms profiles (a broker’s account groups)', () => {
  it('prices an account on its group’s markup while others keep the base quote', () => {
    const h = withProfiles();
    h.createAccount(1);
    h.createAccount(2, { profile: 'wide' });
    expect(h.engine.quote('EURUSD')).toMatchObject({
      bid: points('EURUSD', '1.08420'),
      ask: points('EURUSD', '1.08430'),
    });
    // 20 points: 10 below the bid, 10 above the ask.
    expect(h.engine.quote('EURUSD', 'wide')).toMatchObject({
      bid: points('EURUSD', '1.08410'),
      ask: points('EURUSD', '1.08440'),
    });
    const base = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 });
    const wide = h.ok({ type: 'open_market', accountId: 2, symbol: 'EURUSD', side: 'buy', volume: 100 });
    expect(h.engine.position(base.ticket as number)?.openPrice).toBe(points('EURUSD', '1.08430'));
    expect(h.engine.position(wide.ticket as number)?.openPrice).toBe(points('EURUSD', '1.08440'));
    // The next tick moves both, each with its own spread: the wide account's buy is valued at its bid.
    h.tick('EURUSD', '1.08520', '1.08530');
    expect(h.engine.position(base.ticket as number)?.profit).toBe(9_000);
    expect(h.engine.position(wide.ticket as number)?.profit).toBe(7_000);
    expect(h.engine.checkInvariants()).toEqual([]);
  });

  it('applies a group’s trading switches only to its accounts', () => {
    const h = withProfiles();
    h.createAccount(1);
    h.createAccount(2, { profile: 'closed' });
    expect(h.run({ type: 'open_market', accountId: 2, symbol: 'EURUSD', side: 'buy', volume: 100 })).toEqual({
      ok: false,
      error: 'SYMBOL_DISABLED',
    });
    expect(h.run({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 }).ok).toBe(
      true,
    );
  });

  it('changes a group’s terms at runtime: the next tick uses the new markup', () => {
    const h = withProfiles();
    h.createAccount(2, { profile: 'wide' });
    h.engine.setProfile('wide', profileTerms({ EURUSD: { markupPoints: 40 } }));
    h.tick('EURUSD', '1.08420', '1.08430');
    expect(h.engine.quote('EURUSD', 'wide')).toMatchObject({
      bid: points('EURUSD', '1.08400'),
      ask: points('EURUSD', '1.08450'),
    });
    // Catalogue fields cannot change through a profile.
    const [eurusd] = profileTerms({}).filter((t) => t.symbol === 'EURUSD');
    expect(() => h.engine.setProfile('wide', [{ ...eurusd!, digits: 4 }])).toThrow(/catalogue/);
  });

  it('moves an account between groups only while it holds no trades', () => {
    const h = withProfiles();
    h.createAccount(1);
    const opened = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 });
    expect(h.run({ type: 'set_profile', accountId: 1, profile: 'wide' })).toEqual({
      ok: false,
      error: 'ACCOUNT_HAS_OPEN_TRADES',
    });
    h.ok({ type: 'close_position', accountId: 1, positionId: opened.ticket as number });
    const moved = h.ok({ type: 'set_profile', accountId: 1, profile: 'wide' });
    expect(moved.events.map((e) => e.type)).toEqual(['account_settings_changed']);
    expect(h.engine.account(1)?.profile).toBe('wide');
    const again = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 });
    expect(h.engine.position(again.ticket as number)?.openPrice).toBe(points('EURUSD', '1.08440'));
  });

  it('raising the stop-out level above an account’s margin level stops it out at once', () => {
    const h = withProfiles();
    h.createAccount(1, { accountType: AccountType.DEMO, initialBalance: 20_000 });
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 10 });
    const level = h.engine.account(1)?.marginLevelBp as number;
    expect(level).toBeGreaterThan(10_000);
    expect(
      h.run({
        type: 'set_levels',
        accountId: 1,
        marginCallBp: 5_000,
        stopOutBp: 5_000,
        negativeBalanceProtection: false,
      }),
    ).toEqual({ ok: false, error: 'INVALID_AMOUNT' });
    const raised = h.ok({
      type: 'set_levels',
      accountId: 1,
      marginCallBp: level + 2_000,
      stopOutBp: level + 1_000,
      negativeBalanceProtection: false,
    });
    const types = raised.events.map((e) => e.type);
    expect(types).toContain('stop_out');
    expect(h.engine.positionsOf(1)).toHaveLength(0);
    expect(h.engine.account(1)).toMatchObject({ marginCallBp: level + 2_000, stopOutBp: level + 1_000 });
  });

  it('restores accounts with their group, positions on the group’s book', () => {
    const h = withProfiles();
    h.createAccount(2, { profile: 'wide' });
    const opened = h.ok({
      type: 'open_market',
      accountId: 2,
      symbol: 'EURUSD',
      side: 'buy',
      volume: 100,
      takeProfit: points('EURUSD', '1.08600'),
    });
    const snapshot = JSON.parse(JSON.stringify(h.engine.snapshot()));
    const restored = TradingEngine.restore(snapshot, {
      ...engineConfig(),
      profiles: { wide: profileTerms({ EURUSD: { markupPoints: 20 } }) },
    });
    expect(restored.account(2)?.profile).toBe('wide');
    expect(restored.quote('EURUSD', 'wide')).toEqual(h.engine.quote('EURUSD', 'wide'));
    // The take-profit sits in the group's book: the group's bid (raw bid - 10) must reach it.
    const r = new Harness({}, restored);
    expect(r.tick('EURUSD', '1.08605', '1.08615').some((e) => e.type === 'position_closed')).toBe(false);
    const closed = r.tick('EURUSD', '1.08610', '1.08620');
    expect(closed.some((e) => e.type === 'position_closed' && e.positionId === opened.ticket)).toBe(true);
  });

  it('margins larger positions at their leverage tier', () => {
    const engine = new TradingEngine({
      ...engineConfig(),
      profiles: {
        tiered: profileTerms({
          EURUSD: {
            leverageTiers: [
              { upToVolume: 100, maxLeverage: 100 },
              { upToVolume: 500, maxLeverage: 50 },
            ],
          },
        }),
      },
    });
    const h = new Harness({}, engine);
    h.seedQuotes();
    h.createAccount(1, { profile: 'tiered', leverage: 100, initialBalance: 10_000_000 });
    const small = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 });
    const large = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 200 });
    const beyond = h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 600 });
    const margin = (ticket: number | null) => h.engine.position(ticket as number)?.margin as number;
    // 1 lot at 1:100; 2 lots at the second tier's 1:50 (four times the margin of 1 lot);
    // 6 lots are above the last tier, which still applies.
    expect(margin(large.ticket)).toBe(margin(small.ticket) * 4);
    expect(margin(beyond.ticket)).toBe(margin(small.ticket) * 12);
  });
});

import { describe, expect, it } from 'vitest';
import type { TCopy } from '../../src/features/copy/copy-api';
import {
  checkFollowDraft,
  checkLeaderDraft,
  draftFromCopy,
  EMPTY_DRAFT,
  exampleLots,
  hasFilters,
  modeValue,
  readLeaderFilters,
  riskBand,
  type TFollowDraft,
  trimZeros,
  writeLeaderFilters,
} from '../../src/features/copy/copy-form';
import { countsTrades, parityReasonText } from '../../src/features/copy/ParityReport';

/** A follow form as typed, with overrides. */
const draft = (overrides: Partial<TFollowDraft> = {}): TFollowDraft => ({
  ...EMPTY_DRAFT,
  amount: '500',
  ...overrides,
});

/** A copy as followmine answers it, with overrides. */
function copy(overrides: Partial<TCopy> = {}): TCopy {
  return {
    copy_account_id: 41,
    account_id: 7,
    leader_id: 3,
    leaderNick: 'Alpha',
    currency: 'USD',
    status: 'active',
    stopReason: null,
    mode: 'ratio',
    value: '0.50',
    controls: {
      maxVolume: '2.00',
      maxPositions: 5,
      maxSlippagePoints: null,
      stopLossPercent: '12.50',
      takeProfitPercent: null,
      copyStops: false,
    },
    allocated: '1000.00',
    balance: '1000.00',
    equity: '1000.00',
    profit: '0.00',
    feesPaid: '0.00',
    highWaterMark: '0.00',
    feePercent: '10.00',
    openPositions: 0,
    withdrawable: '1000.00',
    skipped: 0,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

describe('copy mode values', () => {
  it('reads each mode in its unit, in the reader locale, as the string the server takes', () => {
    expect(modeValue('fixed_lot', '0.1', 'en-US')).toEqual({ ok: true, value: '0.10' });
    expect(modeValue('fixed_margin', '1.250,5', 'de-DE')).toEqual({ ok: true, value: '1250.50' });
    expect(modeValue('ratio', '0,5', 'fr-FR')).toEqual({ ok: true, value: '0.5' });
    expect(modeValue('ratio', '0.3333', 'en-US')).toEqual({ ok: true, value: '0.3333' });
    expect(modeValue('ratio', '2.50', 'en-US')).toEqual({ ok: true, value: '2.5' });
    expect(modeValue('equity', '', 'en-US')).toEqual({ ok: true, value: '0' });
  });

  it('refuses values the server refuses (0.01 to 1,000 lots, a multiplier of 0.01 to 100 with 4 decimals)', () => {
    expect(modeValue('fixed_lot', '0', 'en-US')).toMatchObject({ ok: false, problem: { key: 'range' } });
    expect(modeValue('fixed_lot', '1000.01', 'en-US')).toMatchObject({
      ok: false,
      problem: { key: 'range', values: { min: '0.01', max: '1000' } },
    });
    expect(modeValue('fixed_lot', '1000', 'en-US')).toEqual({ ok: true, value: '1000.00' });
    expect(modeValue('ratio', '0.00999', 'en-US')).toMatchObject({
      ok: false,
      problem: { key: 'decimalsN', values: { count: 4 } },
    });
    expect(modeValue('ratio', '0.0099', 'en-US')).toMatchObject({ ok: false, problem: { key: 'range' } });
    expect(modeValue('ratio', '100.01', 'en-US')).toMatchObject({
      ok: false,
      problem: { key: 'range', values: { min: '0.01', max: '100' } },
    });
    expect(modeValue('fixed_lot', '0.001', 'en-US')).toMatchObject({
      ok: false,
      problem: { key: 'decimals' },
    });
    expect(modeValue('fixed_margin', 'abc', 'en-US')).toMatchObject({
      ok: false,
      problem: { key: 'format' },
    });
    expect(modeValue('ratio', '', 'en-US')).toMatchObject({ ok: false, problem: { key: 'required' } });
  });

  it('shows what fixed lots and a multiplier make of the leader trade, rounded down to hundredths', () => {
    expect(exampleLots('fixed_lot', '0.10')).toBe('0.10');
    expect(exampleLots('ratio', '0.5')).toBe('0.50');
    expect(exampleLots('ratio', '0.3333', '1.00')).toBe('0.33');
    expect(exampleLots('ratio', '0.33', '0.10')).toBe('0.03');
    expect(exampleLots('ratio', '2.00', '1.50')).toBe('3.00');
    expect(exampleLots('equity', '0')).toBeNull();
    expect(exampleLots('fixed_margin', '100.00')).toBeNull();
  });

  it('turns a copy back into the edit form in the reader locale, and trims trailing zeros', () => {
    const form = draftFromCopy(copy(), 'de-DE');
    expect(form).toMatchObject({
      mode: 'ratio',
      value: '0,5',
      stopLossPercent: '12,5',
      maxVolume: '2',
      maxPositions: '5',
      maxSlippagePoints: '',
      takeProfitPercent: '',
      copyStops: false,
    });
    expect(draftFromCopy(copy({ mode: 'equity', value: '0' }), 'en-US').value).toBe('');
    expect(trimZeros('10.00')).toBe('10');
    expect(trimZeros('0.50')).toBe('0.5');
    expect(trimZeros('120')).toBe('120');
  });
});

describe('follow form validation', () => {
  it('builds the request: the amount as money, empty controls as no limit', () => {
    expect(checkFollowDraft(draft({ mode: 'fixed_lot', value: '0.2' }), { intl: 'en-US' })).toEqual({
      ok: true,
      request: {
        mode: 'fixed_lot',
        value: '0.20',
        amount: '500.00',
        controls: {
          stopLossPercent: null,
          takeProfitPercent: null,
          maxVolume: null,
          maxPositions: null,
          maxSlippagePoints: null,
          copyStops: true,
        },
        copyExisting: false,
      },
    });
  });

  it('checks the controls against their ranges', () => {
    const checked = checkFollowDraft(
      draft({
        stopLossPercent: '0',
        takeProfitPercent: '10001',
        maxVolume: '0',
        maxPositions: '501',
        maxSlippagePoints: '1.5',
      }),
      { intl: 'en-US' },
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems.stopLossPercent).toEqual({ key: 'range', values: { min: '0.01', max: '100' } });
    expect(checked.problems.takeProfitPercent).toEqual({
      key: 'range',
      values: { min: '0.01', max: '10000' },
    });
    expect(checked.problems.maxVolume?.key).toBe('range');
    expect(checked.problems.maxPositions).toEqual({ key: 'range', values: { min: 1, max: 500 } });
    expect(checked.problems.maxSlippagePoints).toEqual({ key: 'integer' });

    const fine = checkFollowDraft(
      draft({ stopLossPercent: '10', takeProfitPercent: '25,5', maxPositions: '3', maxSlippagePoints: '0' }),
      { intl: 'de-DE' },
    );
    expect(fine.ok && fine.request.controls).toEqual({
      stopLossPercent: '10.00',
      takeProfitPercent: '25.50',
      maxVolume: null,
      maxPositions: 3,
      maxSlippagePoints: 0,
      copyStops: true,
    });
  });

  it("holds the amount to the leader's minimum and to 2 decimals", () => {
    const low = checkFollowDraft(draft({ amount: '99.99' }), { intl: 'en-US', minCopyAmount: '100.00' });
    expect(!low.ok && low.problems.amount).toEqual({ key: 'belowMin', values: { min: '100.00' } });
    const cents = checkFollowDraft(draft({ amount: '100.001' }), { intl: 'en-US' });
    expect(!cents.ok && cents.problems.amount).toEqual({ key: 'decimals' });
    const empty = checkFollowDraft(draft({ amount: '' }), { intl: 'en-US' });
    expect(!empty.ok && empty.problems.amount).toEqual({ key: 'required' });
    expect(checkFollowDraft(draft({ amount: '100' }), { intl: 'en-US', minCopyAmount: '100.00' }).ok).toBe(
      true,
    );
  });

  it('needs no amount when the settings of a running copy are edited', () => {
    const checked = checkFollowDraft(draft({ amount: '' }), { intl: 'en-US', withAmount: false });
    expect(checked.ok).toBe(true);
  });
});

describe("leader's terms", () => {
  const terms = {
    feePercent: '10',
    minCopyAmount: '100',
    positionsDelayMinutes: '30',
    bio: '  Swing trader.  ',
  };

  it('reads the fee, minimum, delay and bio as the server takes them', () => {
    expect(checkLeaderDraft(terms, 'en-US')).toEqual({
      ok: true,
      request: {
        feePercent: '10.00',
        minCopyAmount: '100.00',
        positionsDelayMinutes: 30,
        bio: 'Swing trader.',
      },
    });
  });

  it('refuses a fee above 30 %, a delay above a day and a bio above 500 characters', () => {
    const checked = checkLeaderDraft(
      { feePercent: '30.01', minCopyAmount: '-1', positionsDelayMinutes: '1441', bio: 'x'.repeat(501) },
      'en-US',
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems.feePercent).toEqual({ key: 'range', values: { min: '0', max: '30' } });
    expect(checked.problems.minCopyAmount?.key).toBe('format');
    expect(checked.problems.positionsDelayMinutes).toEqual({ key: 'range', values: { min: 0, max: 1440 } });
    expect(checked.problems.bio).toEqual({ key: 'tooLong', values: { max: 500 } });
    expect(checkLeaderDraft({ ...terms, feePercent: '0' }, 'en-US').ok).toBe(true);
  });
});

describe('discovery filters in the address', () => {
  it('reads the known parameters and drops the rest', () => {
    const query = readLeaderFilters(
      new URLSearchParams(
        'sort=risk&accountType=2&tradeType=9&maxRisk=4&maxDrawdown=20&search=%20ali%20&page=3&x=1',
      ),
    );
    expect(query).toEqual({
      sort: 'risk',
      accountType: 2,
      maxRisk: 4,
      maxDrawdown: 20,
      search: 'ali',
      page: 3,
      size: 12,
    });
    expect(hasFilters(query)).toBe(true);
    const plain = readLeaderFilters(new URLSearchParams('sort=nonsense&page=0'));
    expect(plain).toEqual({ sort: 'return30d', page: 1, size: 12 });
    expect(hasFilters(plain)).toBe(false);
  });

  it('writes them back without the defaults, so a filtered list can be shared', () => {
    expect(writeLeaderFilters({ sort: 'return30d', page: 1, maxRisk: 5, search: 'bo' }).toString()).toBe(
      'maxRisk=5&search=bo',
    );
    expect(writeLeaderFilters({ sort: 'followers', page: 2 }).toString()).toBe('sort=followers&page=2');
  });

  it('bands the risk score: 1-3 low, 4-6 medium, 7-10 high', () => {
    expect([1, 3, 4, 6, 7, 10].map(riskBand)).toEqual(['low', 'low', 'medium', 'medium', 'high', 'high']);
  });
});

describe('parity reasons', () => {
  const catalog: Record<string, string> = {
    'copy.parity.reason.fees': 'Performance fees',
    'copy.skip.max_positions': 'Max open positions reached',
  };
  const t = ((key: string) => catalog[key] ?? key) as Parameters<typeof parityReasonText>[0];
  it('names the server reasons: skips by their skip text, fees and sizing by their own, else as sent', () => {
    expect(parityReasonText(t, 'fees')).toBe('Performance fees');
    expect(parityReasonText(t, 'skipped:max_positions')).toBe('Max open positions reached');
    expect(parityReasonText(t, 'skipped:something_new')).toBe('skipped:something_new');
    expect(parityReasonText(t, 'timing')).toBe('timing');
    expect(['skipped:slippage', 'slippage', 'fees', 'sizing'].map(countsTrades)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

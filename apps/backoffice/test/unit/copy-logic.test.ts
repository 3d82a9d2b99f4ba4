import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  copySettingsChanges,
  holdParts,
  leaderActions,
  leaderCounts,
  modeText,
  readCopySettingsForm,
  reviewerName,
  reviewReasonProblem,
  riskBand,
  subtractDecimals,
  type TCopySettings,
  type TCopySettingsForm,
  toCopySettingsForm,
  tone,
} from '../../src/areas/copy/format';

const settings = (overrides: Partial<TCopySettings> = {}): TCopySettings => ({
  autoApprove: false,
  minTradingDays: 30,
  minEquity: '1000.00',
  maxFeePercent: '20.00',
  ...overrides,
});
const form = (overrides: Partial<TCopySettingsForm> = {}): TCopySettingsForm => ({
  ...toCopySettingsForm(settings()),
  ...overrides,
});
const holding =
  (...permissions: string[]) =>
  (permission: string) =>
    permissions.includes(permission);

describe('copy trading in the back office: leader reviews', () => {
  it('counts every leader state, 0 for a state the server left out, and all of them', () => {
    expect(leaderCounts({ pending: 3, approved: 5 })).toEqual({
      pending: 3,
      approved: 5,
      rejected: 0,
      suspended: 0,
      all: 8,
    });
    expect(leaderCounts(undefined)).toBeNull();
  });

  it('holds a rejection or suspension reason to 1-20 characters after trimming (spec 5)', () => {
    expect(reviewReasonProblem('   ')).toBe('required');
    expect(reviewReasonProblem('Too risky')).toBeNull();
    expect(reviewReasonProblem(`  ${'x'.repeat(20)}  `)).toBeNull();
    expect(reviewReasonProblem('Drawdown far too large')).toBe('tooLong');
  });

  it('offers a decision only in the states it applies to, to staff holding its permission', () => {
    const reviewer = holding('copy.view', 'copy.review');
    const suspender = holding('copy.view', 'copy.suspend');
    const viewer = holding('copy.view');
    expect(leaderActions('pending', reviewer)).toEqual(['reject', 'approve']);
    expect(leaderActions('pending', suspender)).toEqual([]);
    expect(leaderActions('approved', suspender)).toEqual(['suspend']);
    expect(leaderActions('approved', reviewer)).toEqual([]);
    expect(leaderActions('suspended', suspender)).toEqual(['reinstate']);
    expect(leaderActions('rejected', holding('copy.review', 'copy.suspend'))).toEqual([]);
    for (const state of ['pending', 'approved', 'rejected', 'suspended'] as const)
      expect(leaderActions(state, viewer)).toEqual([]);
  });

  it('names the reviewer, or "you" when the server names the reader by id, user name or display name', () => {
    const me = { staffId: 'c40a58f5-3b5f', username: 'admin', displayName: 'Administrator' };
    expect(reviewerName(null, me)).toBeNull();
    expect(reviewerName('c40a58f5-3b5f', me)).toBe('you');
    expect(reviewerName('Administrator', me)).toBe('you');
    expect(reviewerName('Li Na', me)).toBe('Li Na');
  });

  it('bands the risk score and splits the average holding time', () => {
    expect([1, 3, 4, 6, 7, 10].map(riskBand)).toEqual(['low', 'low', 'medium', 'medium', 'high', 'high']);
    expect(holdParts(45)).toEqual({ days: 0, hours: 0, minutes: 45 });
    expect(holdParts(135)).toEqual({ days: 0, hours: 2, minutes: 15 });
    expect(holdParts(3 * 1440 + 250)).toEqual({ days: 3, hours: 4, minutes: 0 });
    expect(holdParts(-5)).toEqual({ days: 0, hours: 0, minutes: 0 });
  });
});

describe('copy trading in the back office: relations and fees', () => {
  it('words each mode with its value: lots, margin in the copy currency, a multiplier, none for equity', () => {
    expect(modeText('fixed_lot', '0.10', 'USD')).toEqual({
      key: 'admin.copy.modeValue.fixed_lot',
      values: { value: '0.10' },
    });
    expect(modeText('fixed_margin', '500.00', 'EUR')).toEqual({
      key: 'admin.copy.modeValue.fixed_margin',
      values: { value: '500.00', currency: 'EUR' },
    });
    expect(modeText('ratio', '0.5', 'USD').values).toEqual({ value: '0.5' });
    expect(modeText('equity', '0', 'USD')).toEqual({ key: 'admin.copy.modeValue.equity' });
  });

  it('subtracts and compares money exactly and tones a result by its sign', () => {
    expect(subtractDecimals('2100.00', '2000')).toBe('100.00');
    expect(subtractDecimals('1799.99', '2000.00')).toBe('-200.01');
    expect(subtractDecimals('0.1', '0.3')).toBe('-0.2');
    expect(compareDecimals('10', '10.00')).toBe(0);
    expect(compareDecimals('30.01', '30')).toBe(1);
    expect([tone('-0.01'), tone('0.00'), tone('-0.00'), tone('12.5'), tone(null)]).toEqual([
      'kit-down',
      undefined,
      undefined,
      'kit-up',
      undefined,
    ]);
  });
});

describe('copy trading in the back office: the settings form', () => {
  it('reads a valid form into the settings the server takes (trimmed, days as a number)', () => {
    expect(
      readCopySettingsForm(
        form({ autoApprove: true, minTradingDays: ' 10 ', minEquity: ' 500 ', maxFeePercent: '30' }),
      ),
    ).toEqual({
      settings: { autoApprove: true, minTradingDays: 10, minEquity: '500', maxFeePercent: '30' },
      problems: {},
    });
    expect(
      readCopySettingsForm(form({ minTradingDays: '0', minEquity: '0.00', maxFeePercent: '0' })).settings,
    ).not.toBeNull();
  });

  it('refuses what the contract refuses: days outside 0-3,650, amounts with 3 decimals, a fee above 30 %', () => {
    const problems = (overrides: Partial<TCopySettingsForm>) =>
      readCopySettingsForm(form(overrides)).problems;
    expect(problems({ minTradingDays: '3651' })).toEqual({ minTradingDays: 'days' });
    expect(problems({ minTradingDays: '-1' })).toEqual({ minTradingDays: 'days' });
    expect(problems({ minTradingDays: '2.5' })).toEqual({ minTradingDays: 'days' });
    expect(problems({ minTradingDays: '3650' })).toEqual({});
    expect(problems({ minEquity: '10.001' })).toEqual({ minEquity: 'amount' });
    expect(problems({ minEquity: '' })).toEqual({ minEquity: 'amount' });
    expect(problems({ minEquity: '1,000' })).toEqual({ minEquity: 'amount' });
    expect(problems({ maxFeePercent: '30.01' })).toEqual({ maxFeePercent: 'percent' });
    expect(problems({ maxFeePercent: '31' })).toEqual({ maxFeePercent: 'percent' });
    expect(problems({ maxFeePercent: '12.345' })).toEqual({ maxFeePercent: 'percent' });
    expect(problems({ maxFeePercent: '30.00' })).toEqual({});
    expect(readCopySettingsForm(form({ minEquity: 'x', maxFeePercent: '50' }))).toEqual({
      settings: null,
      problems: { minEquity: 'amount', maxFeePercent: 'percent' },
    });
  });

  it('lists what changes as before → after, amounts compared as numbers', () => {
    expect(copySettingsChanges(settings(), settings({ minEquity: '1000', maxFeePercent: '20' }))).toEqual([]);
    expect(
      copySettingsChanges(
        settings(),
        settings({ autoApprove: true, minTradingDays: 5, minEquity: '2500.5', maxFeePercent: '25' }),
      ),
    ).toEqual([
      { field: 'autoApprove', before: 'false', after: 'true' },
      { field: 'minTradingDays', before: '30', after: '5' },
      { field: 'minEquity', before: '1000.00', after: '2500.5' },
      { field: 'maxFeePercent', before: '20.00', after: '25' },
    ]);
  });
});

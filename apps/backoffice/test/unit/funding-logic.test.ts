import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  fourEyesStep,
  isZero,
  reviewReasonProblem,
  shiftDay,
  subtractDecimals,
  type TFundingSettings,
} from '../../src/areas/funding/format';
import {
  bpToPercent,
  percentToBp,
  readSettingsForm,
  settingsChanges,
  toSettingsForm,
} from '../../src/areas/funding/settings-form';
import { ageOn, reviewReasonProblem as kycReasonProblem } from '../../src/areas/kyc/format';
import { fitScale, imageBox, nextZoom } from '../../src/areas/kyc/viewer-geometry';

const settings: TFundingSettings = {
  methods: [
    {
      method: 'card',
      depositEnabled: true,
      depositMin: '10.00',
      depositMax: '10000.00',
      depositFeeBp: 150,
      depositFeeFixed: '0.30',
      withdrawEnabled: true,
      withdrawMin: '20.00',
      withdrawMax: '5000.00',
      withdrawFeeBp: 0,
      withdrawFeeFixed: '1.00',
    },
  ],
  fourEyesUsd: '1000.00',
  fundPasswordLockHours: 24,
  coinRules: { first_deposit: 500, kyc_approved: 100, contest_entry: 0 },
};

describe('review reasons (spec 5: at most 20 characters)', () => {
  it('are required, trimmed like the server, and at most 20 characters', () => {
    for (const check of [reviewReasonProblem, kycReasonProblem]) {
      expect(check('')).toBe('required');
      expect(check('   ')).toBe('required');
      expect(check('Blurry document')).toBeNull();
      expect(check('x'.repeat(20))).toBeNull();
      expect(check(`  ${'x'.repeat(20)}  `)).toBeNull();
      expect(check('x'.repeat(21))).toBe('tooLong');
      expect(check('证件照片模糊不清请重新拍摄上传谢谢您的配合')).toBe('tooLong');
    }
  });
});

describe('four-eyes for the viewer', () => {
  const me = { staffId: 's1', username: 'alice', displayName: 'Alice Chen' };
  it('tells a first approval, a second one, and the first approver who may not give the second', () => {
    expect(fourEyesStep({ flags: [], firstApprovedBy: null }, me)).toBe('none');
    expect(fourEyesStep({ flags: ['velocity', 'four_eyes'], firstApprovedBy: null }, me)).toBe('first');
    expect(fourEyesStep({ flags: ['four_eyes'], firstApprovedBy: 'bob' }, me)).toBe('second');
    expect(fourEyesStep({ flags: ['four_eyes'], firstApprovedBy: 'alice' }, me)).toBe('mine');
    expect(fourEyesStep({ flags: ['four_eyes'], firstApprovedBy: 's1' }, me)).toBe('mine');
    expect(fourEyesStep({ flags: ['four_eyes'], firstApprovedBy: 'Alice Chen' }, me)).toBe('mine');
  });
});

describe('exact decimals', () => {
  it('subtract and compare without floats', () => {
    expect(subtractDecimals('0.3', '0.1')).toBe('0.2');
    expect(subtractDecimals('100.00', '100')).toBe('0.00');
    expect(subtractDecimals('10', '12.5')).toBe('-2.5');
    expect(subtractDecimals('1000000000000.01', '0.02')).toBe('999999999999.99');
    expect(subtractDecimals('-1.5', '-1.5')).toBe('0.0');
    expect(compareDecimals('10.10', '10.1')).toBe(0);
    expect(compareDecimals('9.99', '10')).toBe(-1);
    expect(compareDecimals('0.01', '0')).toBe(1);
    expect(isZero('0.00')).toBe(true);
    expect(isZero('-0.01')).toBe(false);
  });

  it('step report days in UTC', () => {
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftDay('2024-12-31', 1)).toBe('2025-01-01');
  });
});

describe('funding settings form', () => {
  it('shows fees in percent and reads them back in basis points', () => {
    expect(bpToPercent(150)).toBe('1.5');
    expect(bpToPercent(0)).toBe('0');
    expect(bpToPercent(2000)).toBe('20');
    expect(bpToPercent(5)).toBe('0.05');
    expect(percentToBp('1.5')).toBe(150);
    expect(percentToBp('0.05')).toBe(5);
    expect(percentToBp('20')).toBe(2000);
    expect(percentToBp('20.01')).toBeNull();
    expect(percentToBp('1.234')).toBeNull();
    expect(percentToBp('-1')).toBeNull();
  });

  it('round-trips unchanged settings with no change to review', () => {
    const read = readSettingsForm(toSettingsForm(settings));
    expect(read.settings).toEqual(settings);
    expect(settingsChanges(settings, settings)).toEqual([]);
  });

  it('lists each changed value, amounts compared as numbers', () => {
    const form = toSettingsForm(settings);
    const card = form.methods[0];
    if (!card) throw new Error('no card');
    card.deposit.min = '10';
    card.deposit.feePercent = '2';
    card.withdraw.enabled = false;
    form.fourEyesUsd = '2500';
    form.coins.contest_entry = '50';
    const read = readSettingsForm(form);
    if (!read.settings) throw new Error(JSON.stringify(read.problems));
    expect(read.settings.methods[0]?.depositFeeBp).toBe(200);
    expect(settingsChanges(settings, read.settings)).toEqual([
      {
        kind: 'method',
        method: 'card',
        direction: 'deposit',
        field: 'feePercent',
        before: '1.5',
        after: '2',
      },
      {
        kind: 'method',
        method: 'card',
        direction: 'withdraw',
        field: 'enabled',
        before: 'true',
        after: 'false',
      },
      { kind: 'fourEyesUsd', before: '1000.00', after: '2500' },
      { kind: 'coins', rule: 'contest_entry', before: '0', after: '50' },
    ]);
  });

  it('names the problem of each bad field, as the server schema would refuse it', () => {
    const form = toSettingsForm(settings);
    const card = form.methods[0];
    if (!card) throw new Error('no card');
    card.deposit.min = '20000';
    card.withdraw.feeFixed = '1.005';
    card.withdraw.feePercent = '25';
    form.fundPasswordLockHours = '721';
    form.coins.first_deposit = '10001';
    form.fourEyesUsd = '-5';
    expect(readSettingsForm(form)).toEqual({
      settings: null,
      problems: {
        'card.deposit.max': 'minAboveMax',
        'card.withdraw.feeFixed': 'amount',
        'card.withdraw.feePercent': 'fee',
        fourEyesUsd: 'amount',
        fundPasswordLockHours: 'hours',
        'coins.first_deposit': 'coins',
      },
    });
  });
});

describe('KYC file viewer', () => {
  it('zooms in steps and stops at both ends', () => {
    expect(nextZoom(1, 1)).toBe(1.5);
    expect(nextZoom(1, -1)).toBe(0.75);
    expect(nextZoom(4, 1)).toBe(4);
    expect(nextZoom(0.5, -1)).toBe(0.5);
  });

  it('swaps the sides of a picture turned sideways and fits it to the stage', () => {
    const photo = { width: 2000, height: 1000 };
    expect(imageBox(photo, 90, 0.5)).toEqual({
      box: { width: 500, height: 1000 },
      image: { width: 1000, height: 500 },
    });
    expect(fitScale(photo, 0, { width: 1000, height: 1000 })).toBe(0.5);
    expect(fitScale(photo, 90, { width: 1000, height: 1000 })).toBe(0.5);
    expect(fitScale(photo, 90, { width: 1000, height: 400 })).toBe(0.2);
    expect(fitScale({ width: 100, height: 100 }, 0, { width: 1000, height: 1000 })).toBe(1);
  });

  it('gives the age on a birth date', () => {
    const now = new Date('2026-06-15T12:00:00Z');
    expect(ageOn('2008-06-15', now)).toBe(18);
    expect(ageOn('2008-06-16', now)).toBe(17);
    expect(ageOn('nonsense', now)).toBeNull();
  });
});

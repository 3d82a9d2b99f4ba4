import { describe, expect, it } from 'vitest';
import {
  kindsOf,
  readFinancialFilters,
  reversedDays,
  writeFinancialFilters,
} from '../../src/features/funding/financial-filters';
import type { TMethodInfo } from '../../src/features/funding/funding-api';
import {
  accountRate,
  depositPreview,
  experienceRoom,
  feeOf,
  methodAmountFor,
  plainRate,
  scaleDecimal,
  withdrawalPreview,
} from '../../src/features/funding/funding-maths';
import { timelineSteps } from '../../src/features/funding/WithdrawalTimeline';
import { fileProblem, sniffMime } from '../../src/features/kyc/file-check';
import { birthDateProblem } from '../../src/features/kyc/kyc-api';
import { formatAmount, fromMinor, parseAmountInput, toMinor } from '../../src/lib/money';

/** A method as `fundingmethods` answers it, with overrides. */
function method(overrides: Partial<TMethodInfo> = {}): TMethodInfo {
  return {
    method: 'card',
    provider: 'sandboxcard',
    currency: 'USD',
    deposit: {
      enabled: true,
      min: '10.00',
      max: '50000.00',
      feeBp: 250,
      feeFixed: '0.30',
      expectedMinutes: 0,
    },
    withdraw: {
      enabled: true,
      min: '10.00',
      max: '50000.00',
      feeBp: 0,
      feeFixed: '0.00',
      expectedMinutes: 4320,
    },
    confirmations: null,
    ...overrides,
  };
}

describe('money typed by the trader', () => {
  it.each([
    ['100', 'en-US', '100.00'],
    ['100.5', 'en-US', '100.50'],
    ['1,250.75', 'en-US', '1250.75'],
    ['12,50', 'de-DE', '12.50'],
    ['1.250,75', 'de-DE', '1250.75'],
    ['12.50', 'de-DE', '12.50'],
    ['1 000', 'fr-FR', '1000.00'],
    ['0012', 'ja-JP', '12.00'],
  ])('reads %s in %s as %s', (text, intl, value) => {
    const parsed = parseAmountInput(text, intl);
    expect(parsed.ok && parsed.value).toBe(value);
  });

  it.each([
    ['', 'empty'],
    ['abc', 'format'],
    ['-5', 'format'],
    ['1.234', 'decimals'],
    ['1.2.3', 'format'],
  ])('refuses %j (%s)', (text, problem) => {
    const parsed = parseAmountInput(text, 'en-US');
    expect(parsed.ok ? null : parsed.problem).toBe(problem);
  });

  it('keeps every cent without floats', () => {
    expect(fromMinor((toMinor('0.10') ?? 0n) + (toMinor('0.20') ?? 0n))).toBe('0.30');
    expect(fromMinor(toMinor('9007199254740993.01') ?? 0n)).toBe('9007199254740993.01');
    expect(formatAmount('en-US', '-1234.5', 'USD', { sign: true })).toBe('-1,234.50 USD');
    expect(formatAmount('en-US', 250n, 'USC', { sign: true })).toBe('+2.50 USC');
  });
});

describe('funding maths, as the server works it out', () => {
  it('rounds a percentage fee up to the cent and adds the fixed part', () => {
    expect(feeOf(25_000n, 250, 30n)).toBe(655n); // 250.00 USD: 6.25 + 0.30
    expect(feeOf(101n, 150, 0n)).toBe(2n); // 1.01 x 1.5% = 0.01515, up to 0.02
    expect(feeOf(0n, 250, 30n)).toBe(0n);
  });

  it('previews a card deposit: the fee on top, the amount credited', () => {
    const preview = depositPreview(method(), 25_000n, '1');
    expect(preview).toEqual({ fee: 655n, total: 25_655n, credited: 25_000n });
  });

  it('converts into US cents for an experience account', () => {
    expect(accountRate({ USD: '1.000000', USDT: '1.000000' }, 'USDT', 'USC')).toBe('100');
    expect(accountRate({ USD: '1.000000' }, 'USD', 'USD')).toBe('1');
    expect(accountRate({}, 'EUR', 'USD')).toBeNull();
    expect(scaleDecimal('0.9985', 100n)).toBe('99.85');
    expect(plainRate('100.000000')).toBe('100');
    expect(depositPreview(method({ currency: 'USDT' }), 12_050n, '100').credited).toBe(1_205_000n);
  });

  it('takes a withdrawal fee in the account currency and pays the rest out, rounded down', () => {
    const usdt = method({
      method: 'usdt_trc20',
      currency: 'USDT',
      withdraw: {
        enabled: true,
        min: '10.00',
        max: '50000.00',
        feeBp: 0,
        feeFixed: '1.00',
        expectedMinutes: 30,
      },
    });
    expect(withdrawalPreview(usdt, 4_000n, '1')).toEqual({ fee: 100n, payout: 3_900n });
    // 10,000 USC at 100 USC per USDT: 1 USDT fee is 100 USC, 99 USDT paid out.
    expect(withdrawalPreview(usdt, 1_000_000n, '100')).toEqual({ fee: 10_000n, payout: 9_900n });
  });

  it('gives an experience account the room its cap leaves (spec 9)', () => {
    expect(experienceRoom('10000.00', '2500.00')).toBe(750_000n);
    expect(experienceRoom('10000.00', '12000.00')).toBe(0n);
    // 7,500 USC of room is 75 USDT at 100 USC per USDT.
    expect(methodAmountFor(750_000n, '100')).toBe(7_500n);
    expect(methodAmountFor(750_050n, '100')).toBe(7_500n);
  });
});

describe('the withdrawal timeline (spec 4, six states)', () => {
  const at = '2026-11-27T10:00:00.000Z';
  it('shows the main path with the current state and what is still to come', () => {
    const steps = timelineSteps({
      status: 'awaiting_review',
      steps: [
        { status: 'initiated', at },
        { status: 'awaiting_review', at },
      ],
    });
    expect(steps.map((s) => [s.status, s.state])).toEqual([
      ['initiated', 'done'],
      ['awaiting_review', 'current'],
      ['processing', 'todo'],
      ['completed', 'todo'],
    ]);
  });

  it('ends the path with the rejection, or with the failure where it happened', () => {
    const rejected = timelineSteps({
      status: 'rejected',
      steps: [
        { status: 'initiated', at },
        { status: 'awaiting_review', at },
        { status: 'rejected', at },
      ],
    });
    expect(rejected.map((s) => [s.status, s.state])).toEqual([
      ['initiated', 'done'],
      ['awaiting_review', 'done'],
      ['rejected', 'stopped'],
    ]);
    const failed = timelineSteps({
      status: 'failed',
      steps: [
        { status: 'initiated', at },
        { status: 'awaiting_review', at },
        { status: 'processing', at },
        { status: 'failed', at },
      ],
    });
    expect(failed.map((s) => s.status)).toEqual(['initiated', 'awaiting_review', 'processing', 'failed']);
    expect(timelineSteps({ status: 'completed', steps: [] }).every((s) => s.state === 'done')).toBe(true);
  });
});

describe('the financial filters in the address', () => {
  it('round-trips and drops what it does not know', () => {
    const params = new URLSearchParams(
      'kind=deposit&kind=transfer&kind=bogus&status=completed&account=10000001&from=2026-11-01&to=2026-11-30&page=3',
    );
    const filters = readFinancialFilters(params);
    expect(filters).toEqual({
      kinds: ['deposit', 'transfer'],
      status: 'completed',
      account: 10000001,
      from: '2026-11-01',
      to: '2026-11-30',
      page: 3,
    });
    expect(writeFinancialFilters(filters).toString()).toBe(
      'kind=deposit&kind=transfer&status=completed&account=10000001&from=2026-11-01&to=2026-11-30&page=3',
    );
    expect(readFinancialFilters(new URLSearchParams('status=nope&from=27.11.2026'))).toMatchObject({
      status: '',
      from: '',
    });
  });

  it('asks for the four transfer types when transfers are picked, and for all kinds when none is', () => {
    expect(kindsOf(['transfer', 'deposit'])).toEqual([
      'deposit',
      'transfer_follow_out',
      'transfer_follow_in',
      'transfer_strategy_out',
      'transfer_strategy_in',
    ]);
    expect(kindsOf([])).toBeUndefined();
    expect(reversedDays({ from: '2026-11-30', to: '2026-11-01' })).toBe(true);
  });
});

describe('KYC files and details, checked like the server checks them', () => {
  const head = (...bytes: number[]) => Uint8Array.from([...bytes, ...new Array(16).fill(0)].slice(0, 16));
  it('types a file by its first bytes, never by its name', () => {
    expect(sniffMime(head(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffMime(head(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image/png');
    expect(sniffMime(head(0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70))).toBe('video/mp4');
    expect(sniffMime(head(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x41, 0x56, 0x49, 0x20))).toBe(
      'video/x-msvideo',
    );
    expect(sniffMime(head(0x25, 0x50, 0x44, 0x46))).toBeNull(); // a PDF named photo.jpg
  });

  it('applies 5 MB to images and 50 MB to videos, and the kind each field takes', () => {
    const MB = 1024 * 1024;
    expect(fileProblem('image/png', 5 * MB, 'image')).toBeNull();
    expect(fileProblem('image/png', 5 * MB + 1, 'image')).toEqual({
      key: 'errors.-9006',
      values: { maxMb: 5 },
    });
    expect(fileProblem('video/mp4', 50 * MB, 'any')).toBeNull();
    expect(fileProblem('video/mp4', 50 * MB + 1, 'video')).toEqual({
      key: 'errors.-9006',
      values: { maxMb: 50 },
    });
    expect(fileProblem('video/mp4', 1000, 'image')).toEqual({ key: 'kyc.file.imageOnly' });
    expect(fileProblem(null, 1000, 'any')).toEqual({ key: 'errors.-9007' });
  });

  it('takes a real birth date of someone 18 to 120 years old', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(birthDateProblem('1990-04-12', now)).toBe(false);
    expect(birthDateProblem('2008-11-27', now)).toBe(false);
    expect(birthDateProblem('2008-11-28', now)).toBe(true);
    expect(birthDateProblem('1990-02-30', now)).toBe(true);
    expect(birthDateProblem('1900-01-01', now)).toBe(true);
  });
});

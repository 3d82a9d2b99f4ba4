import { describe, expect, it } from 'vitest';
import {
  accountTypeKey,
  failureText,
  formatLevel,
  formatMoney,
  magnitude,
  tradeTypeKey,
} from '../../src/features/accounts/account-text';

const catalog: Record<string, string> = {
  'errors.-3015': 'You cannot open more accounts of this type.',
  'errors.network': 'Network error, retry later.',
};
const t = (key: string) => catalog[key] ?? key;

describe('account texts', () => {
  it('names the five account types and the two trade types', () => {
    expect([1, 2, 3, 4, 5].map(accountTypeKey)).toEqual([
      'accounts.type.1',
      'accounts.type.2',
      'accounts.type.3',
      'accounts.type.4',
      'accounts.type.5',
    ]);
    expect(tradeTypeKey(1)).toBe('accounts.mode.1');
    expect(tradeTypeKey(2)).toBe('accounts.mode.2');
  });

  it('formats money from decimal strings in the reader’s locale, without floats', () => {
    expect(formatMoney('en', '100000.00', 'USD')).toBe('100,000.00 USD');
    expect(formatMoney('de', '1234567.5')).toBe('1.234.567,50');
    expect(formatMoney('en', '9007199254740993.01')).toBe('9,007,199,254,740,993.01');
  });

  it('shows a margin level as a percentage and deposits as a positive amount', () => {
    expect(formatLevel('en', '150.00')).toBe('150.00%');
    expect(formatLevel('en', '14925.37')).toBe('14,925.37%');
    expect(magnitude('-500.00')).toBe('500.00');
    expect(magnitude('200.00')).toBe('200.00');
  });

  it('prefers the portal’s translation of a refused call’s code', () => {
    expect(failureText({ code: -3015, message: 'server text' }, t)).toBe(catalog['errors.-3015']);
    expect(failureText({ code: -9998, message: 'server text' }, t)).toBe('server text');
    expect(failureText({ code: 0, message: '', messageKey: 'errors.network' }, t)).toBe(
      catalog['errors.network'],
    );
  });
});

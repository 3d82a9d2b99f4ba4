import { describe, expect, it } from 'vitest';
import {
  accountTypeKey,
  formatMoney,
  magnitude,
  tradeTypeKey,
} from '../../src/features/personal-center/account-text';

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
    expect(magnitude('-500.00')).toBe('500.00');
    expect(magnitude('200.00')).toBe('200.00');
  });
});

import { describe, expect, it } from 'vitest';
import { dateFormat, numberFormat } from '../../src/lib/intl-cache';

describe('Intl formatters made once per locale and options', () => {
  it('gives the same formatter for the same options, a new one for other options or another locale', () => {
    const two = numberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(numberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 })).toBe(two);
    expect(numberFormat('de-DE', { minimumFractionDigits: 3, maximumFractionDigits: 3 })).not.toBe(two);
    expect(numberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })).not.toBe(two);
    expect(two.format(1234.5)).toBe('1.234,50');
    expect(numberFormat('de-DE')).toBe(numberFormat('de-DE'));
    expect(numberFormat('de-DE')).not.toBe(two);
  });

  it('keeps date options apart, a time zone included', () => {
    const utc = dateFormat('en-GB', {
      timeZone: 'UTC',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const tokyo = dateFormat('en-GB', {
      timeZone: 'Asia/Tokyo',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    expect(tokyo).not.toBe(utc);
    expect(utc.format(Date.UTC(2026, 10, 27, 23, 5))).toBe('23:05');
    expect(tokyo.format(Date.UTC(2026, 10, 27, 23, 5))).toBe('08:05');
    expect(
      dateFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    ).toBe(utc);
  });
});

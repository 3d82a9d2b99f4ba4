import { describe, expect, it } from 'vitest';
import {
  csvHref,
  periodOf,
  readFilters,
  sumMoney,
  type THistoryFilters,
  writeFilters,
} from '../../src/features/history/history-filters';

const DAY = 86_400_000;
const filters = (overrides: Partial<THistoryFilters> = {}): THistoryFilters => ({
  account: null,
  range: '30',
  from: null,
  to: null,
  symbol: '',
  tab: 'deals',
  page: 1,
  ...overrides,
});

describe('history filters', () => {
  it('sums money strings exactly, in integer cents', () => {
    expect(sumMoney(['0.10', '0.20'])).toBe('0.30');
    expect(sumMoney(['98.50', '-2.50', '-0.01'])).toBe('95.99');
    expect(sumMoney(['-5.00', '2.00'])).toBe('-3.00');
    expect(sumMoney([])).toBe('0.00');
    expect(sumMoney(['123456789012.34', '0.66'])).toBe('123456789013.00');
  });

  it('reads the address, falling back to the defaults for anything unknown', () => {
    expect(readFilters(new URLSearchParams(''))).toEqual(filters());
    expect(
      readFilters(new URLSearchParams('account=100002&range=7&symbol=btcusdt&tab=orders&page=3')),
    ).toEqual(filters({ account: 100002, range: '7', symbol: 'BTCUSDT', tab: 'orders', page: 3 }));
    expect(readFilters(new URLSearchParams('range=365&symbol=B$&page=-2&from=yesterday'))).toEqual(filters());
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(writeFilters(filters()).toString()).toBe('');
    const custom = filters({
      range: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
      symbol: 'EURUSD',
      page: 2,
    });
    expect(readFilters(writeFilters(custom))).toEqual(custom);
  });

  it('leaves a preset open at the end and covers whole local days for a custom period', () => {
    const now = Date.UTC(2026, 5, 30, 12);
    expect(periodOf(filters({ range: '7' }), now)).toEqual({ from: now - 7 * DAY });
    const custom = periodOf(filters({ range: 'custom', from: '2026-06-01', to: '2026-06-02' }), now);
    expect(custom).toEqual({
      from: new Date(2026, 5, 1).getTime(),
      to: new Date(2026, 5, 3).getTime() - 1,
    });
    expect(periodOf(filters({ range: 'custom', from: '2026-06-03', to: '2026-06-02' }), now)).toBeNull();
    expect(periodOf(filters({ range: 'custom', from: '2026-06-03' }), now)).toBeNull();
  });

  it('exports the same account, period and symbol as CSV', () => {
    expect(csvHref(100001, { from: 5 }, '')).toBe('/api/v1/order/history.csv?account_id=100001&from=5');
    expect(csvHref(100001, { from: 5, to: 9 }, 'BTCUSDT')).toBe(
      '/api/v1/order/history.csv?account_id=100001&from=5&to=9&symbol=BTCUSDT',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { formatPriceString, priceDecimals } from '../src/price-format';

describe('priceDecimals (spec 5 table)', () => {
  it.each([
    ['0.5', 8],
    ['0.99999999', 8],
    ['1', 5],
    ['9.99', 5],
    ['10', 4],
    ['99.5', 4],
    ['100', 3],
    ['999.9', 3],
    ['1000', 2],
    ['9999.99', 2],
    ['10000', 1],
    ['99999', 1],
    ['100000', 0],
    ['2500000', 0],
    ['-0.5', 8],
  ])('%s has %i decimals', (price, decimals) => {
    expect(priceDecimals(price)).toBe(decimals);
  });

  it('formats without floating-point drift', () => {
    expect(formatPriceString('1.005', 2)).toBe('1.01');
    expect(formatPriceString('0.1')).toBe('0.10000000');
    expect(formatPriceString('1234.565')).toBe('1234.57');
  });
});

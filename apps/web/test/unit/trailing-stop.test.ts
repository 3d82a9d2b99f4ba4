import { MAX_TRAILING_POINTS } from '@broker/domain/trading/orders';
import { describe, expect, it } from 'vitest';
import { trailedStopPrice, trailingDistance } from '../../src/features/trade/ticket-rules';

describe('the trailing stop field', () => {
  it('reads none, whole points within the stops level and the maximum, or not valid', () => {
    expect(trailingDistance(null, false, 50)).toBeNull();
    expect(trailingDistance('0', true, 50)).toBeNull();
    expect(trailingDistance('50', true, 50)).toBe(50n);
    expect(trailingDistance('49', true, 50)).toBeUndefined();
    expect(trailingDistance('1', true, 0)).toBe(1n);
    expect(trailingDistance(String(MAX_TRAILING_POINTS), true)).toBe(BigInt(MAX_TRAILING_POINTS));
    expect(trailingDistance(String(MAX_TRAILING_POINTS + 1), true)).toBeUndefined();
    for (const text of ['12.5', '-3', null]) expect(trailingDistance(text, true)).toBeUndefined();
  });

  it('hints the stop-loss it would set: under the bid for a buy, over the ask for a sell', () => {
    expect(trailedStopPrice('buy', 6_700_000n, 6_705_000n, 20_000n)).toBe(6_680_000n);
    expect(trailedStopPrice('sell', 6_700_000n, 6_705_000n, 20_000n)).toBe(6_725_000n);
  });
});

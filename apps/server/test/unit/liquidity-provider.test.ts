import { describe, expect, it } from 'vitest';
import { LiquidityRejection } from '../../src/modules/liquidity/provider';
import { SimulatedLiquidityProvider, seededRandom } from '../../src/modules/liquidity/simulated-provider';

/** A provider whose waits are recorded instead of slept, with a fixed BTCUSDT quote (points). */
function simulated(options: { seed: number; rejectRate?: number; maxSlippagePoints?: number }) {
  const waits: number[] = [];
  const quotes = new Map([['BTCUSDT', { bid: 6_700_000, ask: 6_700_025 }]]);
  const provider = new SimulatedLiquidityProvider({
    quote: (symbol) => quotes.get(symbol),
    latencyMs: { min: 20, max: 150 },
    sleep: async (ms) => {
      waits.push(ms);
    },
    now: () => 1_700_000_000_000,
    ...options,
  });
  return { provider, waits, quotes };
}

const order = (n: number, side: 'buy' | 'sell' = 'buy') => ({
  clientOrderId: `hedge-${n}`,
  symbol: 'BTCUSDT',
  side,
  volume: 10,
  requestedPrice: 6_700_025,
});

async function run(provider: SimulatedLiquidityProvider, count: number) {
  const outcomes: string[] = [];
  for (let n = 0; n < count; n++) {
    try {
      const fill = await provider.sendOrder(order(n, n % 2 === 0 ? 'buy' : 'sell'));
      outcomes.push(`${fill.price}@${fill.latencyMs}`);
    } catch (error) {
      outcomes.push(error instanceof LiquidityRejection ? `x:${error.reason}` : 'error');
    }
  }
  return outcomes;
}

describe('simulated liquidity provider', () => {
  it('replays exactly with the same seed, and differs with another', async () => {
    const first = await run(simulated({ seed: 42 }).provider, 200);
    const again = await run(simulated({ seed: 42 }).provider, 200);
    const other = await run(simulated({ seed: 43 }).provider, 200);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('takes 20 to 150 ms, slips a few points around the raw quote and refuses about 2 %', async () => {
    const { provider, waits } = simulated({ seed: 7, rejectRate: 0.02, maxSlippagePoints: 3 });
    const outcomes = await run(provider, 2_000);
    expect(waits).toHaveLength(2_000);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...waits)).toBeLessThanOrEqual(150);
    const rejected = outcomes.filter((o) => o.startsWith('x:rejected')).length;
    expect(rejected).toBeGreaterThan(10); // 2 % of 2000 is 40
    expect(rejected).toBeLessThan(80);
    outcomes.forEach((outcome, n) => {
      if (outcome.startsWith('x:')) return;
      const price = Number(outcome.split('@')[0]);
      // buys fill around the ask, sells around the bid, at most 3 points away
      const reference = n % 2 === 0 ? 6_700_025 : 6_700_000;
      expect(Math.abs(price - reference)).toBeLessThanOrEqual(3);
    });
    const status = provider.status();
    expect(status.sent).toBe(2_000);
    expect(status.filled + status.rejected).toBe(2_000);
    expect(status.averageLatencyMs).toBeGreaterThanOrEqual(20);
    expect(status.averageLatencyMs).toBeLessThanOrEqual(150);
  });

  it('fills at the quote current when the order arrives, not when it was sent', async () => {
    const { provider, quotes } = simulated({ seed: 1, rejectRate: 0, maxSlippagePoints: 0 });
    const pending = provider.sendOrder(order(1));
    quotes.set('BTCUSDT', { bid: 6_800_000, ask: 6_800_025 });
    expect((await pending).price).toBe(6_800_025);
  });

  it('refuses a symbol without a price', async () => {
    const { provider } = simulated({ seed: 1, rejectRate: 0 });
    await expect(provider.sendOrder({ ...order(1), symbol: 'ETHUSDT' })).rejects.toMatchObject({
      reason: 'no_price',
    });
  });

  it('closes what it opened, in parts, and refuses closing more or the wrong side', async () => {
    const { provider } = simulated({ seed: 3, rejectRate: 0 });
    const open = await provider.sendOrder({ ...order(1), volume: 30 });
    expect(provider.openVolume(open.providerOrderId)).toBe(30);
    const close = (n: number, volume: number, side: 'buy' | 'sell' = 'sell') =>
      provider.closeOrder({ ...order(n, side), volume, providerOrderId: open.providerOrderId });
    await expect(close(2, 40)).rejects.toMatchObject({ reason: 'rejected' });
    await expect(close(3, 10, 'buy')).rejects.toMatchObject({ reason: 'unknown_order' });
    await close(4, 10);
    expect(provider.openVolume(open.providerOrderId)).toBe(20);
    await close(5, 20);
    expect(provider.openVolume(open.providerOrderId)).toBe(0);
  });

  it('answers a repeated client order id with the first fill instead of filling twice', async () => {
    const { provider } = simulated({ seed: 5, rejectRate: 0 });
    const first = await provider.sendOrder(order(1));
    const again = await provider.sendOrder(order(1));
    expect(again).toEqual(first);
    expect(provider.status().filled).toBe(1);
  });

  it('draws uniformly from its seed', () => {
    const random = seededRandom(99);
    const draws = Array.from({ length: 10_000 }, random);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
  });
});

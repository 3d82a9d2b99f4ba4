import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AlertIndex } from '../../src/modules/alerts/alert-index';

/**
 * The alert index against a brute-force reference: for any alerts, removals and ticks, the entries
 * a tick reaches are exactly those a scan of every live alert finds (up: level <= price, down:
 * level >= price), and each fires once.
 */
type TOp =
  | { kind: 'add'; id: number; key: number; up: boolean; level: number }
  | { kind: 'remove'; id: number }
  | { kind: 'tick'; key: number; price: number };

const op: fc.Arbitrary<TOp> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    id: fc.nat(40),
    key: fc.nat(2),
    up: fc.boolean(),
    level: fc.integer({ min: 1, max: 60 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), id: fc.nat(40) }),
  fc.record({ kind: fc.constant('tick' as const), key: fc.nat(2), price: fc.integer({ min: 0, max: 61 }) }),
);

describe('alert index', () => {
  it('fires exactly the alerts a scan of every alert finds, each once', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const index = new AlertIndex();
        const reference = new Map<string, { key: string; up: boolean; level: number }>();
        for (const step of ops) {
          if (step.kind === 'add') {
            const entry = { key: `k${step.key}`, up: step.up, level: step.level };
            index.add({
              id: `a${step.id}`,
              key: entry.key,
              direction: step.up ? 'up' : 'down',
              level: step.level,
            });
            reference.set(`a${step.id}`, entry);
          } else if (step.kind === 'remove') {
            index.remove(`a${step.id}`);
            reference.delete(`a${step.id}`);
          } else {
            const key = `k${step.key}`;
            const expected = [...reference]
              .filter(([, a]) => a.key === key && (a.up ? a.level <= step.price : a.level >= step.price))
              .map(([id]) => id)
              .sort();
            const fired = index.reached(key, step.price).map((e) => e.id);
            expect(fired.slice().sort()).toEqual(expected);
            for (const id of expected) reference.delete(id);
          }
          expect(index.size).toBe(reference.size);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('costs O(log n + fired) per tick: 100,000 alerts, 100,000 ticks', () => {
    const index = new AlertIndex();
    const n = 100_000;
    for (let i = 0; i < n; i++)
      index.add({
        id: `a${i}`,
        key: 'EURUSD',
        direction: i % 2 ? 'up' : 'down',
        level: 100_000 + (i % 2 ? 1 : -1) * (1000 + i),
      });
    const started = performance.now();
    let fired = 0;
    for (let t = 0; t < 100_000; t++) fired += index.reached('EURUSD', 100_000 + ((t % 200) - 100)).length;
    const perTickUs = ((performance.now() - started) * 1000) / 100_000;
    expect(fired).toBe(0);
    // A tick that fires nothing looks at the top of two heaps: far under a microsecond.
    console.info(`alert index: ${n} alerts, ${perTickUs.toFixed(3)} µs per tick that fires nothing`);
    expect(perTickUs).toBeLessThan(20);
    // Then one tick that crosses half of them fires exactly those, once.
    const firing = performance.now();
    const crossing = index.reached('EURUSD', 300_000).length;
    const perFiredUs = ((performance.now() - firing) * 1000) / crossing;
    console.info(
      `alert index: one tick fires ${crossing} alerts, ${perFiredUs.toFixed(3)} µs per alert fired`,
    );
    expect(crossing).toBe(n / 2);
    expect(index.reached('EURUSD', 300_000)).toEqual([]);
  });
});

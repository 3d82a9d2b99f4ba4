import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PositionBucket } from '../../src/trading/exposure';
import { profitMinor, rate } from '../../src/trading/money';
import { Book, isCrossed } from '../../src/trading/orders';
import {
  AccountRiskBook,
  MarginState,
  marginState,
  SymbolTriggers,
  TriggerBook,
} from '../../src/trading/trigger-book';

/** The obvious reference: an array kept sorted by (key, id). */
class NaiveBook {
  entries: Array<[number, number]> = [];
  insert(key: number, id: number) {
    this.entries.push([key, id]);
    this.entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  }
  remove(key: number, id: number) {
    const at = this.entries.findIndex(([k, i]) => k === key && i === id);
    if (at >= 0) this.entries.splice(at, 1);
    return at >= 0;
  }
  popUpTo(limit: number) {
    const out = this.entries.filter(([k]) => k <= limit).map(([, id]) => id);
    this.entries = this.entries.filter(([k]) => k > limit);
    return out;
  }
}

type TOp = { op: 'insert'; key: number } | { op: 'remove'; pick: number } | { op: 'pop'; limit: number };

describe('TriggerBook', () => {
  it('pops everything at or below a limit, in key then id order', () => {
    const book = new TriggerBook();
    book.insert(105, 1);
    book.insert(100, 3);
    book.insert(100, 2);
    book.insert(110, 4);
    const out: number[] = [];
    expect(book.popUpTo(105, out)).toBe(3);
    expect(out).toEqual([2, 3, 1]);
    expect(book.size).toBe(1);
    expect(book.minKey()).toBe(110);
    expect(book.remove(110, 4)).toBe(true);
    expect(book.remove(110, 4)).toBe(false);
    expect(book.minKey()).toBe(Number.POSITIVE_INFINITY);
  });

  it('behaves like a sorted array under any sequence of inserts, removes and pops', () => {
    const op: fc.Arbitrary<TOp> = fc.oneof(
      fc.record({ op: fc.constant('insert' as const), key: fc.integer({ min: -300, max: 300 }) }),
      fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }),
      fc.record({ op: fc.constant('pop' as const), limit: fc.integer({ min: -320, max: 320 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 1_500 }), (ops) => {
        const book = new TriggerBook();
        const naive = new NaiveBook();
        let nextId = 1;
        for (const o of ops) {
          if (o.op === 'insert') {
            book.insert(o.key, nextId);
            naive.insert(o.key, nextId);
            nextId++;
          } else if (o.op === 'remove') {
            const target = naive.entries[o.pick % Math.max(1, naive.entries.length)];
            if (target) expect(book.remove(target[0], target[1])).toBe(naive.remove(target[0], target[1]));
            else expect(book.remove(0, 0)).toBe(false);
          } else {
            const out: number[] = [];
            book.popUpTo(o.limit, out);
            expect(out).toEqual(naive.popUpTo(o.limit));
          }
          expect(book.size).toBe(naive.entries.length);
        }
        expect(book.entries()).toEqual(naive.entries);
      }),
      { numRuns: 60 },
    );
  });

  it('holds 100,000 entries and pops a crossed slice without touching the rest', () => {
    const book = new TriggerBook();
    const keys: number[] = [];
    for (let id = 0; id < 100_000; id++) {
      const key = (id * 7_919) % 100_003;
      keys.push(key);
      book.insert(key, id);
    }
    expect(book.size).toBe(100_000);
    for (let id = 0; id < 100_000; id += 10) expect(book.remove(keys[id]!, id)).toBe(true);
    expect(book.size).toBe(90_000);
    const out: number[] = [];
    const popped = book.popUpTo(999, out);
    expect(popped).toBe(out.length);
    expect(out.every((id) => keys[id]! <= 999)).toBe(true);
    expect(book.minKey()).toBeGreaterThan(999);
    expect(book.size).toBe(90_000 - popped);
  });
});

describe('SymbolTriggers', () => {
  it('fires exactly the triggers whose side crossed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ book: fc.constantFrom(0, 1, 2, 3), price: fc.integer({ min: 90, max: 110 }) }), {
          maxLength: 200,
        }),
        fc.integer({ min: 85, max: 115 }),
        fc.integer({ min: 0, max: 5 }),
        (triggers, bid, spread) => {
          const ask = bid + spread;
          const books = new SymbolTriggers();
          triggers.forEach((t, id) => {
            books.add(t.book as 0 | 1 | 2 | 3, t.price, id);
          });
          const expected = triggers
            .map((t, id) => ({ ...t, id }))
            .filter((t) => isCrossed(t.book as 0 | 1 | 2 | 3, t.price, bid, ask))
            .map((t) => t.id)
            .sort((a, b) => a - b);
          expect(books.anyCrossed(bid, ask)).toBe(expected.length > 0);
          const out: number[] = [];
          books.popCrossed(bid, ask, out);
          expect(out.sort((a, b) => a - b)).toEqual(expected);
          expect(books.anyCrossed(bid, ask)).toBe(false);
          expect(books.size).toBe(triggers.length - expected.length);
        },
      ),
    );
  });

  it('keys falling books by the negated price', () => {
    const books = new SymbolTriggers();
    books.add(Book.BID_FALLING, 100, 1);
    expect(books.books[Book.BID_FALLING].entries()).toEqual([[-100, 1]]);
    expect(books.remove(Book.BID_FALLING, 100, 1)).toBe(true);
  });
});

describe('margin state and the account risk book', () => {
  it.each([
    [10_000, 10_000, 10_000, 5_000, MarginState.OK],
    [9_999, 10_000, 10_000, 5_000, MarginState.MARGIN_CALL],
    [5_000, 10_000, 10_000, 5_000, MarginState.MARGIN_CALL],
    [4_999, 10_000, 10_000, 5_000, MarginState.STOP_OUT],
    [-1, 0, 10_000, 5_000, MarginState.OK],
    [1, 3, 5_000, 3_334, MarginState.STOP_OUT], // 33.33 % < 33.34 %
  ] as const)('equity %i over margin %i at levels %i/%i', (equity, margin, call, stop, state) => {
    expect(marginState(equity, margin, call, stop)).toBe(state);
  });

  it('agrees with the exact comparison through its floors for any figures', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        (base, floating, margin, call, stop) => {
          const risk = new AccountRiskBook();
          const slot = risk.addSlot();
          risk.riskBase[slot] = base;
          risk.margin[slot] = margin;
          risk.marginCallBp[slot] = Math.max(call, stop);
          risk.stopOutBp[slot] = stop;
          risk.refresh(slot);
          risk.floating[slot] = floating;
          expect(risk.state(slot)).toBe(marginState(base + floating, margin, Math.max(call, stop), stop));
        },
      ),
    );
  });

  it('marks an account on a tick only when its floating profit crosses a floor', () => {
    const risk = new AccountRiskBook();
    const slot = risk.addSlot();
    risk.riskBase[slot] = 100_000;
    risk.margin[slot] = 50_000;
    risk.marginCallBp[slot] = 10_000;
    risk.stopOutBp[slot] = 5_000;
    risk.refresh(slot);
    expect([risk.callFloor[slot], risk.stopFloor[slot]]).toEqual([-50_000, -75_000]);
    risk.begin();
    risk.floating[slot] = -40_000;
    risk.watch(slot);
    expect(risk.markedCount).toBe(0);
    risk.floating[slot] = -60_000;
    risk.watch(slot);
    expect(risk.markedCount).toBe(1);
    const out: number[] = [];
    expect(risk.scan(out)).toBe(1);
    expect(out).toEqual([slot]);
  });

  it('grows past its first capacity', () => {
    const risk = new AccountRiskBook();
    for (let i = 0; i < 1_000; i++) risk.addSlot();
    expect(risk.size).toBe(1_000);
    expect(risk.stopFloor[999]).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('PositionBucket', () => {
  it('revalues exactly like the general profit function, and keeps indices on removal', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            open: fc.integer({ min: 1, max: 2_000_000 }),
            volume: fc.integer({ min: 1, max: 50_000 }),
            buy: fc.boolean(),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 0, max: 500 }),
        fc.record({
          pointNum: fc.integer({ min: 1, max: 1_000 }),
          pointDen: fc.constantFrom(1, 10, 100, 1_000_000),
        }),
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 0, max: 500 }),
        (positions, bid, spread, { pointNum, pointDen }, rateDen, rateSpread) => {
          const risk = new AccountRiskBook();
          const slot = risk.addSlot();
          const bucket = new PositionBucket<number>();
          positions.forEach((p, i) => {
            bucket.add(i, p.open, p.volume, p.buy ? 1 : -1, slot, 0);
          });
          const ask = bid + spread;
          const point = rate(pointNum, pointDen);
          const rates = { low: rate(100_000, rateDen + rateSpread), high: rate(100_000, rateDen) };
          // the exact values, or skip figures no safe integer can hold (the engine refuses those loudly)
          let expected: number[];
          try {
            expected = positions.map((p) =>
              profitMinor(p.buy ? bid - p.open : p.open - ask, p.volume, point, rates),
            );
          } catch {
            fc.pre(false);
            return;
          }
          bucket.revalue(bid, ask, point, rates, risk);
          let sum = 0;
          positions.forEach((_p, i) => {
            expect(bucket.profit[i]).toBe(expected[i]);
            sum += expected[i]!;
          });
          expect(risk.floating[slot]).toBe(sum);
          const moved = bucket.removeAt(0);
          expect(bucket.count).toBe(positions.length - 1);
          if (positions.length > 1) expect(moved).toBe(positions.length - 1);
          else expect(moved).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});

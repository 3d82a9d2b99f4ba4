/**
 * The active alerts of the whole server in memory, per watched key (a broker's symbol), so that a
 * tick costs O(log n + fired), never a scan of every alert:
 * - `up` alerts fire when the price reaches their level from below (price >= level): a min-heap by
 *   level, so the tick looks at the top and pops while the top has been reached;
 * - `down` alerts fire when the price reaches their level from above (price <= level): a max-heap.
 * Removing or moving an alert is lazy: the heap entry is left behind and skipped when it surfaces
 * (`live` knows each id's current entry); a heap is rebuilt once more than half of it is dead.
 */

export type TDirection = 'up' | 'down';

export interface TIndexEntry {
  id: string;
  key: string;
  direction: TDirection;
  /** Integer points: the level that fires the entry. */
  level: number;
}

class Heap {
  readonly items: TIndexEntry[] = [];
  /** Entries still in `items` that were removed or replaced. */
  dead = 0;
  constructor(private readonly before: (a: TIndexEntry, b: TIndexEntry) => boolean) {}

  get size() {
    return this.items.length;
  }
  peek(): TIndexEntry | undefined {
    return this.items[0];
  }
  push(entry: TIndexEntry) {
    const items = this.items;
    items.push(entry);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i] as TIndexEntry, items[parent] as TIndexEntry)) break;
      [items[i], items[parent]] = [items[parent] as TIndexEntry, items[i] as TIndexEntry];
      i = parent;
    }
  }
  pop(): TIndexEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      this.down(0);
    }
    return top;
  }
  private down(start: number) {
    const items = this.items;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < items.length && this.before(items[left] as TIndexEntry, items[best] as TIndexEntry))
        best = left;
      if (right < items.length && this.before(items[right] as TIndexEntry, items[best] as TIndexEntry))
        best = right;
      if (best === i) return;
      [items[i], items[best]] = [items[best] as TIndexEntry, items[i] as TIndexEntry];
      i = best;
    }
  }
  /** Keeps only the entries `keep` accepts, in O(n). */
  rebuild(keep: (entry: TIndexEntry) => boolean) {
    const kept = this.items.filter(keep);
    this.items.length = 0;
    this.items.push(...kept);
    for (let i = (kept.length >> 1) - 1; i >= 0; i--) this.down(i);
    this.dead = 0;
  }
}

interface TBook {
  up: Heap;
  down: Heap;
}

export class AlertIndex {
  private readonly books = new Map<string, TBook>();
  /** Each id's current entry: a heap entry that is not this one is dead. */
  private readonly live = new Map<string, TIndexEntry>();

  get size(): number {
    return this.live.size;
  }

  has(id: string): boolean {
    return this.live.has(id);
  }

  entry(id: string): TIndexEntry | undefined {
    return this.live.get(id);
  }

  /** The keys that have entries (to price only the brokers that watch a symbol). */
  keys(): IterableIterator<string> {
    return this.books.keys();
  }

  /** Adds the entry, replacing the id's earlier one. O(log n). */
  add(entry: TIndexEntry): void {
    this.remove(entry.id);
    let book = this.books.get(entry.key);
    if (!book) {
      book = { up: new Heap((a, b) => a.level < b.level), down: new Heap((a, b) => a.level > b.level) };
      this.books.set(entry.key, book);
    }
    const stored = { ...entry };
    this.live.set(entry.id, stored);
    book[entry.direction].push(stored);
  }

  /** Forgets the id (lazily: its heap entry is skipped when it surfaces). O(1) amortised. */
  remove(id: string): void {
    const entry = this.live.get(id);
    if (!entry) return;
    this.live.delete(id);
    const book = this.books.get(entry.key);
    if (!book) return;
    const heap = book[entry.direction];
    heap.dead++;
    if (heap.dead * 2 > heap.size) heap.rebuild((e) => this.live.get(e.id) === e);
    if (book.up.size === book.up.dead && book.down.size === book.down.dead) this.books.delete(entry.key);
  }

  /**
   * The entries of `key` that `price` reaches (up: level <= price; down: level >= price), taken out
   * of the index. O(log n) per entry returned, O(1) when none is.
   */
  reached(key: string, price: number): TIndexEntry[] {
    const book = this.books.get(key);
    if (!book) return [];
    const out: TIndexEntry[] = [];
    this.drain(book.up, (level) => level <= price, out);
    this.drain(book.down, (level) => level >= price, out);
    if (book.up.size === 0 && book.down.size === 0) this.books.delete(key);
    return out;
  }

  private drain(heap: Heap, reached: (level: number) => boolean, out: TIndexEntry[]) {
    for (let top = heap.peek(); top; top = heap.peek()) {
      const current = this.live.get(top.id) === top;
      if (current && !reached(top.level)) return;
      heap.pop();
      if (!current) {
        heap.dead--;
        continue;
      }
      this.live.delete(top.id);
      out.push(top);
    }
  }
}

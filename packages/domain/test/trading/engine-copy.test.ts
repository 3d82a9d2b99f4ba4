import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INSTRUMENTS } from '../../src/market/instruments';
import { AccountType, TradeType } from '../../src/trading/calculations';
import {
  type TCommand,
  type TCopySettings,
  type TEngineConfig,
  type TEngineEvent,
  TradingEngine,
} from '../../src/trading/engine-core';
import { compileInstrument } from '../../src/trading/instrument-terms';
import { CloseReason } from '../../src/trading/orders';
import { engineConfig, WED_NOON } from './harness';

/**
 * Random runs of leaders trading, followers copying, and both sides changing their minds, checked
 * after every step. Reproducible; set FC_SEED to explore other seeds.
 */
const PROPERTY_SEED = Number(process.env.FC_SEED ?? 20_261_127);

const MARKETS = {
  EURUSD: { bid: 108_420, spread: 10, min: 1 },
  USDJPY: { bid: 151_420, spread: 10, min: 1 },
  XAUUSD: { bid: 234_150, spread: 30, min: 1 },
  GER40: { bid: 181_752, spread: 12, min: 10 },
  BTCUSDT: { bid: 6_725_000, spread: 2_500, min: 1 },
} as const;
type TSymbol = keyof typeof MARKETS;
const SYMBOLS = Object.keys(MARKETS) as TSymbol[];

/** Leaders' main accounts: USD and EUR (the equity mode converts), standard mode. */
const LEADERS = [
  { id: 1, currency: 'USD', balance: 400_000 },
  { id: 2, currency: 'EUR', balance: 250_000 },
] as const;
/** Followers' main accounts and their copy accounts; 20's group widens every quote. */
const FOLLOWERS = [
  { main: 10, copies: [11, 12], currency: 'USD', profile: null },
  { main: 20, copies: [21, 22], currency: 'USD', profile: 'wide' },
  { main: 30, copies: [31], currency: 'EUR', profile: null },
] as const;
const COPIES = FOLLOWERS.flatMap((f) => f.copies.map((id) => ({ id, main: f.main })));

function config(): TEngineConfig {
  return {
    ...engineConfig(),
    profiles: {
      wide: DEFAULT_INSTRUMENTS.map((spec) =>
        compileInstrument(spec, SYMBOLS.includes(spec.symbol as TSymbol) ? { markupPoints: 6 } : {}),
      ),
    },
    copyLimits: { maxFollowedLeaders: 2, maxFollowers: 4 },
  };
}

type TStep =
  | { kind: 'tick'; symbol: TSymbol; move: number }
  | {
      kind: 'open';
      leader: number;
      symbol: TSymbol;
      side: 'buy' | 'sell';
      lots: number;
      stops: number | null;
    }
  | { kind: 'pending'; leader: number; symbol: TSymbol; buy: boolean; distance: number; lots: number }
  | { kind: 'close'; leader: number; pick: number; part: number }
  | { kind: 'close_all'; leader: number }
  | { kind: 'modify'; leader: number; pick: number; stops: number | null }
  | { kind: 'own_close'; copy: number; pick: number; part: number }
  | { kind: 'own_open'; copy: number; symbol: TSymbol; lots: number }
  | { kind: 'follow'; copy: number; leader: number; settings: TCopySettings }
  | { kind: 'stop'; copy: number; close: boolean }
  | { kind: 'pause'; copy: number; pause: boolean }
  | { kind: 'fund'; copy: number; amount: number }
  | { kind: 'leader_pause'; leader: number; paused: boolean }
  | { kind: 'settle'; copy: number }
  | { kind: 'rollover' }
  | { kind: 'repeat'; back: number };

const leaderIndex = fc.integer({ min: 0, max: LEADERS.length - 1 });
const copyIndex = fc.integer({ min: 0, max: COPIES.length - 1 });
const symbol = fc.constantFrom(...SYMBOLS);
const option = (arb: fc.Arbitrary<number>) => fc.option(arb, { nil: null });

const settings: fc.Arbitrary<TCopySettings> = fc
  .record({
    mode: fc.constantFrom('fixed_lot' as const, 'fixed_margin' as const, 'ratio' as const, 'equity' as const),
    lot: fc.integer({ min: 1, max: 60 }),
    margin: fc.integer({ min: 500, max: 300_000 }),
    ratio: fc.integer({ min: 100, max: 30_000 }),
    maxVolume: option(fc.integer({ min: 1, max: 60 })),
    maxPositions: option(fc.integer({ min: 1, max: 4 })),
    maxSlippagePoints: option(fc.integer({ min: 0, max: 8 })),
    stopLossBp: option(fc.integer({ min: 200, max: 4_000 })),
    takeProfitBp: option(fc.integer({ min: 200, max: 3_000 })),
    copyStops: fc.boolean(),
    copyExisting: fc.boolean(),
    feeBp: fc.integer({ min: 0, max: 3_000 }),
  })
  .map(({ lot, margin, ratio, ...s }) => ({
    ...s,
    modeValue:
      s.mode === 'fixed_lot' ? lot : s.mode === 'fixed_margin' ? margin : s.mode === 'ratio' ? ratio : 0,
  }));

function stepArbitrary(maxMove: number, maxLots = 60): fc.Arbitrary<TStep> {
  const stops = fc.option(fc.integer({ min: 2, max: 30 }), { nil: null, freq: 2 });
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant('tick' as const),
        symbol,
        move: fc.integer({ min: -maxMove, max: maxMove }),
      }),
    },
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('open' as const),
        leader: leaderIndex,
        symbol,
        side: fc.constantFrom('buy' as const, 'sell' as const),
        lots: fc.integer({ min: 1, max: maxLots }),
        stops,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('pending' as const),
        leader: leaderIndex,
        symbol,
        buy: fc.boolean(),
        distance: fc.integer({ min: 1, max: 5 }),
        lots: fc.integer({ min: 1, max: 40 }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('close' as const),
        leader: leaderIndex,
        pick: fc.nat(),
        part: fc.integer({ min: 1, max: 4 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('close_all' as const), leader: leaderIndex }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('modify' as const),
        leader: leaderIndex,
        pick: fc.nat(),
        stops,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('own_close' as const),
        copy: copyIndex,
        pick: fc.nat(),
        part: fc.integer({ min: 1, max: 3 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('own_open' as const),
        copy: copyIndex,
        symbol,
        lots: fc.integer({ min: 1, max: 10 }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('follow' as const),
        copy: copyIndex,
        leader: leaderIndex,
        settings,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('stop' as const), copy: copyIndex, close: fc.boolean() }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('pause' as const), copy: copyIndex, pause: fc.boolean() }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('fund' as const),
        copy: copyIndex,
        amount: fc.integer({ min: -100_000, max: 200_000 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('leader_pause' as const),
        leader: leaderIndex,
        paused: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const), copy: copyIndex }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('rollover' as const) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), back: fc.nat() }) },
  );
}

type TBody = TCommand extends infer C ? (C extends TCommand ? Omit<C, 'clientKey' | 'time'> : never) : never;

/** Drives an engine through abstract steps and keeps every event, with a check after each step. */
class Runner {
  readonly engine: TradingEngine;
  readonly events: TEngineEvent[] = [];
  readonly applied: TCommand[] = [];
  readonly bids = new Map<TSymbol, number>();
  /** What the events said so far: each copy account's settings and linked copies. */
  readonly settingsOf = new Map<number, TCopySettings>();
  readonly linked = new Map<number, Set<number>>();
  /** Each running relation's high-water mark as the events left it. */
  readonly marks = new Map<number, number>();
  time = WED_NOON;
  seq = 0;

  constructor(restored?: { engine: TradingEngine; from: Runner }) {
    if (restored) {
      this.engine = restored.engine;
      this.time = restored.from.time;
      this.seq = restored.from.seq;
      for (const [s, bid] of restored.from.bids) this.bids.set(s, bid);
      for (const [id, s] of restored.from.settingsOf) this.settingsOf.set(id, s);
      for (const [id, set] of restored.from.linked) this.linked.set(id, new Set(set));
      for (const [id, mark] of restored.from.marks) this.marks.set(id, mark);
      this.applied.push(...restored.from.applied);
      return;
    }
    this.engine = new TradingEngine(config());
    for (const s of SYMBOLS) this.tickAt(s, MARKETS[s].bid);
    const account = (accountId: number, currency: string, balance: number, extra = {}) =>
      this.command({
        type: 'create_account',
        accountId,
        accountType: AccountType.REAL,
        tradeType: TradeType.STANDARD,
        currency,
        leverage: 100,
        initialBalance: balance,
        negativeBalanceProtection: true,
        ...extra,
      });
    for (const l of LEADERS) account(l.id, l.currency, l.balance);
    for (const f of FOLLOWERS) {
      account(f.main, f.currency, 2_000_000, { profile: f.profile });
      for (const id of f.copies) {
        account(id, f.currency, 0, { profile: f.profile, parentId: f.main, purpose: 'copy' });
        this.command({
          type: 'transfer',
          accountId: f.main,
          toAccountId: id,
          transferType: 'transfer_follow_out',
          amount: 300_000,
        });
      }
    }
  }

  private tickAt(s: TSymbol, bid: number): void {
    this.bids.set(s, bid);
    this.record(this.engine.onTick(s, bid, bid + MARKETS[s].spread, this.time));
  }

  command(body: TBody): void {
    const command = { ...body, clientKey: `c${this.seq++}`, time: this.time } as TCommand;
    this.applied.push(command);
    const result = this.engine.apply(command);
    if (result.ok) this.record(result.events);
  }

  /**
   * Follows the step's events in order, checking each copy as it opens against the settings in force
   * at that moment: never above the follower's most volume per trade, never beyond its most copies open.
   */
  private record(events: readonly TEngineEvent[]): void {
    for (const e of events) {
      this.events.push(e);
      if (e.type === 'copy_relation_changed') {
        if (e.relation.status === 'stopped') {
          this.settingsOf.delete(e.accountId);
          this.marks.delete(e.accountId);
        } else {
          // the mark never falls while the relation runs
          const mark = this.marks.get(e.accountId);
          if (mark !== undefined) expect(e.relation.hwm).toBeGreaterThanOrEqual(mark);
          this.marks.set(e.accountId, e.relation.hwm);
          this.settingsOf.set(e.accountId, e.relation);
        }
      } else if (e.type === 'copy_fee_settled') {
        // no fee at or below the high-water mark; above it, at most the fee share of the gain
        const s = this.settingsOf.get(e.accountId);
        expect(s, `fee settled for ${e.accountId} without a relation`).toBeDefined();
        expect(e.markBefore).toBe(this.marks.get(e.accountId));
        if (e.profit <= e.markBefore) expect(e.fee).toBe(0);
        else
          expect(e.fee).toBeLessThanOrEqual(
            Math.floor(((e.profit - e.markBefore) * (s?.feeBp ?? 0)) / 10_000),
          );
        expect(e.fee).toBeGreaterThanOrEqual(0);
        expect(e.markAfter).toBeGreaterThanOrEqual(e.markBefore);
        expect(e.markAfter).toBeLessThanOrEqual(Math.max(e.markBefore, e.profit));
        this.marks.set(e.accountId, e.markAfter);
      } else if (e.type === 'position_opened' && e.position.parentTicket !== null) {
        const s = this.settingsOf.get(e.position.accountId);
        expect(s, `copy ${e.position.positionId} without a relation`).toBeDefined();
        const set = this.linked.get(e.position.accountId) ?? new Set();
        set.add(e.position.positionId);
        this.linked.set(e.position.accountId, set);
        if (s?.maxVolume != null) expect(e.position.volume).toBeLessThanOrEqual(s.maxVolume);
        if (s?.maxPositions != null) expect(set.size).toBeLessThanOrEqual(s.maxPositions);
      } else if (e.type === 'position_closed' && e.remainingVolume === 0) {
        this.linked.get(e.accountId)?.delete(e.positionId);
      } else if (e.type === 'position_unlinked') {
        this.linked.get(e.accountId)?.delete(e.positionId);
      }
    }
  }

  quote(s: TSymbol) {
    return this.engine.quote(s)!;
  }

  private pickPosition(accountId: number, pick: number) {
    const positions = this.engine.positionsOf(accountId);
    return positions[pick % Math.max(1, positions.length)];
  }

  run(step: TStep): void {
    this.time += 1_000;
    switch (step.kind) {
      case 'tick': {
        const m = MARKETS[step.symbol];
        this.tickAt(step.symbol, Math.max(m.spread * 10, this.bids.get(step.symbol)! + step.move));
        return;
      }
      case 'open': {
        const m = MARKETS[step.symbol];
        const q = this.quote(step.symbol);
        const sign = step.side === 'buy' ? 1 : -1;
        const reference = step.side === 'buy' ? q.bid : q.ask;
        this.command({
          type: 'open_market',
          accountId: LEADERS[step.leader]!.id,
          symbol: step.symbol,
          side: step.side,
          volume: m.min * step.lots,
          takeProfit: step.stops === null ? null : reference + sign * step.stops * m.spread,
          stopLoss: step.stops === null ? null : reference - sign * step.stops * m.spread,
        });
        return;
      }
      case 'pending': {
        const m = MARKETS[step.symbol];
        const q = this.quote(step.symbol);
        const d = step.distance * m.spread;
        this.command({
          type: 'place_pending',
          accountId: LEADERS[step.leader]!.id,
          symbol: step.symbol,
          orderType: step.buy ? 'buy_limit' : 'sell_limit',
          volume: m.min * step.lots,
          price: step.buy ? q.ask - d : q.bid + d,
        });
        return;
      }
      case 'close':
      case 'own_close': {
        const accountId = step.kind === 'close' ? LEADERS[step.leader]!.id : COPIES[step.copy]!.id;
        const p = this.pickPosition(accountId, step.pick);
        if (p === undefined) return;
        const min = MARKETS[p.symbol as TSymbol].min;
        const part = Math.floor(p.volume / step.part / min) * min;
        this.command({
          type: 'close_position',
          accountId,
          positionId: p.positionId,
          volume: part > 0 && step.part > 1 ? part : p.volume,
        });
        return;
      }
      case 'close_all':
        this.command({ type: 'close_all', accountId: LEADERS[step.leader]!.id });
        return;
      case 'modify': {
        const accountId = LEADERS[step.leader]!.id;
        const p = this.pickPosition(accountId, step.pick);
        if (p === undefined) return;
        const m = MARKETS[p.symbol as TSymbol];
        const q = this.quote(p.symbol as TSymbol);
        const sign = p.side === 'buy' ? 1 : -1;
        const reference = p.side === 'buy' ? q.bid : q.ask;
        this.command({
          type: 'modify_position',
          accountId,
          positionId: p.positionId,
          takeProfit: step.stops === null ? null : reference + sign * step.stops * m.spread,
          stopLoss: step.stops === null ? null : reference - sign * (step.stops + 1) * m.spread,
        });
        return;
      }
      case 'own_open':
        this.command({
          type: 'open_market',
          accountId: COPIES[step.copy]!.id,
          symbol: step.symbol,
          side: 'buy',
          volume: MARKETS[step.symbol].min * step.lots,
        });
        return;
      case 'follow':
        this.command({
          type: 'set_copy',
          accountId: COPIES[step.copy]!.id,
          leaderAccountId: LEADERS[step.leader]!.id,
          ...step.settings,
        });
        return;
      case 'stop':
        this.command({ type: 'stop_copy', accountId: COPIES[step.copy]!.id, closePositions: step.close });
        return;
      case 'pause':
        this.command({ type: step.pause ? 'pause_copy' : 'resume_copy', accountId: COPIES[step.copy]!.id });
        return;
      case 'fund': {
        const { id, main } = COPIES[step.copy]!;
        const out = step.amount > 0;
        this.command({
          type: 'transfer',
          accountId: out ? main : id,
          toAccountId: out ? id : main,
          transferType: out ? 'transfer_follow_out' : 'transfer_follow_in',
          amount: Math.abs(step.amount) || 1,
        });
        return;
      }
      case 'leader_pause':
        this.command({
          type: 'set_leader',
          accountId: LEADERS[step.leader]!.id,
          followersPaused: step.paused,
        });
        return;
      case 'settle':
        this.command({ type: 'settle_copy_fee', accountId: COPIES[step.copy]!.id });
        return;
      case 'rollover':
        this.command({ type: 'rollover' });
        return;
      case 'repeat': {
        const previous = this.applied[step.back % Math.max(1, this.applied.length)];
        if (previous === undefined) return;
        const before = JSON.stringify(this.engine.snapshot());
        const first = this.engine.apply(previous);
        const again = this.engine.apply({ ...previous, time: this.time });
        // a repeated key answers its first result and copies nothing again
        expect(again).toBe(first);
        expect(JSON.stringify(this.engine.snapshot())).toBe(before);
        return;
      }
    }
  }
}

/** What every step must leave: a sound engine, and no copy without its leader's open position. */
function expectSound(runner: Runner): void {
  const engine = runner.engine;
  expect(engine.checkInvariants()).toEqual([]);
  for (const { id } of COPIES) {
    const relation = engine.copyRelation(id);
    const copies = engine.positionsOf(id).filter((p) => p.parentTicket !== null);
    for (const p of copies) {
      expect(relation, `copy ${p.positionId} of ${id} without a relation`).toBeDefined();
      const parent = engine.position(p.parentTicket!);
      expect(parent, `copy ${p.positionId} follows ${p.parentTicket}, which is not open`).toBeDefined();
      expect(parent?.accountId).toBe(relation?.leaderAccountId);
    }
    // (the limits bind each copy as it opens, in Runner.record: a lowered limit closes nothing)
    expect(new Set(copies.map((p) => p.positionId))).toEqual(runner.linked.get(id) ?? new Set());
  }
}

/** Every transaction's postings sum to zero (a transfer's two legs together), and the ledger gives every balance. */
function expectMoneyConserved(runner: Runner): void {
  const byTx = new Map<number, number>();
  const balances = new Map<number, number>();
  for (const e of runner.events) {
    if (e.type !== 'ledger') continue;
    for (const posting of e.postings) byTx.set(e.txId, (byTx.get(e.txId) ?? 0) + posting.amount);
    const own = e.postings.find((p) => p.ledgerAccount === `trader:${e.accountId}`);
    const balance = (balances.get(e.accountId) ?? 0) + (own?.amount ?? 0);
    expect(e.balanceAfter).toBe(balance);
    balances.set(e.accountId, balance);
  }
  for (const [tx, sum] of byTx) expect(sum, `transaction ${tx}`).toBe(0);
  for (const id of runner.engine.accountIds())
    expect(runner.engine.account(id)!.balance).toBe(balances.get(id) ?? 0);
}

function tally(counts: Map<string, number>, events: readonly TEngineEvent[]): void {
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const stoppedOut = new Set<number>();
  const parents = new Map<number, number>();
  for (const e of events) {
    if (e.type === 'position_closed' && e.reason === CloseReason.AUTOMATIC) stoppedOut.add(e.positionId);
    if (e.type === 'position_opened' && e.position.parentTicket !== null) {
      add('copied');
      parents.set(e.position.positionId, e.position.parentTicket);
    } else if (e.type === 'position_closed' && e.reason === CloseReason.COPY_TRADE) {
      add(e.remainingVolume > 0 ? 'closed:4:partial' : 'closed:4');
      if (stoppedOut.has(parents.get(e.positionId) ?? 0)) add('closed:4:leader_stopped_out');
    } else if (e.type === 'copy_skipped') add(`skip:${e.action}:${e.reason}`);
    else if (e.type === 'copy_relation_changed')
      add(`relation:${e.relation.status}:${e.relation.stopReason ?? ''}`);
    else if (e.type === 'position_unlinked') add('unlinked');
    else if (e.type === 'position_modified') add('modified');
    else if (e.type === 'stop_out') add('stop_out');
    else if (e.type === 'copy_fee_settled') add(e.fee > 0 ? 'fee:charged' : 'fee:none');
  }
}

describe('copy trading properties', { timeout: 180_000 }, () => {
  it('keeps every copy linked to an open leader position, within the follower’s limits, money conserved', () => {
    const counts = new Map<string, number>();
    fc.assert(
      fc.property(fc.array(stepArbitrary(80), { minLength: 40, maxLength: 140 }), (steps) => {
        const runner = new Runner();
        for (const step of steps) {
          runner.run(step);
          expectSound(runner);
        }
        expectMoneyConserved(runner);
        tally(counts, runner.events);
      }),
      { numRuns: 120, seed: PROPERTY_SEED },
    );
    for (const reached of [
      'copied',
      'closed:4',
      'closed:4:partial',
      'unlinked',
      'skip:open:paused',
      'skip:open:below_min_volume',
      'skip:open:max_positions',
      'skip:open:slippage',
      'relation:active:',
      'relation:paused:',
      'relation:stopped:client_close',
      'relation:stopped:client_keep',
      'fee:charged',
      'fee:none',
    ])
      expect(counts.get(reached) ?? 0, reached).toBeGreaterThan(0);
  });

  it('holds on trending markets too: stop-outs, copy stop-losses and take-profits', () => {
    const counts = new Map<string, number>();
    fc.assert(
      fc.property(
        fc.array(stepArbitrary(300, 250), { minLength: 40, maxLength: 120 }),
        symbol,
        fc.constantFrom(1, -1),
        (steps, trending, direction) => {
          const runner = new Runner();
          for (const step of steps) {
            // a drift on one market on top of the noise, so that stop-outs and copy limits happen
            runner.run(
              step.kind === 'tick' && step.symbol === trending
                ? { ...step, move: step.move + direction * 150 * MARKETS[trending].spread }
                : step,
            );
            expectSound(runner);
          }
          expectMoneyConserved(runner);
          tally(counts, runner.events);
        },
      ),
      { numRuns: 100, seed: PROPERTY_SEED },
    );
    for (const reached of [
      'stop_out',
      'closed:4:leader_stopped_out',
      'relation:stopped:stop_loss',
      'relation:stopped:take_profit',
      'closed:4',
    ])
      expect(counts.get(reached) ?? 0, reached).toBeGreaterThan(0);
  });

  it('is deterministic, and a restored snapshot carries on exactly like the original', () => {
    fc.assert(
      fc.property(
        fc.array(stepArbitrary(200), { minLength: 20, maxLength: 70 }),
        fc.array(stepArbitrary(200), { minLength: 20, maxLength: 70 }),
        (before, after) => {
          const a = new Runner();
          const b = new Runner();
          for (const step of before) {
            a.run(step);
            b.run(step);
          }
          expect(b.events).toEqual(a.events);
          const engine = TradingEngine.restore(structuredClone(a.engine.snapshot()), config());
          const restored = new Runner({ engine, from: a });
          expect(restored.engine.snapshot()).toEqual(a.engine.snapshot());
          expect(restored.engine.checkInvariants()).toEqual([]);
          const mark = a.events.length;
          for (const step of after) {
            a.run(step);
            restored.run(step);
          }
          expect(restored.events).toEqual(a.events.slice(mark));
          expect(restored.engine.snapshot()).toEqual(a.engine.snapshot());
        },
      ),
      { numRuns: 60, seed: PROPERTY_SEED },
    );
  });
});

/**
 * Micro-benchmark of the trading core's hot path (not a test):
 *   node_modules/.bin/node --import tsx packages/domain/test/trading/bench-core.ts
 * Builds 10,000 accounts, 100,000 open positions and 100,000 triggers (50,000 pending orders plus
 * take-profit and stop-loss on 25,000 positions) across the 56 instruments, then times onTick over
 * 20,000 random ticks (after 2,000 warm-up ticks) and prints p50/p99. With BENCH_COPIES=1000, a
 * leader with 1,000 copy followers and 5,000 copies open join the book. With BENCH_BOTS=10000, that
 * many bots (half grid, half martingale, across the symbols) run on strategy sub-accounts.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { DEFAULT_INSTRUMENTS } from '../../src/market/instruments';
import { isOpenAt } from '../../src/market/sessions';
import { AccountType, TradeType } from '../../src/trading/calculations';
import { type TCommand, TradingEngine } from '../../src/trading/engine-core';
import { compileInstrument } from '../../src/trading/instrument-terms';
import type { TPendingType } from '../../src/trading/orders';

const ACCOUNTS = 10_000;
const POSITIONS_PER_ACCOUNT = 10;
/** BENCH_TRAILING: the share of positions with a trailing stop (0 by default: the set-up is then as before). */
const TRAILING_SHARE = Number(process.env.BENCH_TRAILING ?? 0);
const ORDERS_PER_ACCOUNT = 5;
const WARMUP_TICKS = 2_000;
const TICKS = 20_000;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(20261125);
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

const instruments = DEFAULT_INSTRUMENTS.map((spec) =>
  compileInstrument(spec, { commissionPerLotMinor: 300 }),
);
const engine = new TradingEngine({ instruments });
const NOON = Date.parse('2026-11-25T12:00:00Z');
const ASIA = Date.parse('2026-11-25T03:00:00Z');

interface TMarket {
  symbol: string;
  bid: number;
  spread: number;
  step: number;
  time: number;
  minVolume: number;
  volumeStep: number;
}

const markets: TMarket[] = DEFAULT_INSTRUMENTS.map((spec) => {
  const scale = 10 ** spec.digits;
  const spread = Math.max(1, spec.spreadPoints);
  return {
    symbol: spec.symbol,
    bid: Math.round(spec.referencePrice * scale),
    spread,
    // a tick moves about a spread: triggers a few spreads away fire now and then
    step: Math.max(1, Math.round(spread * 1.5)),
    time: isOpenAt(spec.sessions, NOON) ? NOON : ASIA,
    minVolume: Math.round(Number(spec.minVolume) * 100),
    volumeStep: Math.round(Number(spec.volumeStep) * 100),
  };
});

for (const m of markets) engine.onTick(m.symbol, m.bid, m.bid + m.spread, m.time);

let key = 0;
function apply(command: TCommand): number | null {
  const result = engine.apply(command);
  if (!result.ok) throw new Error(`${command.type} rejected: ${result.error}`);
  return result.ticket;
}

const setupStarted = performance.now();
const currencies = ['USD', 'USD', 'USD', 'USD', 'USD', 'USD', 'USD', 'USD', 'EUR', 'USC'] as const;
for (let id = 1; id <= ACCOUNTS; id++) {
  const currency = currencies[id % currencies.length]!;
  // most accounts are deep; one in ten is thin enough to meet margin calls and stop-outs
  const thin = id % 10 === 3;
  const balance = currency === 'USC' ? 500_000_000 : thin ? 600_000 : 5_000_000;
  apply({
    type: 'create_account',
    clientKey: `a${id}`,
    time: NOON,
    accountId: id,
    accountType: currency === 'USC' ? AccountType.EXPERIENCE : AccountType.REAL,
    tradeType: TradeType.STANDARD,
    currency,
    leverage: 100,
    initialBalance: balance,
  });
  let protectedLeft = random() < 0.5 ? 2 : 3;
  for (let n = 0; n < POSITIONS_PER_ACCOUNT; n++) {
    const m = markets[int(0, markets.length - 1)]!;
    const side = random() < 0.5 ? 'buy' : 'sell';
    const volume = m.minVolume + m.volumeStep * int(0, thin ? 0 : 3);
    const distance = m.spread * int(4, 60);
    const withStops = protectedLeft > 0;
    if (withStops) protectedLeft--;
    const reference = side === 'buy' ? m.bid : m.bid + m.spread;
    const sign = side === 'buy' ? 1 : -1;
    apply({
      type: 'open_market',
      clientKey: `p${key++}`,
      time: m.time,
      accountId: id,
      symbol: m.symbol,
      side,
      volume,
      takeProfit: withStops ? reference + sign * distance : null,
      stopLoss: withStops ? reference - sign * distance : null,
      // BENCH_TRAILING=0.5: that share of the positions trails its stop-loss by 4-60 spreads
      trailingStop: TRAILING_SHARE > 0 && random() < TRAILING_SHARE ? m.spread * int(4, 60) : null,
    });
  }
  for (let n = 0; n < ORDERS_PER_ACCOUNT; n++) {
    const m = markets[int(0, markets.length - 1)]!;
    const types: TPendingType[] = [
      'buy_limit',
      'sell_limit',
      'buy_stop',
      'sell_stop',
      'buy_stop_limit',
      'sell_stop_limit',
    ];
    const orderType = types[int(0, types.length - 1)]!;
    const distance = m.spread * int(4, 80);
    const ask = m.bid + m.spread;
    const price =
      orderType === 'buy_limit'
        ? ask - distance
        : orderType === 'sell_limit'
          ? m.bid + distance
          : orderType.startsWith('buy')
            ? ask + distance
            : m.bid - distance;
    const limitPrice =
      orderType === 'buy_stop_limit'
        ? price - m.spread
        : orderType === 'sell_stop_limit'
          ? price + m.spread
          : null;
    apply({
      type: 'place_pending',
      clientKey: `o${key++}`,
      time: m.time,
      accountId: id,
      symbol: m.symbol,
      orderType,
      volume: m.minVolume,
      price,
      limitPrice,
    });
  }
}
// one account in ten is then brought down to a 110-130 % margin level, so that the random walk
// produces margin calls and stop-outs on the measured path
let thinned = 0;
for (let id = 3; id <= ACCOUNTS; id += 10) {
  const view = engine.account(id)!;
  const target = Math.floor((view.margin * int(110, 130)) / 100);
  const cut = view.totalEquity - target;
  if (cut > 0 && cut < view.balance) {
    apply({ type: 'adjust_balance', clientKey: `t${id}`, time: NOON, accountId: id, amount: -cut });
    thinned++;
  }
}
// BENCH_BOTS=10000: a strategy sub-account under each main account (in turn) with one bot each, half
// grids (long, short and neutral, 20 cells around the price) and half martingales (3 adds)
const BOTS = Number(process.env.BENCH_BOTS ?? 0);
let trailed = 0;
let botsStarted = 0;
const botRefusals = new Map<string, number>();
for (let n = 0; n < BOTS; n++) {
  // the deep main accounts (not the thinned ones), in turn
  const main = 1 + ((n % (ACCOUNTS - ACCOUNTS / 10)) * 10) / 9;
  const mainId = Math.floor(main) % 10 === 3 ? Math.floor(main) + 1 : Math.floor(main);
  const view = engine.account(mainId)!;
  const accountId = 100_000 + n;
  apply({
    type: 'create_account',
    clientKey: `s${accountId}`,
    time: NOON,
    accountId,
    accountType: view.accountType,
    tradeType: TradeType.STANDARD,
    currency: view.currency,
    leverage: 100,
    initialBalance: 0,
    parentId: mainId,
    purpose: 'strategy',
  });
  apply({
    type: 'transfer',
    clientKey: `st${accountId}`,
    time: NOON,
    accountId: mainId,
    toAccountId: accountId,
    transferType: 'transfer_strategy_out',
    amount: view.currency === 'USC' ? 20_000_000 : 200_000,
  });
  const at = n % markets.length;
  const m = markets[at]!;
  const distance = Math.max(1, instruments[at]!.stopsLevelPoints);
  // ranges and steps differ from bot to bot, as traders' do
  const gap = Math.max(m.spread * int(3, 12), distance + 1);
  const grids = int(10, 40);
  const below = int(2, grids - 2);
  const result = engine.apply(
    n % 2 === 0
      ? {
          type: 'start_strategy',
          clientKey: `sb${accountId}`,
          time: m.time,
          accountId,
          strategyId: n + 1,
          kind: 'grid',
          params: {
            symbol: m.symbol,
            direction: (['long', 'short', 'neutral'] as const)[(n / 2) % 3]!,
            lowerPrice: m.bid - below * gap,
            upperPrice: m.bid + (grids - below) * gap,
            grids,
            spacing: 'arithmetic',
            volumePerGrid: m.minVolume,
          },
        }
      : {
          type: 'start_strategy',
          clientKey: `sb${accountId}`,
          time: m.time,
          accountId,
          strategyId: n + 1,
          kind: 'martingale',
          params: {
            symbol: m.symbol,
            direction: n % 4 === 1 ? 'long' : 'short',
            firstVolume: m.minVolume,
            stepBp: Math.max(10, Math.ceil(((distance + m.spread * int(3, 12)) * 10_000) / m.bid)),
            multiplierBp: 20_000,
            maxAdds: 3,
            takeProfitBp: Math.max(10, Math.ceil(((distance + m.spread * int(2, 8)) * 10_000) / m.bid)),
          },
        },
  );
  if (result.ok) botsStarted++;
  else botRefusals.set(result.error, (botRefusals.get(result.error) ?? 0) + 1);
}
if (BOTS > 0)
  console.log(
    `bots: ${botsStarted} of ${BOTS} started` +
      (botRefusals.size > 0 ? ` (refused: ${[...botRefusals].map(([e, c]) => `${e} ${c}`).join(', ')})` : ''),
  );
// BENCH_COPIES=1000: one more leader with that many followers (copy accounts), each copying five of
// the leader's positions, so that the measured ticks also revalue copies and watch copy accounts
const COPY_FOLLOWERS = Number(process.env.BENCH_COPIES ?? 0);
if (COPY_FOLLOWERS > 0) {
  const leader = ACCOUNTS + 1;
  const create = (accountId: number, initialBalance: number, extra = {}) =>
    apply({
      type: 'create_account',
      clientKey: `a${accountId}`,
      time: NOON,
      accountId,
      accountType: AccountType.REAL,
      tradeType: TradeType.STANDARD,
      currency: 'USD',
      leverage: 100,
      initialBalance,
      ...extra,
    });
  create(leader, 100_000_000);
  for (let i = 0; i < COPY_FOLLOWERS; i++) {
    const main = leader + 1 + 2 * i;
    create(main, 1_000_000);
    create(main + 1, 0, { parentId: main, purpose: 'copy' });
    apply({
      type: 'transfer',
      clientKey: `f${main}`,
      time: NOON,
      accountId: main,
      toAccountId: main + 1,
      transferType: 'transfer_follow_out',
      amount: 800_000,
    });
    // a tenth of the leader's volume: the symbol's minimum, as the leader trades ten of them
    apply({
      type: 'set_copy',
      clientKey: `c${main}`,
      time: NOON,
      accountId: main + 1,
      leaderAccountId: leader,
      mode: 'ratio',
      modeValue: 1_000,
      stopLossBp: 9_000,
    });
  }
  for (const m of markets.slice(0, 5))
    apply({
      type: 'open_market',
      clientKey: `l${m.symbol}`,
      time: m.time,
      accountId: leader,
      symbol: m.symbol,
      side: 'buy',
      volume: m.minVolume * 10,
    });
}
const setupMs = performance.now() - setupStarted;
// collect the set-up's garbage now, so that the first young-generation collection of the tick phase
// does not bill 160,000 commands' leftovers to one tick
v8.setFlagsFromString('--expose-gc');
(vm.runInNewContext('gc') as () => void)();
const before = engine.counts;
console.log(
  `setup: ${before.accounts} accounts, ${before.positions} positions, ${before.orders} pending orders, ` +
    `${before.triggers} triggers (${thinned} accounts thinned to a 110-130 % margin level) in ${(setupMs / 1000).toFixed(1)} s`,
);

const durations = new Float64Array(TICKS);
/**
 * Main-thread CPU time, which leaves out the time other processes held the core. The clock behind it
 * ticks in jiffies here, so only its means are meaningful, not per-tick percentiles.
 */
let cpuTotal = 0;
const bySymbol = new Map<string, number[]>();
const threadCpu = (): number => {
  const usage = process.threadCpuUsage();
  return usage.user + usage.system;
};
let events = 0;
let fills = 0;
let closes = 0;
let stopOuts = 0;
let botLogs = 0;
function randomTick(measure: number): void {
  const m = markets[int(0, markets.length - 1)]!;
  const move = int(-m.step, m.step);
  m.bid = Math.max(m.spread, m.bid + move);
  const cpuStarted = threadCpu();
  const started = performance.now();
  const out = engine.onTick(m.symbol, m.bid, m.bid + m.spread, m.time);
  const elapsed = performance.now() - started;
  const cpuElapsed = (threadCpu() - cpuStarted) / 1000;
  if (measure >= 0) {
    durations[measure] = elapsed;
    cpuTotal += cpuElapsed;
    const list = bySymbol.get(m.symbol) ?? [];
    list.push(cpuElapsed);
    bySymbol.set(m.symbol, list);
    events += out.length;
    for (const e of out) {
      if (e.type === 'order_filled') fills++;
      else if (e.type === 'position_closed') closes++;
      else if (e.type === 'stop_out') stopOuts++;
      else if (e.type === 'strategy_log') botLogs++;
      else if (e.type === 'stop_loss_trailed') trailed++;
    }
  }
}

for (let i = 0; i < WARMUP_TICKS; i++) randomTick(-1);
for (let i = 0; i < TICKS; i++) randomTick(i);

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
function report(label: string, values: ArrayLike<number>): void {
  const sorted = Array.from(values).sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  console.log(
    `onTick ${label} over ${sorted.length} ticks: p50 ${us(pct(50))}, p90 ${us(pct(90))}, p99 ${us(pct(99))}, ` +
      `p99.9 ${us(pct(99.9))}, max ${us(sorted[sorted.length - 1]!)}, mean ${us(mean)}`,
  );
}
report('wall clock', durations);
console.log(`main-thread CPU per tick: mean ${us(cpuTotal / TICKS)}`);
const heaviest = [...bySymbol]
  .map(([symbol, list]) => [symbol, list.reduce((s, x) => s + x, 0) / list.length] as const)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 5);
console.log(`heaviest symbols (mean CPU): ${heaviest.map(([s, t]) => `${s} ${us(t)}`).join(', ')}`);
const after = engine.counts;
console.log(
  `activity: ${events} events, ${fills} fills, ${closes} closes, ${stopOuts} stop-outs, ${botLogs} bot actions, ` +
    `${trailed} trailed stop-losses; left ${after.positions} positions, ${after.orders} orders, ${after.triggers} triggers`,
);
const rolloverStarted = performance.now();
const rollover = engine.apply({ type: 'rollover', clientKey: 'rollover', time: NOON + 10 * 3_600_000 });
const rolloverMs = performance.now() - rolloverStarted;
console.log(
  `rollover (swap on every open position, Wednesday: triple for forex and metals): ` +
    `${rollover.ok ? rollover.events.length : 0} ledger events in ${rolloverMs.toFixed(0)} ms`,
);
const problems = engine.checkInvariants();
console.log(`invariants: ${problems.length === 0 ? 'sound' : problems.slice(0, 5).join('; ')}`);
console.log(`heap: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB, node ${process.version}`);

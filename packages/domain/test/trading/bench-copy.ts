/**
 * Micro-benchmark of copy trading in the trading core (not a test):
 *   node_modules/.bin/node --import tsx packages/domain/test/trading/bench-copy.ts
 * One leader with 1,000 followers (the spec 9 maximum), their copy accounts sized by the four modes
 * in turn, a quarter with a copy stop-loss and take-profit. Times the leader's market order (which
 * opens the 1,000 copies inside the same command) and its close (which closes them with reason 4),
 * then the tick path with 5,000 copies open.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { DEFAULT_INSTRUMENTS } from '../../src/market/instruments';
import { AccountType, TradeType } from '../../src/trading/calculations';
import { type TCommand, type TCopyMode, TradingEngine } from '../../src/trading/engine-core';
import { compileInstrument } from '../../src/trading/instrument-terms';

const FOLLOWERS = 1_000;
const WARMUP_ROUNDS = 20;
const ROUNDS = 200;
const TICKS = 20_000;
const NOON = Date.parse('2026-11-25T12:00:00Z');
const LEADER = 1;

const instruments = DEFAULT_INSTRUMENTS.map((spec) =>
  compileInstrument(spec, { commissionPerLotMinor: 300 }),
);
const engine = new TradingEngine({ instruments });
const QUOTES: Record<string, [number, number]> = {
  EURUSD: [108_420, 108_430],
  GBPUSD: [126_700, 126_710],
  USDJPY: [151_420, 151_430],
  XAUUSD: [234_150, 234_180],
  BTCUSDT: [6_725_000, 6_727_500],
};
for (const [symbol, [bid, ask]] of Object.entries(QUOTES)) engine.onTick(symbol, bid, ask, NOON);

/** A command without its key and time, which `apply` adds. */
type TBody = TCommand extends infer C ? (C extends TCommand ? Omit<C, 'clientKey' | 'time'> : never) : never;

let key = 0;
function apply(command: TBody): {
  ms: number;
  events: number;
  ticket: number | null;
} {
  const started = performance.now();
  const result = engine.apply({ ...command, clientKey: `b${key++}`, time: NOON } as TCommand);
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`${command.type} rejected: ${result.error}`);
  return { ms, events: result.events.length, ticket: result.ticket };
}

const account = (accountId: number, balance: number, extra = {}) =>
  apply({
    type: 'create_account',
    accountId,
    accountType: AccountType.REAL,
    tradeType: TradeType.STANDARD,
    currency: 'USD',
    leverage: 100,
    initialBalance: balance,
    ...extra,
  });

account(LEADER, 10_000_000);
const MODES: { mode: TCopyMode; modeValue: number }[] = [
  { mode: 'fixed_lot', modeValue: 10 },
  { mode: 'fixed_margin', modeValue: 20_000 },
  { mode: 'ratio', modeValue: 500 },
  { mode: 'equity', modeValue: 0 },
];
for (let i = 0; i < FOLLOWERS; i++) {
  const main = 100_000 + 2 * i;
  account(main, 1_000_000);
  account(main + 1, 0, { parentId: main, purpose: 'copy' });
  apply({
    type: 'transfer',
    accountId: main,
    toAccountId: main + 1,
    transferType: 'transfer_follow_out',
    amount: 500_000,
  });
  apply({
    type: 'set_copy',
    accountId: main + 1,
    leaderAccountId: LEADER,
    ...MODES[i % MODES.length]!,
    ...(i % 4 === 0 ? { stopLossBp: 5_000, takeProfitBp: 5_000 } : {}),
  });
}
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
gc();

const opens: number[] = [];
const closes: number[] = [];
let copyEvents = 0;
for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
  const open = apply({ type: 'open_market', accountId: LEADER, symbol: 'EURUSD', side: 'buy', volume: 100 });
  const close = apply({ type: 'close_position', accountId: LEADER, positionId: open.ticket! });
  if (round < WARMUP_ROUNDS) continue;
  opens.push(open.ms);
  closes.push(close.ms);
  copyEvents = open.events;
}
const ms = (value: number) => `${value.toFixed(2)} ms`;
function report(label: string, values: number[], unit = ms): void {
  const sorted = [...values].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  console.log(
    `${label} over ${sorted.length}: p50 ${unit(pct(50))}, p90 ${unit(pct(90))}, p99 ${unit(pct(99))}, max ${unit(sorted[sorted.length - 1]!)}`,
  );
}
console.log(
  `1 leader, ${engine.followersOf(LEADER).length} followers; a leader order makes ${copyEvents} events`,
);
report('leader market order with its copies (one apply)', opens);
report('leader close with its copies, reason 4 (one apply)', closes);

// the tick path with copies open: five leader positions, 5,000 copies
for (const symbol of ['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'BTCUSDT'])
  apply({ type: 'open_market', accountId: LEADER, symbol, side: 'buy', volume: 100 });
gc();
const counts = engine.counts;
const symbols = Object.keys(QUOTES);
const bids = new Map(symbols.map((s) => [s, QUOTES[s]![0]]));
let seed = 20_261_127;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const ticks: number[] = [];
for (let i = 0; i < TICKS; i++) {
  const symbol = symbols[Math.floor(random() * symbols.length)]!;
  const [bid0, ask0] = QUOTES[symbol]!;
  const spread = ask0 - bid0;
  const bid = Math.max(spread * 10, bids.get(symbol)! + Math.round((random() - 0.5) * 3 * spread));
  bids.set(symbol, bid);
  const started = performance.now();
  engine.onTick(symbol, bid, bid + spread, NOON);
  ticks.push((performance.now() - started) * 1000);
}
console.log(`tick path with ${counts.positions} positions open (${counts.positions - 5} copies):`);
report('onTick', ticks, (us) => `${us.toFixed(1)} µs`);
const problems = engine.checkInvariants();
console.log(`invariants: ${problems.length === 0 ? 'sound' : problems.slice(0, 5).join('; ')}`);

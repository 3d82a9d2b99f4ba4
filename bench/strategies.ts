/**
 * Strategy-bot benchmark (issue 19), one command: `npm run bench:strategies`.
 *
 * 1. The trading core's tick (packages/domain/test/trading/bench-core.ts: 10,000 accounts, 100,000
 *    positions, 20,000 random ticks across the 56 symbols) without bots and with BENCH_BOTS=10000
 *    (half grids of 10 to 40 cells, half martingales of 3 adds, ranges and steps varying from bot to
 *    bot, on strategy sub-accounts), as child processes, in turn, BENCH_TICK_RUNS times each.
 * 2. Bot reaction through the real app (`buildApp`, demo mode, no feed), on embedded PGlite and, when
 *    DATABASE_URL names one, on that PostgreSQL server: grid and martingale bots started by the
 *    strategycreate use case (`createStrategy`: worst case, strategy sub-account, transfer, start),
 *    then ticks fed as the feed feeds them (`MarketService.onTick`, the path of POST /dev/feed/tick)
 *    at a fixed pace, swinging across the bots' levels. For every order a bot makes (a grid cell
 *    re-armed, a martingale add placed, a round opened at the market) the time from its tick's arrival
 *    to the group commit that holds it (the engine's events are published once committed).
 *    Baselines in the same run on the same database: before any bot, plain limit orders filled by the
 *    same walk (tick to the fill committed); and limit orders placed one by one through `placeOrder`.
 * 3. The backtest's simulation (`simulateStrategy`, the live engine on a scratch copy) over 90 days of
 *    M1 (129,600 bars, a random walk with swings) for a 20-cell and a 100-cell grid and a martingale;
 *    baseline in the same run: the same quotes through a scratch engine without a bot.
 *
 * Environment: BENCH_ONLY=ticks|reaction|backtest, BENCH_TICK_RUNS (default 2), BENCH_GRIDS (200),
 * BENCH_MARTINGALES (100), BENCH_TICKS (1200 per walk), BENCH_TICK_MS (20), BENCH_PLAIN_ORDERS (1000),
 * BENCH_BACKTEST_RUNS (3), DATABASE_URL (adds the PostgreSQL run).
 */
import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { TCandle } from '@broker/domain/market/candles';
import { DEFAULT_INSTRUMENTS } from '@broker/domain/market/instruments';
import { AccountType, TradeType } from '@broker/domain/trading/calculations';
import type { TStrategySpecInput } from '@broker/domain/trading/engine/strategy/types';
import { type TEngineEvent, TradingEngine } from '@broker/domain/trading/engine-core';
import { compileInstrument } from '@broker/domain/trading/instrument-terms';
import { simulateStrategy, type TSimulationAccount } from '@broker/domain/trading/strategy-simulation';
import { sql } from 'kysely';
import { systemActor } from '../apps/server/src/actor';
import { seededRandom } from '../apps/server/src/modules/liquidity/simulated-provider';
import { createStrategy } from '../apps/server/src/modules/strategies';
import { candlePath } from '../apps/server/src/modules/strategies/backtest';
import { openAccount, placeOrder } from '../apps/server/src/modules/trading';
import { loadAverage, percentile, pool, runTickBench, startBenchApp, stats } from './shared';

const ONLY = process.env.BENCH_ONLY;
const TICK_RUNS = Number(process.env.BENCH_TICK_RUNS ?? 2);
const GRIDS = Number(process.env.BENCH_GRIDS ?? 200);
const MARTINGALES = Number(process.env.BENCH_MARTINGALES ?? 100);
const TICKS = Number(process.env.BENCH_TICKS ?? 1200);
const TICK_MS = Number(process.env.BENCH_TICK_MS ?? 20);
const PLAIN_ORDERS = Number(process.env.BENCH_PLAIN_ORDERS ?? 1000);
const BACKTEST_RUNS = Number(process.env.BENCH_BACKTEST_RUNS ?? 3);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// 1. the trading core's tick, without and with 10,000 bots

function tickBench() {
  const parse = (out: string) => {
    const wall =
      /p50 ([\d.]+) µs, p90 ([\d.]+) µs, p99 ([\d.]+) µs, p99\.9 ([\d.]+) µs, max ([\d.]+) µs/.exec(out);
    const cpu = /CPU per tick: mean ([\d.]+) µs/.exec(out);
    const activity = /activity: .*?(\d+) fills, (\d+) closes, (\d+) stop-outs, (\d+) bot actions/.exec(out);
    return { wall: wall?.slice(1) ?? [], cpu: cpu?.[1] ?? '?', activity: activity?.slice(1) ?? [] };
  };
  const rows: string[] = [];
  let worstP99 = 0;
  for (let run = 0; run < TICK_RUNS; run++)
    for (const bots of [0, 10_000]) {
      const out = runTickBench({ BENCH_BOTS: String(bots), BENCH_COPIES: '0' });
      const load = loadAverage();
      if (run === 0 && bots > 0) console.log(out.split('\n').find((line) => line.startsWith('bots:')));
      if (!out.includes('invariants: sound')) console.log(out);
      const { wall, cpu, activity } = parse(out);
      if (bots > 0) worstP99 = Math.max(worstP99, Number(wall[2]));
      rows.push(
        `| ${bots === 0 ? 'no bots (baseline)' : '10,000 bots'}, run ${run + 1} | ${wall.join(' | ')} | ${cpu} | ` +
          `${activity[0]} fills, ${activity[1]} closes, ${activity[3]} bot actions | ${load} |`,
      );
    }
  console.log(
    '\nTick of the trading core (bench-core.ts: 10,000 accounts, 100,000 positions, 20,000 random ticks over 56 symbols):\n',
  );
  console.log(
    '| book | p50 µs | p90 µs | p99 µs | p99.9 µs | max µs | mean CPU per tick µs | activity in 20,000 ticks | load average (1/5/15 min) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(
    `\nWorst tick p99 with 10,000 bots: ${(worstP99 / 1000).toFixed(2)} ms (target: under 1 ms: ${worstP99 < 1000 ? 'met' : 'NOT met'}).`,
  );
}

// 2. bot reaction: tick to the bot's order committed, through the real app

const SYMBOL = 'ETHUSDT';
/** ETHUSDT's reference price and spread, points (2 digits). */
const P0 = 342_185;
const SPREAD = 180;
const price = (points: number) => (points / 100).toFixed(2);

/**
 * The walk both phases replay: three swings of ±3 % around P0 with a bounded random wobble, one point
 * per tick (about a spread a tick at the steepest, well inside the off-market filter).
 */
function walk(): number[] {
  const random = seededRandom(19);
  const period = TICKS / 3;
  let wobble = 0;
  return Array.from({ length: TICKS + 1 }, (_, i) => {
    wobble = Math.max(-600, Math.min(600, wobble + Math.round((random() - 0.5) * 160)));
    return Math.round(P0 * (1 + 0.03 * Math.sin((2 * Math.PI * i) / period))) + (i === 0 ? 0 : wobble);
  });
}

async function reactionBench(databaseServer: string | null) {
  const app = await startBenchApp(databaseServer);
  const { db, host, ports, actorOf } = app;
  const market = app.built.services.market;
  const prices = walk();
  app.tick(SYMBOL, P0, P0 + SPREAD);
  await sleep(50);

  // Tick arrival times by tick time; the engine stamps every event of a tick with the tick's time,
  // and publishes them once the group commit that holds them is done.
  const arrivals = new Map<number, number>();
  const plainOrders = new Set<number>();
  const latencies = { botOrders: [] as number[], botFills: [] as number[], plainFills: [] as number[] };
  const perTick = new Map<number, number>();
  let unmatched = 0;
  let walking = false;
  host.onEvents((events: readonly TEngineEvent[]) => {
    const now = performance.now();
    for (const e of events) {
      const arrived = arrivals.get(e.time);
      if (arrived === undefined) {
        if (walking && (e.type === 'order_placed' || e.type === 'order_filled')) unmatched++;
        continue;
      }
      const ms = now - arrived;
      if (e.type === 'order_placed' && e.order.strategyId !== null) {
        latencies.botOrders.push(ms);
        perTick.set(e.time, (perTick.get(e.time) ?? 0) + 1);
      } else if (e.type === 'position_opened' && e.position.strategyId !== null) {
        // a round opened (or an add whose level was gapped) at the market: a new order; else a fill
        if (e.orderId === null) {
          latencies.botOrders.push(ms);
          perTick.set(e.time, (perTick.get(e.time) ?? 0) + 1);
        } else latencies.botFills.push(ms);
      } else if (e.type === 'position_closed' && e.strategyId !== null) latencies.botFills.push(ms);
      else if (e.type === 'order_filled' && plainOrders.has(e.orderId)) latencies.plainFills.push(ms);
    }
  });
  /** Feeds the walk at TICK_MS a tick; answers what the group commits did meanwhile. */
  const feedWalk = async () => {
    const before = { ...host.stats };
    const filtered = market.filteredCount;
    const started = performance.now();
    walking = true;
    for (let i = 1; i < prices.length; i++) {
      const wait = started + i * TICK_MS - performance.now();
      if (wait > 0) await sleep(wait);
      const bid = prices[i] as number;
      const arrived = performance.now();
      arrivals.set(app.tick(SYMBOL, bid, bid + SPREAD), arrived);
    }
    await host.idle();
    await sleep(20);
    walking = false;
    const batches = host.stats.batches - before.batches;
    return {
      seconds: ((performance.now() - started) / 1000).toFixed(1),
      batches,
      itemsPerBatch: ((host.stats.items - before.items) / Math.max(1, batches)).toFixed(1),
      msPerCommit: ((host.stats.commitMs - before.commitMs) / Math.max(1, batches)).toFixed(1),
      filtered: market.filteredCount - filtered,
      load: loadAverage(),
    };
  };

  // the traders: one demo main account each (100,000.00), twenty bots at most per main account
  const bots = GRIDS + MARTINGALES;
  const botUsers = Math.ceil(bots / 20);
  const plainUsers = Math.max(1, Math.ceil(PLAIN_ORDERS / 100));
  const userIds = await app.insertUsers(botUsers + plainUsers);
  const mains: number[] = [];
  await pool(userIds, 16, async (userId) => {
    const { account_id } = await openAccount(ports, {
      actor: actorOf(userId),
      account_type: 1,
      trade_type: 2,
      leverage: 100,
      idempotencyKey: randomUUID(),
    });
    mains[userIds.indexOf(userId)] = account_id;
  });
  const accountOf = (userIndex: number) => ({
    actor: actorOf(userIds[userIndex] as string),
    account_id: mains[userIndex] as number,
  });
  // orders through the order use case as copy.ts places them: a system actor acting for the trader
  // (a trader's own orders carry a signature, which is not what is measured)
  const orderFor = (userIndex: number) => ({
    actor: systemActor({ name: 'bench', tenantId: app.tenant, forUser: userIds[userIndex] as string }),
    account_id: mains[userIndex] as number,
  });

  // phase A (baseline): plain limit orders across the walk's range, no bot running
  const random = seededRandom(27);
  const plain = Array.from({ length: PLAIN_ORDERS }, (_, i) => {
    const distance = Math.round(P0 * (0.002 + 0.03 * random()));
    const buy = i % 2 === 0;
    return { user: botUsers + (i % plainUsers), buy, at: buy ? P0 - distance : P0 + distance };
  });
  await pool(plain, 16, async ({ user, buy, at }) => {
    const { ticket } = await placeOrder(ports, {
      ...orderFor(user),
      symbol: SYMBOL,
      side: buy ? 'buy' : 'sell',
      type: 'limit',
      volume: '0.01',
      price: price(at),
      idempotencyKey: randomUUID(),
    });
    plainOrders.add(ticket);
  });
  const plainWalk = await feedWalk();
  const plainFills = [...latencies.plainFills];

  // phase B: the bots, started through strategycreate, then the same walk
  app.tick(SYMBOL, P0, P0 + SPREAD);
  const setupStarted = performance.now();
  const refused = new Map<string, number>();
  await pool(
    Array.from({ length: bots }, (_, n) => n),
    8,
    async (n) => {
      const u = seededRandom(1_000 + n);
      const grid = n < GRIDS;
      const spec = grid
        ? (() => {
            // ranges of 3 to 7 % of the price, centred up to 1 % off it, 10 to 40 cells
            const width = Math.round(P0 * (0.03 + 0.04 * u()));
            const centre = Math.round(P0 * (1 + (u() - 0.5) * 0.02));
            return {
              kind: 'grid' as const,
              params: {
                symbol: SYMBOL,
                direction: (['long', 'short', 'neutral'] as const)[n % 3]!,
                lowerPrice: price(centre - Math.round(width / 2)),
                upperPrice: price(centre + Math.round(width / 2)),
                grids: 10 + Math.floor(u() * 31),
                spacing: n % 5 === 0 ? ('geometric' as const) : ('arithmetic' as const),
                volumePerGrid: `0.0${1 + Math.floor(u() * 5)}`,
              },
            };
          })()
        : {
            kind: 'martingale' as const,
            params: {
              symbol: SYMBOL,
              direction: n % 2 === 0 ? ('long' as const) : ('short' as const),
              firstVolume: `0.0${1 + Math.floor(u() * 3)}`,
              stepPercent: (0.4 + 0.6 * u()).toFixed(2),
              multiplier: n % 3 === 0 ? '1.5' : '2',
              maxAdds: 3 + Math.floor(u() * 3),
              takeProfitPercent: (0.3 + 0.5 * u()).toFixed(2),
              cycle: 'repeat' as const,
            },
          };
      try {
        await createStrategy(ports, {
          ...accountOf(Math.floor(n / 20)),
          investment: '2000.00',
          spec,
          idempotencyKey: randomUUID(),
        });
      } catch (error) {
        const code = (error as { code?: unknown }).code ?? (error as Error).message;
        refused.set(String(code), (refused.get(String(code)) ?? 0) + 1);
      }
    },
  );
  const setupSeconds = ((performance.now() - setupStarted) / 1000).toFixed(1);
  const running = host.core.strategies().filter((s) => s.strategy.state === 'running').length;
  latencies.plainFills = [];
  const botWalk = await feedWalk();

  // every bot order the engine holds is in the database (the commit is the same statement)
  const liveBotOrders = host.core
    .strategies()
    .reduce((sum, s) => sum + host.core.ordersOf(s.strategy.accountId).length, 0);
  const storedBotOrders = Number(
    (
      await sql<{
        n: string;
      }>`select count(*) as n from pending_orders where strategy_id is not null`.execute(db)
    ).rows[0]?.n ?? 0,
  );
  if (liveBotOrders !== storedBotOrders)
    throw new Error(`${liveBotOrders} bot orders in the engine, ${storedBotOrders} stored`);

  // baseline: the same number of orders (at most 1,000) placed one by one through placeOrder
  const oneByOne: number[] = [];
  for (let i = 0; i < Math.min(1_000, latencies.botOrders.length); i++) {
    const t0 = performance.now();
    await placeOrder(ports, {
      ...orderFor(botUsers + (i % plainUsers)),
      symbol: SYMBOL,
      side: 'buy',
      type: 'limit',
      volume: '0.01',
      price: price(Math.round(P0 * 0.8)),
      idempotencyKey: randomUUID(),
    });
    oneByOne.push(performance.now() - t0);
  }

  const counts = [...perTick.values()].sort((a, b) => a - b);
  const orders = stats(latencies.botOrders);
  const fills = stats(latencies.botFills);
  const plainStats = stats(plainFills);
  const single = stats(oneByOne);
  console.log(`\nBot reaction — ${app.kind}`);
  console.log(
    `${running} bots running of ${bots} (${GRIDS} grids, ${MARTINGALES} martingales on ${SYMBOL}, started through createStrategy in ${setupSeconds} s` +
      `${refused.size > 0 ? `; refused: ${[...refused].map(([c, k]) => `${c} ${k}`).join(', ')}` : ''}); ` +
      `walk of ${TICKS} ticks at one per ${TICK_MS} ms, three swings of ±3 %; ${unmatched} events unmatched\n`,
  );
  console.log(
    '| case | p50 ms | p99 ms | max ms | n | walk: s, commits, items per commit, ms per commit | load average |',
  );
  console.log('|---|---|---|---|---|---|---|');
  const walkCell = (w: typeof botWalk) =>
    `${w.seconds} s, ${w.batches}, ${w.itemsPerBatch}, ${w.msPerCommit}`;
  console.log(
    `| tick → bot's new order committed (grid cell re-armed, martingale add or new round) | ${orders.p50} | ${orders.p99} | ${orders.max} | ${orders.n} | ${walkCell(botWalk)} | ${botWalk.load} |`,
  );
  console.log(
    `| tick → bot's fill or take-profit committed | ${fills.p50} | ${fills.p99} | ${fills.max} | ${fills.n} | same walk | |`,
  );
  console.log(
    `| baseline: tick → plain limit order fill committed (no bot running) | ${plainStats.p50} | ${plainStats.p99} | ${plainStats.max} | ${plainStats.n} | ${walkCell(plainWalk)} | ${plainWalk.load} |`,
  );
  console.log(
    `| baseline: one limit order through placeOrder, one by one | ${single.p50} | ${single.p99} | ${single.max} | ${single.n} | | ${loadAverage()} |`,
  );
  console.log(
    `\nBot orders per tick that made any: p50 ${percentile(counts, 50)}, p99 ${percentile(counts, 99)}, max ${counts[counts.length - 1] ?? 0} ` +
      `(${counts.length} of ${TICKS} ticks); ${storedBotOrders} bot orders pending at the end, all stored; ` +
      `${botWalk.filtered + plainWalk.filtered} ticks filtered off-market.`,
  );
  await app.close();
}

// 3. the backtest's simulation over 90 days of M1

const BARS = 90 * 1_440;

/**
 * 90 days of BTCUSDT M1 from its reference price: a random walk at its 55 % yearly volatility, four
 * steps a minute, with regimes of drift lasting hours to days and a pull back towards the start
 * (half-life about four days), so the price swings by several percent up and down.
 */
function minuteBars(start: number, open: number): TCandle[] {
  const random = seededRandom(90);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const sigma = 0.55 / Math.sqrt(365.25 * 1_440) / 2;
  let log = Math.log(open);
  const home = log;
  let drift = 0;
  const bars: TCandle[] = [];
  for (let i = 0; i < BARS; i++) {
    if (random() < 1 / 600) drift = gauss() * sigma * 0.015;
    const first = Math.round(Math.exp(log));
    let high = first;
    let low = first;
    for (let s = 0; s < 4; s++) {
      log += drift - 0.000_03 * (log - home) + sigma * gauss();
      const p = Math.round(Math.exp(log));
      high = Math.max(high, p);
      low = Math.min(low, p);
    }
    const close = Math.round(Math.exp(log));
    bars.push({ time: start + i * 60_000, open: first, high, low, close, volume: 1 });
  }
  return bars;
}

function backtestBench() {
  const spec = DEFAULT_INSTRUMENTS.find((i) => i.symbol === 'BTCUSDT')!;
  const config = { instruments: DEFAULT_INSTRUMENTS.map((s) => compileInstrument(s)) };
  const start = Date.parse('2026-08-29T00:00:00Z');
  const open = Math.round(spec.referencePrice * 100);
  let t0 = performance.now();
  const bars = minuteBars(start, open);
  const barsMs = performance.now() - t0;
  t0 = performance.now();
  const path = candlePath(bars, spec.spreadPoints, 1);
  const pathMs = performance.now() - t0;
  const quotes = DEFAULT_INSTRUMENTS.map((s) => {
    const bid = s.symbol === 'BTCUSDT' ? open : Math.round(s.referencePrice * 10 ** s.digits);
    return { symbol: s.symbol, bid, ask: bid + Math.max(1, s.spreadPoints), time: start };
  });
  const lows = bars.reduce((m, b) => Math.min(m, b.low), Number.POSITIVE_INFINITY);
  const highs = bars.reduce((m, b) => Math.max(m, b.high), 0);
  const account: TSimulationAccount = {
    accountType: AccountType.DEMO,
    tradeType: TradeType.STANDARD,
    currency: 'USD',
    leverage: 100,
    profile: null,
    marginCallBp: 10_000,
    stopOutBp: 5_000,
    negativeBalanceProtection: true,
  };
  const investment = 2_000_000;
  const grid = (grids: number): TStrategySpecInput => ({
    kind: 'grid',
    params: {
      symbol: 'BTCUSDT',
      direction: 'long',
      lowerPrice: Math.round(open * 0.9),
      upperPrice: Math.round(open * 1.1),
      grids,
      spacing: 'arithmetic',
      volumePerGrid: 1,
    },
  });
  const cases: { label: string; spec: TStrategySpecInput | null }[] = [
    { label: 'baseline: the engine alone (no bot), same quotes', spec: null },
    { label: 'grid, 20 cells (long, ±10 %, 0.01 lot a cell)', spec: grid(20) },
    { label: 'grid, 100 cells (long, ±10 %, 0.01 lot a cell)', spec: grid(100) },
    {
      label: 'martingale (long 0.01, step 1 %, x1.5, 6 adds, take-profit 0.8 %, repeat)',
      spec: {
        kind: 'martingale',
        params: {
          symbol: 'BTCUSDT',
          direction: 'long',
          firstVolume: 1,
          stepBp: 100,
          multiplierBp: 15_000,
          maxAdds: 6,
          takeProfitBp: 80,
          cycle: 'repeat',
        },
      },
    },
  ];
  /** The engine alone: the same account, the same quotes and the same per-quote reads, no bot. */
  const engineOnly = () => {
    const engine = new TradingEngine(config);
    engine.primeQuotes(quotes);
    engine.apply({
      type: 'create_account',
      clientKey: 'main',
      time: start,
      accountId: 1,
      ...account,
      initialBalance: investment,
    });
    const equity: number[] = [];
    let clock = start;
    for (const point of path) {
      clock = Math.max(clock + 1, point.time);
      engine.onTick('BTCUSDT', point.bid, point.ask, clock);
      equity.push(engine.account(1)?.equity ?? 0);
      engine.strategy(1);
    }
    return { closedTrades: 0, realizedProfit: 0, finalEquity: equity[equity.length - 1] ?? 0, state: '-' };
  };
  console.log(
    `\nBacktest of 90 days of M1 (${BARS.toLocaleString('en')} bars, ${path.length.toLocaleString('en')} quotes: open, far extreme, near extreme, close), ` +
      `BTCUSDT ${(lows / 100).toFixed(0)} to ${(highs / 100).toFixed(0)} from ${(open / 100).toFixed(0)}; bars made in ${barsMs.toFixed(0)} ms, ` +
      `quotes in ${pathMs.toFixed(0)} ms; investment 20,000.00 USD; best and median of ${BACKTEST_RUNS} runs\n`,
  );
  console.log(
    '| case | best s | median s | bars per s (best) | closed trades | realised | end equity | state | load average |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const c of cases) {
    const times: number[] = [];
    let last: { closedTrades: number; realizedProfit: number; finalEquity: number; state: string } | null =
      null;
    for (let run = 0; run < BACKTEST_RUNS; run++) {
      const started = performance.now();
      last = c.spec
        ? simulateStrategy({ config, quotes, account, investment, spec: c.spec, path, startTime: start })
        : engineOnly();
      times.push((performance.now() - started) / 1000);
    }
    times.sort((a, b) => a - b);
    const best = times[0] as number;
    const money = (minor: number) => (minor / 100).toFixed(2);
    console.log(
      `| ${c.label} | ${best.toFixed(2)} | ${percentile(times, 50).toFixed(2)} | ${Math.round(BARS / best).toLocaleString('en')} | ` +
        `${last?.closedTrades} | ${money(last?.realizedProfit ?? 0)} | ${money(last?.finalEquity ?? 0)} | ${last?.state} | ${loadAverage()} |`,
    );
  }
}

async function main() {
  console.log(
    `Strategy-bot benchmark — ${new Date().toISOString().slice(0, 16)} UTC, ${cpus().length} × ${cpus()[0]?.model.trim()}, ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${loadAverage()}`,
  );
  if (!ONLY || ONLY === 'ticks') tickBench();
  if (!ONLY || ONLY === 'reaction') {
    await reactionBench(null);
    if (process.env.DATABASE_URL?.startsWith('postgres')) await reactionBench(process.env.DATABASE_URL);
  }
  if (!ONLY || ONLY === 'backtest') backtestBench();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

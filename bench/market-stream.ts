/**
 * Market stream benchmark: synthetic ticks pushed through MarketService.onTick into the real app's
 * /ws/market (coalesced every 100 ms) to N WebSocket clients, beside a bare `ws` server that sends
 * the same quote messages to the same clients at once per tick, in the same run.
 * The clients run in one worker thread of the same process (bench/market-stream-clients.ts), so
 * servers and clients share the machine's cores.
 * Run: npm run bench:market   (BENCH_CLIENTS, BENCH_SYMBOLS_PER_CLIENT, BENCH_TICKS_PER_SECOND,
 * BENCH_SECONDS, BENCH_WARMUP_SECONDS to change the load)
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { DEFAULT_INSTRUMENTS, type TInstrumentSpec } from '@broker/domain/market/instruments';
import { changePercent, fromPoints } from '@broker/domain/price-format';
import { type WebSocket, WebSocketServer } from 'ws';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import type { TTick } from '../apps/server/src/modules/market/feed/types';
import type { TQuote } from '../apps/server/src/modules/market/market-service';
import type { TClientsCommand, TClientsInput, TClientsReport, TClientsStats } from './market-stream-clients';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1_000);
const SYMBOLS_PER_CLIENT = Number(process.env.BENCH_SYMBOLS_PER_CLIENT ?? 20);
const TICKS_PER_SYMBOL = Number(process.env.BENCH_TICKS_PER_SECOND ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECT_BATCH = 50;
const HARD_LIMIT_MS = 115_000;

const loadAtStart = loadavg()[0]!;
const hardLimit = setTimeout(() => {
  console.error(`market-stream benchmark: still running after ${HARD_LIMIT_MS / 1000} s, giving up`);
  process.exit(1);
}, HARD_LIMIT_MS);
hardLimit.unref();

const instruments: readonly TInstrumentSpec[] = DEFAULT_INSTRUMENTS;
const symbols = instruments.map((i) => i.symbol);
const tickRate = symbols.length * TICKS_PER_SYMBOL;

/**
 * Ticks at a fixed total rate, round-robin over the symbols, emitted every 5 ms (at most 100 ms
 * of backlog is caught up; older ticks are counted as skipped). Prices walk by 1 point steps from
 * the reference price with the instrument's spread, so the off-market filter accepts them.
 */
class TickSource {
  private readonly prices = instruments.map((i) => Math.round(i.referencePrice * 10 ** i.digits));
  private timer: NodeJS.Timeout | null = null;
  private started = 0;
  private emitted = 0;
  private next = 0;
  sent = 0;
  skipped = 0;

  constructor(private readonly onTick: (tick: TTick) => void) {}

  start() {
    this.started = performance.now();
    this.emitted = 0;
    this.timer = setInterval(() => this.pump(), 5);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private pump() {
    const due = Math.floor(((performance.now() - this.started) * tickRate) / 1000);
    if (due - this.emitted > tickRate / 10) {
      this.skipped += due - this.emitted - Math.floor(tickRate / 10);
      this.emitted = due - Math.floor(tickRate / 10);
    }
    const time = Date.now();
    for (; this.emitted < due; this.emitted++) {
      const index = this.next;
      this.next = (this.next + 1) % instruments.length;
      const spec = instruments[index]!;
      const step = Math.random() < 0.5 ? -1 : 1;
      const bid = Math.max(1, this.prices[index]! + step);
      this.prices[index] = bid;
      this.onTick({ symbol: spec.symbol, time, bid, ask: bid + spec.spreadPoints });
      this.sent++;
    }
  }
}

interface TRow {
  name: string;
  /** Ideal quotes per second: every subscribed stream gets every tick, or ≤ 10 a second if coalesced. */
  ideal: number;
  ready: Extract<TClientsReport, { type: 'ready' }>;
  stats: TClientsStats;
  ticksPerSecond: number;
  skipped: number;
  serverElu: number;
  /** CPU time of the server thread (which also runs the tick source) in the window, ms. */
  serverCpuMs: number;
  seconds: number;
  rssMiB: number;
}

function waitFor<T extends TClientsReport['type']>(
  worker: Worker,
  type: T,
  timeoutMs: number,
): Promise<Extract<TClientsReport, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`clients: no ${type} in ${timeoutMs} ms`)), timeoutMs);
    const listener = (report: TClientsReport) => {
      if (report.type !== type) return;
      clearTimeout(timer);
      worker.off('message', listener);
      resolve(report as Extract<TClientsReport, { type: T }>);
    };
    worker.on('message', listener);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens the clients, runs ticks through warm-up and the window, then closes the clients. */
async function measure(
  name: string,
  ideal: number,
  url: string,
  onTick: (tick: TTick) => void,
): Promise<TRow> {
  const input: TClientsInput = {
    url,
    clients: CLIENTS,
    symbolsPerClient: SYMBOLS_PER_CLIENT,
    symbols,
    connectBatch: CONNECT_BATCH,
    connectTimeoutMs: 10_000,
  };
  const worker = new Worker(new URL('./market-stream-clients.ts', import.meta.url), { workerData: input });
  worker.on('error', (error) => console.error('clients worker:', error));
  const send = (command: TClientsCommand) => worker.postMessage(command);
  try {
    const ready = await waitFor(worker, 'ready', 30_000);
    const ticks = new TickSource(onTick);
    ticks.start();
    await sleep(WARMUP_SECONDS * 1000);
    const sentBefore = ticks.sent;
    const skippedBefore = ticks.skipped;
    const eluBefore = performance.eventLoopUtilization();
    const cpuBefore = process.threadCpuUsage();
    const t0 = performance.now();
    send({ type: 'start' });
    await sleep(SECONDS * 1000);
    send({ type: 'stop' });
    const seconds = (performance.now() - t0) / 1000;
    const serverElu = performance.eventLoopUtilization(eluBefore).utilization;
    const cpu = process.threadCpuUsage(cpuBefore);
    const serverCpuMs = (cpu.user + cpu.system) / 1000;
    const sent = ticks.sent - sentBefore;
    const skipped = ticks.skipped - skippedBefore;
    ticks.stop();
    const { stats } = await waitFor(worker, 'stats', 30_000);
    const rssMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
    send({ type: 'close' });
    await waitFor(worker, 'closed', 15_000);
    return {
      name,
      ideal,
      ready,
      stats,
      ticksPerSecond: sent / seconds,
      skipped,
      serverElu,
      serverCpuMs,
      seconds,
      rssMiB,
    };
  } finally {
    await worker.terminate();
  }
}

/** The bare baseline: a `ws` server that builds the same quote and sends it at once to each subscriber. */
async function startBaseline() {
  interface TBareClient {
    socket: WebSocket;
    quotes: Set<string>;
  }
  const clients = new Set<TBareClient>();
  const day = new Map<string, { open: number; high: number; low: number }>();
  const last = new Map<string, TQuote>();
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    path: '/ws/market',
    perMessageDeflate: false,
    maxPayload: 64 * 1024,
  });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  wss.on('connection', (socket) => {
    const client: TBareClient = { socket, quotes: new Set() };
    clients.add(client);
    socket.on('close', () => clients.delete(client));
    socket.on('error', () => socket.terminate());
    socket.send(JSON.stringify({ type: 'welcome', time: Date.now(), heartbeatMs: 15_000 }));
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { op?: string; symbols?: string[] };
      if (message.op !== 'subscribe' || !Array.isArray(message.symbols)) return;
      for (const s of message.symbols) client.quotes.add(s);
      const data = message.symbols.map((s) => last.get(s)).filter((q) => q !== undefined);
      socket.send(JSON.stringify({ type: 'snapshot', channel: 'quote', data }));
    });
  });
  const specs = new Map(instruments.map((i) => [i.symbol, i]));
  const onTick = (tick: TTick) => {
    const spec = specs.get(tick.symbol)!;
    const d = day.get(tick.symbol) ?? { open: tick.bid, high: tick.bid, low: tick.bid };
    d.high = Math.max(d.high, tick.bid);
    d.low = Math.min(d.low, tick.bid);
    day.set(tick.symbol, d);
    const quote: TQuote = {
      symbol: tick.symbol,
      bid: fromPoints(tick.bid, spec.digits),
      ask: fromPoints(tick.ask, spec.digits),
      spread: tick.ask - tick.bid,
      digits: spec.digits,
      time: tick.time,
      open: fromPoints(d.open, spec.digits),
      high: fromPoints(d.high, spec.digits),
      low: fromPoints(d.low, spec.digits),
      previousClose: fromPoints(d.open, spec.digits),
      change: fromPoints(tick.bid - d.open, spec.digits),
      changePercent: changePercent(d.open, tick.bid),
      status: 'open',
    };
    last.set(tick.symbol, quote);
    const text = JSON.stringify({ type: 'quote', data: quote });
    for (const client of clients) if (client.quotes.has(tick.symbol)) client.socket.send(text);
  };
  // Snapshots need a quote per symbol before the clients subscribe.
  for (const spec of instruments) {
    const bid = Math.round(spec.referencePrice * 10 ** spec.digits);
    onTick({ symbol: spec.symbol, time: Date.now(), bid, ask: bid + spec.spreadPoints });
  }
  const port = (wss.address() as { port: number }).port;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const client of clients) client.socket.terminate();
      wss.close(() => resolve());
    });
  return { url: `ws://127.0.0.1:${port}/ws/market`, onTick, close };
}

const rows: TRow[] = [];
const idealPerTick = CLIENTS * SYMBOLS_PER_CLIENT * TICKS_PER_SYMBOL;
const idealCoalesced = CLIENTS * SYMBOLS_PER_CLIENT * Math.min(TICKS_PER_SYMBOL, 10);

const config = loadConfig({
  NODE_ENV: 'production',
  FEED: 'off',
  DATABASE_URL: 'memory://',
  LOG_LEVEL: 'silent',
  ADMIN_PASSWORD: 'Bench-Admin-Password-1',
  DATA_DIR: '.tmp/bench-stream',
  // A free port for the built-in mail catcher, so a running dev server on the default does not clash.
  MAIL_CATCHER_PORT: '0',
});
const app = await buildApp(config);
await app.app.listen({ port: 0, host: '127.0.0.1' });
const appPort = (app.app.server.address() as { port: number }).port;
const market = app.services.market;
const filteredBefore = market.filteredCount;
try {
  rows.push(
    await measure(
      'app /ws/market (MarketService + MarketStream, 100 ms coalescing)',
      idealCoalesced,
      `ws://127.0.0.1:${appPort}/ws/market`,
      (tick) => market.onTick(tick),
    ),
  );
} finally {
  await app.close();
}
const filtered = market.filteredCount - filteredBefore;

const baseline = await startBaseline();
try {
  rows.push(
    await measure(
      'bare `ws` broadcast, one message per tick (baseline)',
      idealPerTick,
      baseline.url,
      baseline.onTick,
    ),
  );
} finally {
  await baseline.close();
}

console.log(
  `\nMarket stream benchmark — ${new Date().toISOString()} — ${cpus()[0]?.model} x${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average at start ${loadAtStart.toFixed(2)}`,
);
console.log(
  `${CLIENTS} clients × ${SYMBOLS_PER_CLIENT} symbols (quote channel) over ${symbols.length} symbols; ` +
    `${symbols.length} × ${TICKS_PER_SYMBOL} = ${tickRate} ticks/s; ${WARMUP_SECONDS} s warm-up, ${SECONDS} s window. ` +
    `Servers in the main thread, clients in one worker thread of the same process: all share the ${cpus().length} cores.\n`,
);
console.log(
  '| case | ticks/s in | quotes/s delivered | of ideal | WS messages/s | MB/s | latency p50 ms | p99 ms | max ms | server thread busy / on CPU | server CPU µs per tick | client thread busy / on CPU | client CPU µs per quote | clients open | RSS MiB |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
const pct = (value: number) => `${Math.round(value * 100)} %`;
for (const row of rows) {
  const s = row.stats;
  const quotesPerSecond = s.quotes / row.seconds;
  const ticks = row.ticksPerSecond * row.seconds;
  const cells = [
    row.name,
    Math.round(row.ticksPerSecond),
    Math.round(quotesPerSecond),
    pct(quotesPerSecond / row.ideal),
    Math.round(s.messages / row.seconds),
    (s.bytes / row.seconds / 1e6).toFixed(1),
    s.latencyP50,
    s.latencyP99,
    Math.round(s.latencyMax),
    `${pct(row.serverElu)} / ${pct(row.serverCpuMs / 1000 / row.seconds)}`,
    Math.round((row.serverCpuMs * 1000) / ticks),
    `${pct(s.elu)} / ${pct(s.cpuMs / 1000 / row.seconds)}`,
    ((s.cpuMs * 1000) / s.quotes).toFixed(1),
    `${s.open}/${row.ready.connected}`,
    row.rssMiB,
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
console.log(
  `\nIdeal: coalesced ${idealCoalesced} quotes/s (≤ 10 per stream per second), one per tick ${idealPerTick} quotes/s. ` +
    `Connect time: ${rows.map((r) => `${r.ready.connectMs} ms (${r.ready.failed} failed)`).join(', ')}. ` +
    `Ticks skipped (tick source behind by > 100 ms): ${rows.map((r) => r.skipped).join(', ')}. Off-market filter drops in the app: ${filtered}.`,
);

/**
 * The HTTP load generator of bench/trading.ts, run in a worker thread so that clients do not share
 * the server's thread (they are other machines in production). Each of `concurrency` keep-alive
 * connections sends one signed market order at a time over a plain socket (HTTP/1.1, as autocannon
 * does): `fetch` spent more CPU per request than the server, and both share the machine's 2 cores.
 * Every answer is parsed and counted only when it says `success: true`. Posts back throughput and
 * latency.
 */
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { Trader } from '../apps/server/test/trader';

/** What bench/trading.ts hands this worker. */
export interface TLoadData {
  baseUrl: string;
  /** Where to send the orders, when not to baseUrl (the bare-route ceiling); the token comes from baseUrl. */
  targetUrl?: string;
  cookies: [string, string][];
  userId: string;
  cipherKey: string;
  accounts: number[];
  seconds: number;
  concurrency: number;
}

/** What this worker posts back after the window. */
export interface TLoadResult {
  latencies: number[];
  errors: number;
  elapsed: number;
  /** The event loop's busy share over the window. */
  busy: number;
  /** This thread's CPU time (user + system) over the window, µs. */
  cpuUs: number;
}

const { baseUrl, targetUrl, cookies, userId, cipherKey, accounts, seconds, concurrency } =
  workerData as TLoadData;

const trader = new Trader(baseUrl);
trader.api.cookies = new Map(cookies);
trader.userId = userId;
trader.cipherKey = cipherKey;
await trader.renewTradeToken();
const url = new URL(targetUrl ?? baseUrl);
const headers = {
  ...trader.headers,
  cookie: trader.api.cookieHeader(),
  'content-type': 'application/json',
};
const fixedHeaders = Object.entries(headers)
  .map(([k, v]) => `${k}: ${v}\r\n`)
  .join('');

/** One signed order request, exactly as the portal sends it. */
function request(accountId: number, side: 'buy' | 'sell') {
  const order = { symbol: 'ETHUSDT', side, volume: '0.01' };
  const body = JSON.stringify({
    account_id: accountId,
    type: 'market',
    idempotencyKey: randomUUID(),
    ...order,
    ...trader.sign({ volume: order.volume, side, accountId, leverage: 100, symbol: order.symbol }),
  });
  return `POST /api/v1/order/send HTTP/1.1\r\nhost: ${url.host}\r\n${fixedHeaders}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Reads HTTP/1.1 responses with a content-length off one socket, one at a time. */
function reader(socket: Socket) {
  let buffer: Buffer = Buffer.alloc(0);
  let waiting: ((body: string) => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const headEnd = buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = buffer.subarray(0, headEnd).toString('latin1');
    const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? Number.NaN);
    if (!Number.isFinite(length)) throw new Error(`no content-length in ${head}`);
    if (buffer.length < headEnd + 4 + length) return;
    const body = buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    buffer = buffer.subarray(headEnd + 4 + length);
    const resolve = waiting;
    waiting = null;
    resolve?.(body);
  });
  return (text: string) =>
    new Promise<string>((resolve) => {
      waiting = resolve;
      socket.write(text);
    });
}

const latencies: number[] = [];
let errors = 0;
const sockets = await Promise.all(
  Array.from(
    { length: concurrency },
    () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
        socket.setNoDelay(true);
        socket.once('error', reject);
      }),
  ),
);
// Every request is built and signed before the window opens, as autocannon builds its requests
// ahead: a client's own CPU is another machine's in production, and here it would share the
// server's 2 cores (and OpenSSL's locks, in this process) inside the measured window. Nonces stay
// unique, and fresh while the window lasts up to 45 s (the server accepts a nonce for 60 s, and a
// request waits at most the window plus the signing time): longer windows, and a queue that runs
// dry, sign on the fly.
const AHEAD_PER_SECOND = 8_000;
const AHEAD_SECONDS = seconds <= 45 ? seconds : 0;
/** The next order of one connection: its account, buying on even connections, selling on odd. */
const next = (worker: number) =>
  request(accounts[worker % accounts.length] as number, worker % 2 === 0 ? 'buy' : 'sell');
const ahead = sockets.map((_, worker) =>
  Array.from({ length: Math.ceil((AHEAD_PER_SECOND * AHEAD_SECONDS) / concurrency) }, () => next(worker)),
);
parentPort?.postMessage('start');
const elu0 = performance.eventLoopUtilization();
const cpu0 = process.threadCpuUsage();
const started = performance.now();
const end = started + seconds * 1000;
await Promise.all(
  sockets.map(async (socket, worker) => {
    const send = reader(socket);
    while (performance.now() < end) {
      const text = ahead[worker]?.pop() ?? next(worker);
      const t0 = performance.now();
      const answer = JSON.parse(await send(text)) as { success?: boolean };
      if (answer.success === true) latencies.push(performance.now() - t0);
      else errors++;
    }
    socket.end();
  }),
);
const cpu = process.threadCpuUsage(cpu0);
parentPort?.postMessage({
  latencies,
  errors,
  elapsed: (performance.now() - started) / 1000,
  busy: performance.eventLoopUtilization(elu0).utilization,
  cpuUs: cpu.user + cpu.system,
} satisfies TLoadResult);

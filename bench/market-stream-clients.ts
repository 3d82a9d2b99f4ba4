/**
 * Worker thread of bench/market-stream.ts: opens the WebSocket clients, subscribes each to its
 * symbols, and between `start` and `stop` counts the quotes it parses (also inside `batch`
 * messages) and their tick-to-client latency (Date.now() at parse minus the quote's `time`).
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

export interface TClientsInput {
  url: string;
  clients: number;
  symbolsPerClient: number;
  symbols: string[];
  connectBatch: number;
  connectTimeoutMs: number;
}

export type TClientsCommand = { type: 'start' } | { type: 'stop' } | { type: 'close' };

export interface TClientsStats {
  quotes: number;
  messages: number;
  bytes: number;
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  elu: number;
  /** CPU time of the clients' thread in the window, ms. */
  cpuMs: number;
  open: number;
  errors: number;
}

export type TClientsReport =
  | { type: 'ready'; connected: number; failed: number; connectMs: number }
  | { type: 'stats'; stats: TClientsStats }
  | { type: 'closed' };

const input = workerData as TClientsInput;
const port = parentPort!;
/** 1 ms buckets up to 60 s, then one overflow bucket. */
const MAX_MS = 60_000;
const histogram = new Uint32Array(MAX_MS + 2);
let measuring = false;
let quotes = 0;
let messages = 0;
let bytes = 0;
let latencyMax = 0;
let errors = 0;
let eluStart = performance.eventLoopUtilization();
let cpuStart = process.threadCpuUsage();
const sockets: WebSocket[] = [];

function record(time: unknown, now: number) {
  if (typeof time !== 'number') return;
  const ms = Math.max(0, now - time);
  histogram[Math.min(Math.floor(ms), MAX_MS + 1)]!++;
  if (ms > latencyMax) latencyMax = ms;
  quotes++;
}

function onMessage(data: WebSocket.RawData) {
  const text = data.toString();
  const message = JSON.parse(text) as { type: string; data?: unknown };
  const now = Date.now();
  if (!measuring) return message;
  messages++;
  bytes += text.length;
  if (message.type === 'quote') record((message.data as { time?: unknown }).time, now);
  else if (message.type === 'batch' && Array.isArray(message.data)) {
    for (const item of message.data as { type: string; data: { time?: unknown } }[])
      if (item.type === 'quote') record(item.data.time, now);
  }
  return message;
}

function percentile(p: number): number {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * total);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i]!;
    if (seen >= rank) return i;
  }
  return MAX_MS + 1;
}

function connect(index: number): Promise<boolean> {
  // Consecutive symbols from a start that moves by one per client: each symbol has about the same number of subscribers.
  const start = index % input.symbols.length;
  const symbols = Array.from(
    { length: input.symbolsPerClient },
    (_, j) => input.symbols[(start + j) % input.symbols.length]!,
  );
  return new Promise((resolve) => {
    const socket = new WebSocket(input.url, { perMessageDeflate: false });
    const timer = setTimeout(() => {
      socket.terminate();
      resolve(false);
    }, input.connectTimeoutMs);
    socket.on('error', () => {
      errors++;
      clearTimeout(timer);
      resolve(false);
    });
    socket.on('open', () => {
      socket.send(JSON.stringify({ op: 'subscribe', channel: 'quote', symbols }));
    });
    socket.on('message', (data) => {
      const message = onMessage(data);
      if (message.type === 'snapshot') {
        clearTimeout(timer);
        resolve(true);
      }
    });
    sockets.push(socket);
  });
}

async function open() {
  const t0 = performance.now();
  let connected = 0;
  for (let i = 0; i < input.clients; i += input.connectBatch) {
    const batch = [];
    for (let j = i; j < Math.min(i + input.connectBatch, input.clients); j++) batch.push(connect(j));
    connected += (await Promise.all(batch)).filter(Boolean).length;
  }
  const report: TClientsReport = {
    type: 'ready',
    connected,
    failed: input.clients - connected,
    connectMs: Math.round(performance.now() - t0),
  };
  port.postMessage(report);
}

async function close() {
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) return resolve();
          const timer = setTimeout(() => {
            socket.terminate();
            resolve();
          }, 2_000);
          socket.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.close();
        }),
    ),
  );
  const report: TClientsReport = { type: 'closed' };
  port.postMessage(report);
}

port.on('message', (command: TClientsCommand) => {
  if (command.type === 'start') {
    histogram.fill(0);
    quotes = 0;
    messages = 0;
    bytes = 0;
    latencyMax = 0;
    eluStart = performance.eventLoopUtilization();
    cpuStart = process.threadCpuUsage();
    measuring = true;
  } else if (command.type === 'stop') {
    measuring = false;
    const cpu = process.threadCpuUsage(cpuStart);
    const report: TClientsReport = {
      type: 'stats',
      stats: {
        quotes,
        messages,
        bytes,
        latencyP50: percentile(50),
        latencyP99: percentile(99),
        latencyMax,
        elu: performance.eventLoopUtilization(eluStart).utilization,
        cpuMs: (cpu.user + cpu.system) / 1000,
        open: sockets.filter((s) => s.readyState === WebSocket.OPEN).length,
        errors,
      },
    };
    port.postMessage(report);
  } else void close();
});

void open();

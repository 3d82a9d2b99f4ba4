/**
 * The HTTP load generator of bench/trading.ts, run in a worker thread so that clients do not share
 * the server's thread (they are other machines in production). Posts back throughput and latency.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Trader } from '../apps/server/test/trader';

const { baseUrl, cookies, userId, cipherKey, accounts, seconds, concurrency } = workerData as {
  baseUrl: string;
  cookies: [string, string][];
  userId: string;
  cipherKey: string;
  accounts: number[];
  seconds: number;
  concurrency: number;
};

const trader = new Trader(baseUrl);
trader.api.cookies = new Map(cookies);
trader.userId = userId;
trader.cipherKey = cipherKey;
await trader.renewTradeToken();

const latencies: number[] = [];
let errors = 0;
const started = performance.now();
const end = started + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async (_, worker) => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const answer = await trader.send(accounts[worker % accounts.length] as number, {
        symbol: 'ETHUSDT',
        side: worker % 2 === 0 ? 'buy' : 'sell',
        volume: '0.01',
      });
      if (answer.body.success) latencies.push(performance.now() - t0);
      else errors++;
    }
  }),
);
parentPort?.postMessage({ latencies, errors, elapsed: (performance.now() - started) / 1000 });

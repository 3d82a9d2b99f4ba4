/**
 * Account stream latency: `node --import tsx bench/account-stream.ts`.
 *
 * The real app (`buildApp`, simulated feed on, PGlite on disk, as `npm start` runs it) and one
 * signed-in trader subscribed to a demo account over /ws/account. Two series of BENCH_ORDERS (default
 * 100) signed 0.01-lot BTCUSDT market orders through HTTP: paced (one every BENCH_GAP_MS, default 300,
 * a fast trader) and back to back (the next order as soon as the last was pushed, which meets the
 * stream's 100 ms coalescing). For each order, the time from the HTTP answer to the first
 * account-stream message whose positions hold the new ticket (negative: the push came first), and
 * from sending to each. Server and client share the machine's cores.
 *
 * Environment: BENCH_ORDERS, BENCH_GAP_MS, DATABASE_URL (a PostgreSQL server instead of embedded PGlite).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { seed } from '../apps/server/src/seed';
import { freshDatabaseUrl } from '../apps/server/test/helpers';
import { Trader } from '../apps/server/test/trader';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 300);

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    min: round(sorted[0] ?? 0),
    max: round(sorted.at(-1) ?? 0),
  };
};

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-account-stream-'));
  const database = process.env.DATABASE_URL?.startsWith('postgres') ? await freshDatabaseUrl() : null;
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    ADMIN_PASSWORD: 'Bench-Admin-Password-1',
    MAIL_CATCHER_PORT: '0',
    OIDC_SANDBOX_PORT: 'off',
  });
  const app = await buildApp(config);
  try {
    await seed(config, app.services.database, app.services);
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.app.server.address() as { port: number }).port}`;
    const trader = await Trader.signIn(baseUrl);
    let accountId = await trader.createAccount(1, 2, 100);

    const messages: { at: number; raw: string }[] = [];
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/ws/account`, {
      headers: { cookie: trader.api.cookieHeader(), origin: baseUrl },
    });
    socket.on('message', (data) => messages.push({ at: performance.now(), raw: data.toString() }));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ op: 'subscribe', account_id: accountId }));
    // The simulated feed prices BTCUSDT within a moment of the start.
    for (let i = 0; i < 100 && !app.services.market.quote('BTCUSDT'); i++)
      await new Promise((r) => setTimeout(r, 100));

    const series = async (gapMs: number) => {
      const ackToPush: number[] = [];
      const sendToAck: number[] = [];
      const sendToPush: number[] = [];
      let pushedFirst = 0;
      let snapshotBytes = 0;
      const messagesBefore = messages.length;
      for (let i = 0; i < ORDERS; i++) {
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        const from = messages.length;
        const sentAt = performance.now();
        const answer = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
        const ackAt = performance.now();
        if (!answer.body.success) throw new Error(`order refused: ${answer.body.message}`);
        const needle = `"order_id":${answer.body.data.ticket},`;
        let push: { at: number; raw: string } | undefined;
        for (let wait = 0; wait < 200 && !push; wait++) {
          push = messages
            .slice(from)
            .find((m) => m.raw.startsWith('{"type":"account"') && m.raw.includes(needle));
          if (!push) await new Promise((r) => setTimeout(r, 5));
        }
        if (!push) throw new Error(`no push for order ${answer.body.data.ticket}`);
        ackToPush.push(push.at - ackAt);
        sendToAck.push(ackAt - sentAt);
        sendToPush.push(push.at - sentAt);
        if (push.at < ackAt) pushedFirst++;
        snapshotBytes = push.raw.length;
      }
      return {
        gapMs,
        ackToPushMs: summary(ackToPush),
        sendToAckMs: summary(sendToAck),
        sendToPushMs: summary(sendToPush),
        pushedBeforeAck: pushedFirst,
        lastSnapshotBytes: snapshotBytes,
        messages: messages.length - messagesBefore,
      };
    };
    const paced = await series(GAP_MS);
    // A fresh account, so both series start from an empty book.
    socket.send(JSON.stringify({ op: 'unsubscribe', account_id: accountId }));
    accountId = await trader.createAccount(1, 2, 100);
    socket.send(JSON.stringify({ op: 'subscribe', account_id: accountId }));
    await new Promise((r) => setTimeout(r, 200));
    const backToBack = await series(0);
    socket.close();
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          machine,
          database: database ? 'postgresql' : 'pglite (on disk)',
          orders: ORDERS,
          paced,
          backToBack,
        },
        null,
        2,
      ),
    );
  } finally {
    await app.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

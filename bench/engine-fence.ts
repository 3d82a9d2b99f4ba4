/**
 * What the engine's fence costs a group commit (ADR 013): the same group of market orders written
 * with `select 1` (unfenced) and with `select engine_fence($epoch)` (fenced), alternating group by
 * group on one database so that the load of the machine weighs on both alike. Embedded PGlite on
 * disk, and the PostgreSQL server when DATABASE_URL names one.
 *
 * `node --import tsx bench/engine-fence.ts` (FENCE_ROUNDS, default 1500; FENCE_GROUP, orders per
 * group, default 16: the HTTP order benchmark's average group).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TAccountRow } from '@broker/domain/trading/engine-core';
import { openDatabase, type TDatabase } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { persistBatch, type TBatchItem } from '../apps/server/src/modules/trading/persistence';
import { freshDatabaseUrl } from '../apps/server/test/helpers';

const ROUNDS = Number(process.env.FENCE_ROUNDS ?? 1500);
const GROUP = Number(process.env.FENCE_GROUP ?? 16);
const ACCOUNT = 77_000_001;

const account: TAccountRow = {
  accountId: ACCOUNT,
  accountType: 1,
  tradeType: 2,
  currency: 'USD',
  leverage: 100,
  balance: 10_000_000,
  followEquity: 0,
  strategyEquity: 0,
  initMoney: 10_000_000,
  totalInAmount: 0,
  totalOutAmount: 0,
  marginCallBp: 10_000,
  stopOutBp: 5_000,
  marginCall: false,
  negativeBalanceProtection: true,
  restrictions: {
    noOpen: false,
    noClose: false,
    noTakeProfit: false,
    noStopLoss: false,
    noWithdrawal: false,
  },
  closed: false,
  profile: null,
};

let nextId = 1_000;
/** One market order as the engine writes it: its position, its finished order, its idempotency row. */
function marketOrder(): TBatchItem {
  const id = nextId++;
  const time = 1_763_900_000_000 + id;
  return {
    events: [],
    states: new Map([
      [
        ACCOUNT,
        {
          row: account,
          positions: new Map([
            [
              id,
              {
                positionId: id,
                accountId: ACCOUNT,
                symbol: 'ETHUSDT',
                side: 'buy' as const,
                volume: 1,
                openPrice: 342_365,
                openTime: time,
                takeProfit: null,
                stopLoss: null,
                margin: 342,
                swap: 0,
                commission: 0,
                parentTicket: null,
                strategyId: null,
              },
            ],
          ]),
          orders: new Map(),
        },
      ],
    ]),
    deals: [],
    finished: [
      {
        id,
        account_id: ACCOUNT,
        symbol: 'ETHUSDT',
        order_type: 'buy',
        volume: 1,
        price: 342_365,
        limit_price: null,
        take_profit: null,
        stop_loss: null,
        placed_time: time,
        done_time: time,
        status: 'filled',
        cancel_reason: null,
        position_id: id,
        fill_price: 342_365,
      },
    ],
    ledger: [],
    idempotency: { key: `${ACCOUNT}:bench-${id}`, fingerprint: 'f', result: { ok: true, ticket: id } },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return {
    meanMs: r(mean),
    p50ms: r(percentile(sorted, 50)),
    p90ms: r(percentile(sorted, 90)),
    p99ms: r(percentile(sorted, 99)),
  };
};

async function run(kind: 'pglite' | 'postgresql') {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-fence-'));
  const target = kind === 'postgresql' ? await freshDatabaseUrl() : null;
  const database: TDatabase = await openDatabase({ url: target?.url, dataDir });
  try {
    await migrate(database);
    await database.exec(`insert into tenants (id, slug, name) values ('tb', 'tb', 'B');
      insert into users (id, tenant_id, email, password_hash, display_name)
        values ('ub', 'tb', 'b@example.com', 'x', 'B');
      update engine_epoch set epoch = 1 where id = 1;`);
    const written = new Map<number, string>();
    await persistBatch(
      database,
      [{ ...marketOrder(), owner: { accountId: ACCOUNT, tenantId: 'tb', userId: 'ub' } }],
      written,
    );
    const times = { unfenced: [] as number[], fenced: [] as number[] };
    const commit = async (fenced: boolean) => {
      const group = Array.from({ length: GROUP }, marketOrder);
      const t0 = performance.now();
      await persistBatch(database, group, written, fenced ? 1 : undefined);
      (fenced ? times.fenced : times.unfenced).push(performance.now() - t0);
    };
    for (let i = 0; i < 50; i++) await commit(i % 2 === 0); // warm-up: prepare both shapes
    times.unfenced.length = 0;
    times.fenced.length = 0;
    for (let i = 0; i < ROUNDS; i++) {
      // Each round writes one group of each kind, the first one alternating.
      await commit(i % 2 === 0);
      await commit(i % 2 !== 0);
    }
    const unfenced = summary(times.unfenced);
    const fenced = summary(times.fenced);
    console.log(
      JSON.stringify({
        database: kind,
        rounds: ROUNDS,
        ordersPerGroup: GROUP,
        unfenced,
        fenced,
        extraMeanMs: Math.round((fenced.meanMs - unfenced.meanMs) * 1000) / 1000,
        extraMeanPct: Math.round(((fenced.meanMs - unfenced.meanMs) / unfenced.meanMs) * 1000) / 10,
      }),
    );
  } finally {
    await database.close();
    await target?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`Engine fence benchmark — ${new Date().toISOString()}`);
await run('pglite');
if (process.env.DATABASE_URL?.startsWith('postgres')) await run('postgresql');

/**
 * What trailing stops cost the group commit (issue 21, item 15). A trending market moves the
 * stop-loss of every trailing position on most ticks; a group commit holds the ticks that arrived
 * while the previous one was written. Compared, group by group on one database, alternating:
 *
 * - `trails`: the ticks' moves as the engine host writes them (`TBatchItem.trails`): the latest
 *   stop-loss of each moved position, one `update positions set stop_loss` of (id, stop_loss) pairs;
 * - `rows`: the same moves written as full position rows (what a `position_modified` per move would
 *   write: the position upsert of every column), still one row per position per group.
 *
 * `node --import tsx bench/trailing-commit.ts` (TRAIL_ROUNDS, default 400; TRAIL_POSITIONS, trailing
 * positions moved by each tick, default 200; TRAIL_TICKS, ticks per group, default 16). Embedded
 * PGlite on disk, and the PostgreSQL server when DATABASE_URL names one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TAccountRow, TPositionRow } from '@broker/domain/trading/engine-core';
import { openDatabase, type TDatabase } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { persistBatch, type TBatchItem } from '../apps/server/src/modules/trading/persistence';
import { freshDatabaseUrl } from '../apps/server/test/helpers';

const ROUNDS = Number(process.env.TRAIL_ROUNDS ?? 400);
const POSITIONS = Number(process.env.TRAIL_POSITIONS ?? 200);
const TICKS = Number(process.env.TRAIL_TICKS ?? 16);
const ACCOUNT = 78_000_001;
const FIRST = 5_000;

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

const position = (id: number, stopLoss: number | null): TPositionRow => ({
  positionId: id,
  accountId: ACCOUNT,
  symbol: 'BTCUSDT',
  side: 'buy',
  volume: 1,
  openPrice: 6_700_000,
  openTime: 1_763_900_000_000,
  takeProfit: null,
  stopLoss,
  trailingStop: 20_000,
  margin: 670,
  swap: 0,
  commission: 0,
  parentTicket: null,
  strategyId: null,
});

const empty = (): TBatchItem => ({ events: [], states: new Map(), deals: [], finished: [], ledger: [] });

/** One group of ticks, each moving every position's stop-loss one step further. */
function group(kind: 'trails' | 'rows', level: number): TBatchItem[] {
  return Array.from({ length: TICKS }, (_, tick) => {
    const stop = level + tick;
    if (kind === 'trails')
      return {
        ...empty(),
        trails: Array.from({ length: POSITIONS }, (_, i) => [FIRST + i, stop] as [number, number]),
      };
    return {
      ...empty(),
      states: new Map([
        [
          ACCOUNT,
          {
            row: account,
            positions: new Map(
              Array.from({ length: POSITIONS }, (_, i) => [FIRST + i, position(FIRST + i, stop)]),
            ),
            orders: new Map(),
          },
        ],
      ]),
    };
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return {
    meanMs: r(times.reduce((a, b) => a + b, 0) / times.length),
    p50ms: r(percentile(sorted, 50)),
    p99ms: r(percentile(sorted, 99)),
  };
};

async function run(kind: 'pglite' | 'postgresql') {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-trail-'));
  const target = kind === 'postgresql' ? await freshDatabaseUrl() : null;
  const database: TDatabase = await openDatabase({ url: target?.url, dataDir });
  try {
    await migrate(database);
    await database.exec(`insert into tenants (id, slug, name) values ('tt', 'tt', 'T');
      insert into users (id, tenant_id, email, password_hash, display_name)
        values ('ut', 'tt', 't@example.com', 'x', 'T');`);
    const written = new Map<number, string>();
    const opening = group('rows', 6_600_000).slice(0, 1);
    await persistBatch(
      database,
      [{ ...opening[0]!, owner: { accountId: ACCOUNT, tenantId: 'tt', userId: 'ut' } }],
      written,
    );
    const times = { trails: [] as number[], rows: [] as number[] };
    let level = 6_600_100;
    const commit = async (how: 'trails' | 'rows') => {
      const items = group(how, level);
      level += TICKS;
      const t0 = performance.now();
      await persistBatch(database, items, written);
      times[how].push(performance.now() - t0);
    };
    for (let i = 0; i < 30; i++) await commit(i % 2 === 0 ? 'trails' : 'rows');
    times.trails.length = 0;
    times.rows.length = 0;
    for (let i = 0; i < ROUNDS; i++) {
      await commit(i % 2 === 0 ? 'trails' : 'rows');
      await commit(i % 2 === 0 ? 'rows' : 'trails');
    }
    const { rows } = await database.db
      .selectFrom('positions')
      .select(({ fn }) => fn.max('stop_loss').as('top'))
      .execute()
      .then((r) => ({ rows: r }));
    const trails = summary(times.trails);
    const full = summary(times.rows);
    console.log(
      JSON.stringify({
        database: kind,
        rounds: ROUNDS,
        ticksPerGroup: TICKS,
        trailingPositions: POSITIONS,
        movesPerGroup: TICKS * POSITIONS,
        rowsWrittenPerGroup: POSITIONS,
        trails,
        fullRows: full,
        savedMeanPct: Math.round(((full.meanMs - trails.meanMs) / full.meanMs) * 1000) / 10,
        lastStopLoss: Number(rows[0]?.top),
        expected: level - 1,
      }),
    );
  } finally {
    await database.close();
    await target?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`Trailing stop commit benchmark — ${new Date().toISOString()}`);
await run('pglite');
if (process.env.DATABASE_URL?.startsWith('postgres')) await run('postgresql');

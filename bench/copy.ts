/**
 * Copy-trading benchmark (issue 18), one command: `npm run bench:copy`.
 *
 * On embedded PGlite (in memory), or on the PostgreSQL server DATABASE_URL names, through the real
 * app (`buildApp`) and its use cases:
 * 1. One leader with 1,000 followers (copy accounts funded by transfer_follow_out, the four modes
 *    in turn). The leader's market order through the order use case (`placeOrder`, a system actor
 *    acting for the leader): the time until it is answered, which is when the leader's position and
 *    all 1,000 follower positions are committed (one engine step, one group commit). Then the
 *    leader's close with the 1,000 copies closing with reason 4. ROUNDS of each; every round checks
 *    in the database that 1,000 copies (or none) are stored.
 * 2. Baseline in the same run on the same database: the same 1,000 follower orders placed one by
 *    one through the same order use case (each its own engine step and commit).
 * 3. The trading benchmark's tick (packages/domain/test/trading/bench-core.ts: 10,000 accounts,
 *    100,000 positions) without and with BENCH_COPIES=1000 (a leader with 1,000 followers and 5,000
 *    copies open), as child processes.
 *
 * Environment: BENCH_FOLLOWERS (default 1000), BENCH_ROUNDS (default 30), BENCH_ONLY=copy|ticks.
 */
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { systemActor } from '../apps/server/src/actor';
import { startCopy } from '../apps/server/src/modules/copy';
import { closePosition, openAccount, placeOrder } from '../apps/server/src/modules/trading';
import { pool, runTickBench, startBenchApp, stats } from './shared';

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const ONLY = process.env.BENCH_ONLY;

async function copyBench() {
  const app = await startBenchApp(process.env.DATABASE_URL || null);
  const { db, ports, tenant, actorOf } = app;
  const tick = (bid: number) => app.tick('BTCUSDT', bid * 100, bid * 100 + 2_500);
  tick(67_000);
  await new Promise((r) => setTimeout(r, 50));

  const userIds = await app.insertUsers(FOLLOWERS + 1);
  const leaderUser = userIds[0]!;
  const leader = (
    await openAccount(ports, {
      actor: actorOf(leaderUser),
      account_type: 1,
      trade_type: 2,
      leverage: 100,
      idempotencyKey: randomUUID(),
    })
  ).account_id;
  await db
    .insertInto('copy_leaders')
    .values({
      account_id: leader,
      tenant_id: tenant,
      user_id: leaderUser,
      status: 'approved',
      reason: null,
      fee_bp: 1_000,
      min_copy_amount: 0,
      positions_delay_minutes: 0,
      bio: 'bench',
      reviewed_at: new Date(),
      reviewed_by: 'bench',
    })
    .execute();

  const setupStart = performance.now();
  const modes = [
    { mode: 'fixed_lot', value: '0.01' },
    { mode: 'ratio', value: '0.1' },
    { mode: 'equity', value: '0' },
    { mode: 'fixed_margin', value: '200.00' },
  ] as const;
  const copies: { userId: string; copy: number }[] = [];
  await pool(
    userIds.slice(1).map((userId, i) => ({ userId, i })),
    16,
    async ({ userId, i }) => {
      const actor = actorOf(userId);
      const main = (
        await openAccount(ports, {
          actor,
          account_type: 1,
          trade_type: 2,
          leverage: 100,
          idempotencyKey: randomUUID(),
        })
      ).account_id;
      const copy = await startCopy(ports, {
        actor,
        account_id: main,
        leader_id: leader,
        ...modes[i % modes.length]!,
        amount: '10000.00',
        idempotencyKey: randomUUID(),
      });
      copies.push({ userId, copy: copy.copy_account_id });
    },
  );
  const setupSeconds = ((performance.now() - setupStart) / 1000).toFixed(1);
  const leaderActor = systemActor({ name: 'bench', tenantId: tenant, forUser: leaderUser });
  const storedCopies = async (ticket: number) =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from positions where parent_ticket = ${ticket}`.execute(
          db,
        )
      ).rows[0]?.n ?? 0,
    );

  // 1. the leader's order and close, each copied to every follower in the same step and commit
  const opens: number[] = [];
  const closes: number[] = [];
  let copiedPerRound = 0;
  for (let round = 0; round < ROUNDS; round++) {
    tick(67_000 + (round % 5) * 10);
    let t0 = performance.now();
    const { ticket } = await placeOrder(ports, {
      actor: leaderActor,
      account_id: leader,
      symbol: 'BTCUSDT',
      side: round % 2 === 0 ? 'buy' : 'sell',
      type: 'market',
      volume: '1.00',
      idempotencyKey: randomUUID(),
    });
    opens.push(performance.now() - t0);
    copiedPerRound = await storedCopies(ticket);
    if (copiedPerRound !== FOLLOWERS)
      throw new Error(`round ${round}: ${copiedPerRound} copies stored, not ${FOLLOWERS}`);
    t0 = performance.now();
    await closePosition(ports, {
      actor: leaderActor,
      account_id: leader,
      order_id: ticket,
      idempotencyKey: randomUUID(),
    });
    closes.push(performance.now() - t0);
    const left = await storedCopies(ticket);
    if (left !== 0) throw new Error(`round ${round}: ${left} copies left open`);
  }

  // 2. baseline: the same 1,000 follower orders one by one through the order use case
  const oneByOne: number[] = [];
  const tickets: { copy: number; ticket: number; userId: string }[] = [];
  const baselineStart = performance.now();
  for (const { userId, copy } of copies) {
    const t0 = performance.now();
    const { ticket } = await placeOrder(ports, {
      actor: systemActor({ name: 'bench', tenantId: tenant, forUser: userId }),
      account_id: copy,
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      volume: '0.01',
      idempotencyKey: randomUUID(),
    });
    oneByOne.push(performance.now() - t0);
    tickets.push({ copy, ticket, userId });
  }
  const baselineTotal = performance.now() - baselineStart;

  const kind = app.kind;
  const open = stats(opens);
  const close = stats(closes);
  const single = stats(oneByOne);
  console.log(
    `\nCopy-trading benchmark — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${kind}`,
  );
  console.log(
    `1 leader, ${FOLLOWERS} followers (four modes in turn; set up in ${setupSeconds} s), ${ROUNDS} rounds\n`,
  );
  console.log('| case | p50 ms | p99 ms | n | orders committed |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| leader's order → ${FOLLOWERS} copies committed | ${open.p50} | ${open.p99} | ${open.n} | ${copiedPerRound + 1} per round |`,
  );
  console.log(
    `| leader's close → ${FOLLOWERS} copies closed (reason 4) | ${close.p50} | ${close.p99} | ${close.n} | ${FOLLOWERS + 1} per round |`,
  );
  console.log(
    `| baseline: one follower order through placeOrder, one by one | ${single.p50} | ${single.p99} | ${single.n} | 1 each |`,
  );
  console.log(
    `\nThe same ${FOLLOWERS} orders one by one took ${baselineTotal.toFixed(0)} ms in all; copied by the engine, p50 ${open.p50} ms (${(baselineTotal / Number(open.p50)).toFixed(0)}× faster).`,
  );
  await app.close();
}

function tickBench() {
  const run = (copiesEnv: string) => runTickBench({ BENCH_COPIES: copiesEnv });
  console.log('\nTick of the trading core (bench-core.ts), without copies:');
  console.log(run('0'));
  console.log(
    `\nThe same with a leader of ${FOLLOWERS} followers and 5,000 copies open (BENCH_COPIES=${FOLLOWERS}):`,
  );
  console.log(run(String(FOLLOWERS)));
}

async function main() {
  if (ONLY !== 'ticks') await copyBench();
  if (ONLY !== 'copy') tickBench();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { CloseReason } from '@broker/domain/trading/orders';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { pushTick } from '../helpers';
import { fundedSubAccount, restartableServers, submitCommand } from '../restart';
import { Trader } from '../trader';

/**
 * Copy trading's engine side against the real server and database (PGlite on disk, or PostgreSQL
 * when DATABASE_URL names one): a leader's trades are copied in the leader's own engine step and
 * group commit, the links and relations are written with them, and a server started again on the
 * same database carries on with every link (closing by the leader closes the copies with reason 4).
 */
const servers = restartableServers('copy-engine');
const boot = () => servers.boot();
const fundedCopyAccount = (trader: Trader, main: number, amount: string) =>
  fundedSubAccount(trader, { main, purpose: 'copy', amount, key: String(main) });
const submit = submitCommand;

describe('copy engine on the server', () => {
  // Two full starts of the server on an on-disk database: slower than one test's usual budget.
  it('copies in the leader’s commit, survives a restart with every link, and closes copies with reason 4', {
    timeout: 120_000,
  }, async () => {
    let server = await boot();
    const tick = (bid: number) => pushTick(server, 'BTCUSDT', bid, bid + 25);
    tick(67_000);
    const leaderTrader = await Trader.signIn(server.baseUrl);
    const leader = await leaderTrader.createAccount(1, 2, 100);
    const alice = await Trader.signInStranger(server);
    const bob = await Trader.signInStranger(server);
    const aliceCopy = await fundedCopyAccount(alice, await alice.createAccount(1, 2, 100), '20000.00');
    const bobCopy = await fundedCopyAccount(bob, await bob.createAccount(1, 2, 100), '10000.00');

    // Alice copies 0.05 lot a trade; Bob copies in proportion to equity (10,000 against 100,000).
    await submit(server, 'follow-alice', {
      type: 'set_copy',
      accountId: aliceCopy,
      leaderAccountId: leader,
      mode: 'fixed_lot',
      modeValue: 5,
    });
    await submit(server, 'follow-bob', {
      type: 'set_copy',
      accountId: bobCopy,
      leaderAccountId: leader,
      mode: 'equity',
      modeValue: 0,
      maxPositions: 1,
    });

    // The leader's order through the portal's signed order route: its answer comes after the commit
    // that also holds the copies.
    const opened = await leaderTrader.send(leader, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '1.00',
      idempotencyKey: 'leader-open-1',
    });
    expect(opened.body.success, opened.body.message).toBe(true);
    const leaderTicket = opened.body.data.ticket as number;
    const core = () => server.app.services.engine.core;
    const linked = (account: number) =>
      core()
        .positionsOf(account)
        .map((p) => [p.volume, p.parentTicket]);
    expect(linked(aliceCopy)).toEqual([[5, leaderTicket]]);
    // 100 x 1,000,000 / (10,000,000 less the leader's spread of 25.00) = 10.002: 0.10 lot
    expect(linked(bobCopy)).toEqual([[10, leaderTicket]]);
    const db = server.app.services.database.db;
    const storedLinks = async () =>
      (
        await db
          .selectFrom('positions')
          .select(['account_id', 'parent_ticket', 'volume'])
          .orderBy('id')
          .execute()
      ).map((r) => [
        Number(r.account_id),
        r.parent_ticket === null ? null : Number(r.parent_ticket),
        r.volume,
      ]);
    expect(await storedLinks()).toEqual([
      [leader, null, 100],
      [aliceCopy, leaderTicket, 5],
      [bobCopy, leaderTicket, 10],
    ]);

    // Bob's one copy is his limit: the next leader trade is skipped for him, with the reason kept.
    tick(67_100);
    const second = await submit(server, 'leader-open-2', {
      type: 'open_market',
      accountId: leader,
      symbol: 'BTCUSDT',
      side: 'sell',
      volume: 50,
    });
    expect(second.events.filter((e) => e.type === 'position_opened')).toHaveLength(2);
    const skips = await db.selectFrom('copy_skips').select(['account_id', 'action', 'reason']).execute();
    expect(skips.map((s) => [Number(s.account_id), s.action, s.reason])).toEqual([
      [bobCopy, 'open', 'max_positions'],
    ]);

    // The leader closes 0.40 of its lot through the portal: each copy closes its share (reason 4) in
    // the same commit, and the leader's answer speaks of the leader's close alone.
    const partial = await leaderTrader.call('/api/v1/order/close', {
      account_id: leader,
      order_id: leaderTicket,
      volume: '0.40',
      idempotencyKey: 'leader-close-part',
    });
    expect(partial.body.success, partial.body.message).toBe(true);
    expect(partial.body.data.closed).toBe(1);
    expect(linked(aliceCopy)).toEqual([
      [3, leaderTicket],
      [5, second.ticket],
    ]);
    expect(linked(bobCopy)).toEqual([[6, leaderTicket]]);
    const repeated = await leaderTrader.call('/api/v1/order/close', {
      account_id: leader,
      order_id: leaderTicket,
      volume: '0.40',
      idempotencyKey: 'leader-close-part',
    });
    expect(repeated.body.data).toEqual(partial.body.data);
    const before = {
      alice: core().positionsOf(aliceCopy),
      bob: core().positionsOf(bobCopy),
      relations: [core().copyRelation(aliceCopy), core().copyRelation(bobCopy)],
    };
    expect(before.alice.map((p) => p.parentTicket)).toEqual([leaderTicket, second.ticket]);
    await server.app.services.engine.idle();
    await server.close();

    // ---- a new server on the same database
    server = await boot();
    tick(67_200);
    expect(
      core()
        .positionsOf(aliceCopy)
        .map(({ profit: _p, ...p }) => p),
    ).toEqual(before.alice.map(({ profit: _p, ...p }) => p));
    expect(
      core()
        .positionsOf(bobCopy)
        .map(({ profit: _p, ...p }) => p),
    ).toEqual(before.bob.map(({ profit: _p, ...p }) => p));
    expect([core().copyRelation(aliceCopy), core().copyRelation(bobCopy)]).toEqual(before.relations);
    expect(core().followersOf(leader)).toEqual([aliceCopy, bobCopy].sort((a, b) => a - b));
    expect(core().checkInvariants()).toEqual([]);

    // The leader's first order sent again under its key: its first answer, nothing copied twice.
    const again = await server.app.services.engine.submit({
      type: 'open_market',
      clientKey: 'leader-open-2',
      time: Date.now(),
      accountId: leader,
      symbol: 'BTCUSDT',
      side: 'sell',
      volume: 50,
    });
    expect(again).toMatchObject({ ok: true, ticket: second.ticket });
    expect(core().positionsOf(aliceCopy)).toHaveLength(2);

    // Bob stops keeping his copy: it becomes his own, unlinked in the database too.
    await submit(server, 'bob-stop', { type: 'stop_copy', accountId: bobCopy, closePositions: false });
    // The leader closes everything: Alice's copies close with reason 4, Bob's own position stays.
    await submit(server, 'leader-close-all', { type: 'close_all', accountId: leader });
    expect(core().positionsOf(aliceCopy)).toEqual([]);
    expect(
      core()
        .positionsOf(bobCopy)
        .map((p) => [p.volume, p.parentTicket]),
    ).toEqual([[6, null]]);
    const db2 = server.app.services.database.db;
    expect(
      (await db2.selectFrom('positions').select(['account_id', 'parent_ticket']).execute()).map((r) => [
        Number(r.account_id),
        r.parent_ticket,
      ]),
    ).toEqual([[bobCopy, null]]);
    const deals = await db2
      .selectFrom('deals')
      .select(['account_id', 'position_id', 'volume', 'reason', 'parent_ticket'])
      .orderBy('id')
      .execute();
    const dealRows = deals.map((d) => [
      Number(d.account_id),
      d.volume,
      d.reason,
      d.parent_ticket === null ? null : Number(d.parent_ticket),
    ]);
    expect(dealRows).toEqual([
      [leader, 40, CloseReason.MANUAL, null],
      [aliceCopy, 2, CloseReason.COPY_TRADE, leaderTicket],
      [bobCopy, 4, CloseReason.COPY_TRADE, leaderTicket],
      // close_all: the leader's two positions, then the copies of each in the same commit
      [leader, 60, CloseReason.MANUAL, null],
      [leader, 50, CloseReason.MANUAL, null],
      [aliceCopy, 3, CloseReason.COPY_TRADE, leaderTicket],
      [aliceCopy, 5, CloseReason.COPY_TRADE, second.ticket],
    ]);
    const relations = await db2
      .selectFrom('copy_relations')
      .select(['account_id', 'leader_account_id', 'mode', 'status', 'stop_reason'])
      .orderBy('account_id')
      .execute();
    expect(
      relations.map((r) => [
        Number(r.account_id),
        Number(r.leader_account_id),
        r.mode,
        r.status,
        r.stop_reason,
      ]),
    ).toEqual(
      [
        [aliceCopy, leader, 'fixed_lot', 'active', null],
        [bobCopy, leader, 'equity', 'stopped', 'client_keep'],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    // The copies' money is in the ledger like any trade's: every transaction sums to zero.
    const unbalanced =
      await sql`select tx_id from ledger_entries group by tx_id having sum(amount) <> 0`.execute(db2);
    expect(unbalanced.rows).toEqual([]);
    await server.close();
  });
});

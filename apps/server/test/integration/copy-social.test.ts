import { randomUUID } from 'node:crypto';
import { ADMIN_COPY_PATHS } from '@broker/contracts/admin/copy-paths';
import { COPY_PATHS } from '@broker/contracts/copy-paths';
import { CloseReason } from '@broker/domain/trading/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetLeaderStats, settlePeriod } from '../../src/modules/copy';
import { pushTick, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { StaffClient } from '../staff';
import { Trader } from '../trader';

/**
 * Copy trading through its routes (spec 7.8 `follow` family and the back office), on the real
 * server and database: applying to lead and the broker's review, following with two modes, the
 * leader's trades copied and closed with reason 4, fees above the high-water mark only, the copy
 * stop-loss, suspension, the parity report and the what-if, the spec 9 limits under parallel
 * requests, and stopping a copy with the money back.
 */
let server: TTestServer;
let admin: StaffClient<keyof typeof ADMIN_COPY_PATHS>;
/** A trader kept from the first case for read-only calls later (sign-ins are limited per address). */
let viewer: { t: Trader; account: number };
const engine = () => server.app.services.engine;
const ports = () => ({ host: engine(), db: server.app.services.database.db });

beforeAll(async () => {
  server = await startTestServer({ FEED: 'off' });
  admin = await new StaffClient(
    server.baseUrl,
    (name: keyof typeof ADMIN_COPY_PATHS) => ADMIN_COPY_PATHS[name],
  ).signIn('admin', TEST_ADMIN_PASSWORD);
  pushTick(server, 'BTCUSDT', 67_000, 67_050);
});
afterAll(() => server.close());

type TName = keyof typeof COPY_PATHS;
const call = (trader: Trader, name: TName, input: Record<string, unknown> = {}) =>
  trader.call(COPY_PATHS[name], input);
async function ok(trader: Trader, name: TName, input: Record<string, unknown> = {}) {
  const answer = await call(trader, name, input);
  expect(answer.body.success, `${name}: ${answer.body.message} ${JSON.stringify(answer.body.fields)}`).toBe(
    true,
  );
  return answer.body.data;
}
async function refused(trader: Trader, name: TName, input: Record<string, unknown>, code: number) {
  const answer = await call(trader, name, input);
  expect(answer.body.success, `${name} should be refused`).toBe(false);
  expect(answer.body.code, answer.body.message).toBe(code);
  return answer.body;
}
/**
 * Pushes a BTCUSDT quote (a 50.00 spread, so that the off-market filter lets moves of up to 25
 * spreads through) and waits until the engine prices with it.
 */
async function tick(bid: number) {
  pushTick(server, 'BTCUSDT', bid, bid + 50);
  await expect
    .poll(() => Math.abs((engine().core.quote('BTCUSDT')?.bid ?? 0) - bid * 100), { interval: 5 })
    .toBeLessThan(1_000);
}
const balance = (id: number) => engine().core.account(id)?.balance ?? Number.NaN;
const copiesOf = (id: number) =>
  engine()
    .core.positionsOf(id)
    .filter((p) => p.parentTicket !== null);

/** A new trader with a demo account, and (when asked) an approved leader on it. */
async function trader(lead?: { fee: string; min?: string }) {
  const t = await Trader.signInStranger(server);
  const account = await t.createAccount(1, 2, 100);
  if (lead) {
    const applied = await ok(t, 'followapply', {
      account_id: account,
      feePercent: lead.fee,
      minCopyAmount: lead.min ?? '0',
      positionsDelayMinutes: 0,
      bio: 'Trend follower',
    });
    if (applied.status === 'pending')
      await admin.data('admincopyreview', { leader_id: account, approve: true });
  }
  return { t, account };
}

const follow = (who: { t: Trader; account: number }, leaderId: number, extra: Record<string, unknown> = {}) =>
  ok(who.t, 'followstart', {
    account_id: who.account,
    leader_id: leaderId,
    mode: 'fixed_lot',
    value: '0.10',
    amount: '10000.00',
    idempotencyKey: randomUUID(),
    ...extra,
  });

describe('copy trading routes', { timeout: 60_000 }, () => {
  it('reviews a leader application: pending, a reason of at most 20 characters, rejected, applied again, approved', async () => {
    const leader = await trader();
    const applied = await ok(leader.t, 'followapply', {
      account_id: leader.account,
      feePercent: '10',
      minCopyAmount: '100',
      positionsDelayMinutes: 5,
      bio: 'Swing trades on BTC',
    });
    expect(applied).toMatchObject({ status: 'pending', feePercent: '10.00', minCopyAmount: '100.00' });
    await refused(
      leader.t,
      'followapply',
      { account_id: leader.account, feePercent: '10', minCopyAmount: '0', positionsDelayMinutes: 0, bio: '' },
      -5109,
    );
    await refused(
      leader.t,
      'followapply',
      { account_id: leader.account, feePercent: '31', minCopyAmount: '0', positionsDelayMinutes: 0, bio: '' },
      -9001,
    );
    // not yet a leader: nobody can follow it, and it is not listed
    const follower = await trader();
    viewer = follower;
    await refused(
      follower.t,
      'followstart',
      {
        account_id: follower.account,
        leader_id: leader.account,
        mode: 'equity',
        value: '0',
        amount: '500',
        idempotencyKey: randomUUID(),
      },
      -5108,
    );
    const listed = await ok(follower.t, 'followleaders', {});
    expect(listed.items.map((l: { leader_id: number }) => l.leader_id)).not.toContain(leader.account);

    const queue = await admin.data('admincopyleaders', { status: 'pending' });
    expect(queue.counts.pending).toBeGreaterThanOrEqual(1);
    expect(queue.items.map((l: { leader_id: number }) => l.leader_id)).toContain(leader.account);
    const long = await admin.call('admincopyreview', {
      leader_id: leader.account,
      approve: false,
      reason: 'x'.repeat(21),
    });
    expect(long.body.code).toBe(-9001);
    const rejected = await admin.data('admincopyreview', {
      leader_id: leader.account,
      approve: false,
      reason: 'Too few trades',
    });
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'Too few trades' });
    // one decision: a second one finds nothing pending
    expect(
      (await admin.call('admincopyreview', { leader_id: leader.account, approve: true })).body.code,
    ).toBe(-6011);

    await ok(leader.t, 'followapply', {
      account_id: leader.account,
      feePercent: '12.5',
      minCopyAmount: '100',
      positionsDelayMinutes: 0,
      bio: 'Again',
    });
    const approved = await admin.data('admincopyreview', { leader_id: leader.account, approve: true });
    expect(approved).toMatchObject({
      status: 'approved',
      feePercent: '12.50',
      reviewedBy: expect.any(String),
    });
    const profile = await ok(follower.t, 'followleader', { leader_id: leader.account });
    expect(profile).toMatchObject({
      leader_id: leader.account,
      feePercent: '12.50',
      bio: 'Again',
      followers: 0,
    });
    // below the leader's minimum, and following oneself, are refused
    await refused(
      follower.t,
      'followstart',
      {
        account_id: follower.account,
        leader_id: leader.account,
        mode: 'equity',
        value: '0',
        amount: '99.99',
        idempotencyKey: randomUUID(),
      },
      -5110,
    );
    await refused(
      leader.t,
      'followstart',
      {
        account_id: leader.account,
        leader_id: leader.account,
        mode: 'equity',
        value: '0',
        amount: '500',
        idempotencyKey: randomUUID(),
      },
      -5101,
    );
  });

  it('copies a leader into two followers with two modes, closes the copies with reason 4 and reports parity', async () => {
    await tick(67_000);
    const leader = await trader({ fee: '20' });
    const lots = await trader();
    const prop = await trader();
    const mainBefore = balance(lots.account);
    const key = randomUUID();
    const started = await follow(lots, leader.account, { idempotencyKey: key });
    // a retry of the same request answers the same copy and moves no money twice
    const again = await follow(lots, leader.account, { idempotencyKey: key });
    expect(again.copy_account_id).toBe(started.copy_account_id);
    expect(balance(lots.account)).toBe(mainBefore - 1_000_000);
    expect(started).toMatchObject({
      status: 'active',
      mode: 'fixed_lot',
      value: '0.10',
      allocated: '10000.00',
      feePercent: '20.00',
    });
    await refused(
      lots.t,
      'followstart',
      {
        account_id: lots.account,
        leader_id: leader.account,
        mode: 'equity',
        value: '0',
        amount: '100',
        idempotencyKey: randomUUID(),
      },
      -5106,
    );
    // more than the free margin of the main account: refused, and no empty copy account is left
    const poor = await trader();
    const accountsBefore = engine().accountsOf(
      engine().ownerOf(poor.account)!.tenantId,
      poor.t.userId,
    ).length;
    await refused(
      poor.t,
      'followstart',
      {
        account_id: poor.account,
        leader_id: leader.account,
        mode: 'equity',
        value: '0',
        amount: '200000.00',
        idempotencyKey: randomUUID(),
      },
      -4001,
    );
    const left = engine()
      .accountsOf(engine().ownerOf(poor.account)!.tenantId, poor.t.userId)
      .map((id) => engine().core.account(id)!)
      .filter((v) => v.purpose === 'copy' && !v.closed);
    expect(left).toEqual([]);
    expect(engine().accountsOf(engine().ownerOf(poor.account)!.tenantId, poor.t.userId).length).toBe(
      accountsBefore + 1,
    );
    // equity mode: 10,000 against the leader's 100,000 copies a tenth of its volume
    const propCopy = await follow(prop, leader.account, { mode: 'equity', value: '0' });
    const leaderInfo = await ok(leader.t, 'followleader', { leader_id: leader.account });
    expect(leaderInfo.followers).toBe(2);
    expect(leaderInfo.copiedAssets).toBe('20000.00');

    const opened = await leader.t.send(leader.account, { symbol: 'BTCUSDT', side: 'buy', volume: '1.00' });
    expect(opened.body.success, opened.body.message).toBe(true);
    const parent = engine().core.positionsOf(leader.account)[0]!;
    expect(copiesOf(started.copy_account_id).map((p) => [p.volume, p.parentTicket])).toEqual([
      [10, parent.positionId],
    ]);
    expect(copiesOf(propCopy.copy_account_id).map((p) => [p.volume, p.parentTicket])).toEqual([
      [10, parent.positionId],
    ]);

    await tick(67_500);
    const closed = await leader.t.call('/api/v1/order/close', {
      account_id: leader.account,
      order_id: parent.positionId,
      idempotencyKey: randomUUID(),
    });
    expect(closed.body.success, closed.body.message).toBe(true);
    expect(copiesOf(started.copy_account_id)).toEqual([]);
    const history = await lots.t.call('/api/v1/order/history', {
      account_id: started.copy_account_id,
      page: 1,
      size: 10,
    });
    expect(history.body.success, history.body.message).toBe(true);
    expect(history.body.data.items.map((d: { close_reason: number }) => d.close_reason)).toEqual([
      CloseReason.COPY_TRADE,
    ]);

    const parity = await ok(lots.t, 'followparity', { copy_account_id: started.copy_account_id });
    expect(parity.trades).toHaveLength(1);
    expect(parity.trades[0]).toMatchObject({
      leaderPositionId: parent.positionId,
      status: 'copied',
      leaderVolume: '1.00',
      followerVolume: '0.10',
      slippagePoints: 0,
    });
    expect(parity.summary).toMatchObject({ copied: 1, skipped: 0, fees: '0.00' });
    expect(Number(parity.summary.followerProfit)).toBeGreaterThan(0);

    const mine = await ok(lots.t, 'followmine', {});
    expect(mine.items.map((c: { copy_account_id: number }) => c.copy_account_id)).toEqual([
      started.copy_account_id,
    ]);
    expect(mine).toMatchObject({ followed: 1, limit: 10 });
  });

  it('charges the fee only above the high-water mark, weekly, from the copy account to the leader', async () => {
    await tick(67_000);
    const leader = await trader({ fee: '10' });
    const follower = await trader();
    const copy = await follow(follower, leader.account, { value: '1.00', amount: '20000.00' });
    const id = copy.copy_account_id;
    const round = async (from: number, to: number) => {
      await tick(from);
      const opened = await leader.t.send(leader.account, { symbol: 'BTCUSDT', side: 'buy', volume: '1.00' });
      expect(opened.body.success, opened.body.message).toBe(true);
      const parent = engine().core.positionsOf(leader.account)[0]!;
      await tick(to);
      const closed = await leader.t.call('/api/v1/order/close', {
        account_id: leader.account,
        order_id: parent.positionId,
        idempotencyKey: randomUUID(),
      });
      expect(closed.body.success, closed.body.message).toBe(true);
    };
    const profitOf = () => balance(id) - 2_000_000;
    await round(67_000, 67_400);
    const profit1 = profitOf();
    expect(profit1).toBeGreaterThan(0);
    const leaderBefore = balance(leader.account);
    await settlePeriod(ports(), Date.now() + 1);
    const fee1 = Math.floor((profit1 * 1_000) / 10_000);
    expect(balance(id)).toBe(2_000_000 + profit1 - fee1);
    expect(balance(leader.account)).toBe(leaderBefore + fee1);
    let view = await ok(follower.t, 'followmine', {});
    expect(view.items[0]).toMatchObject({
      feesPaid: (fee1 / 100).toFixed(2),
      highWaterMark: (profit1 / 100).toFixed(2),
    });

    // a loss, then a gain that stays below the mark: no fee
    await round(67_400, 67_100);
    await round(67_100, 67_300);
    const below = balance(id) - 2_000_000 + fee1;
    expect(below).toBeLessThan(profit1);
    const before2 = balance(id);
    await settlePeriod(ports(), Date.now() + 2);
    expect(balance(id)).toBe(before2);
    // above it again: the fee is on the part above the mark only
    await round(67_300, 67_800);
    const profit3 = balance(id) - 2_000_000 + fee1;
    await settlePeriod(ports(), Date.now() + 3);
    const fee3 = Math.floor(((profit3 - profit1) * 1_000) / 10_000);
    view = await ok(follower.t, 'followmine', {});
    expect(view.items[0]).toMatchObject({
      feesPaid: ((fee1 + fee3) / 100).toFixed(2),
      highWaterMark: (profit3 / 100).toFixed(2),
    });

    const dashboard = await ok(leader.t, 'followdashboard', {});
    expect(dashboard.settlements.map((s: { fee: string }) => s.fee)).toEqual([
      (fee3 / 100).toFixed(2),
      (fee1 / 100).toFixed(2),
    ]);
    expect(dashboard.leaders[0]).toMatchObject({ earned: ((fee1 + fee3) / 100).toFixed(2), followers: 1 });
    expect(dashboard.followers[0].follower).toMatch(/\*\*\*$/);
    const settlements = await admin.data('admincopysettlements', { leader_id: leader.account });
    expect(settlements.total).toBe(2);
    // the same period settled again changes nothing (keyed by the copy and the period)
    const at = Date.now() + 3;
    await settlePeriod(ports(), at);
    const stable = balance(id);
    await settlePeriod(ports(), at);
    expect(balance(id)).toBe(stable);

    // stopping settles once more, closes nothing (no copy open), returns everything, closes the account
    const mainBefore = balance(follower.account);
    const stopped = await ok(follower.t, 'followstop', {
      copy_account_id: id,
      closePositions: true,
      idempotencyKey: randomUUID(),
    });
    expect(stopped.copy.status).toBe('stopped');
    expect(balance(follower.account)).toBe(mainBefore + Number(stopped.returned.replace('.', '')));
    expect(engine().core.account(id)?.closed).toBe(true);
    const all = await ok(follower.t, 'followmine', { includeStopped: true });
    expect(all.items[0]).toMatchObject({ status: 'stopped', stopReason: 'client_close' });
  });

  it('stops a copy at its copy stop-loss, closing its copies with reason 4', async () => {
    await tick(67_000);
    const leader = await trader({ fee: '0' });
    const follower = await trader();
    const copy = await follow(follower, leader.account, {
      value: '0.10',
      amount: '5000.00',
      controls: { stopLossPercent: '2' },
    });
    const opened = await leader.t.send(leader.account, { symbol: 'BTCUSDT', side: 'buy', volume: '1.00' });
    expect(opened.body.success, opened.body.message).toBe(true);
    expect(copiesOf(copy.copy_account_id)).toHaveLength(1);
    // bought at 67,050.00: 0.10 lot at a bid of 66,040.00 has lost 101.00, over 2 % of 5,000.00
    await tick(66_040);
    await expect.poll(() => engine().core.copyRelation(copy.copy_account_id)).toBeUndefined();
    expect(copiesOf(copy.copy_account_id)).toEqual([]);
    const all = await ok(follower.t, 'followmine', { includeStopped: true });
    expect(all.items[0]).toMatchObject({ status: 'stopped', stopReason: 'stop_loss' });
    // the leader's position is untouched
    expect(engine().core.positionsOf(leader.account)).toHaveLength(1);
  });

  it('settles the fee when a copy take-profit stops the copy on a tick, and records it', async () => {
    await tick(67_000);
    const leader = await trader({ fee: '10' });
    const follower = await trader();
    const copy = await follow(follower, leader.account, {
      value: '0.10',
      amount: '5000.00',
      controls: { takeProfitPercent: '2' },
    });
    const opened = await leader.t.send(leader.account, { symbol: 'BTCUSDT', side: 'buy', volume: '1.00' });
    expect(opened.body.success, opened.body.message).toBe(true);
    // bought at 67,050.00: at a bid of 68,100.00 the 0.10 lot copy has made 105.00, over 2 % of 5,000.00
    await tick(68_100);
    await expect.poll(() => engine().core.copyRelation(copy.copy_account_id)).toBeUndefined();
    const settled = await expect
      .poll(async () => (await admin.data('admincopysettlements', { leader_id: leader.account })).items)
      .toHaveLength(1);
    void settled;
    const [row] = (await admin.data('admincopysettlements', { leader_id: leader.account })).items;
    expect(row).toMatchObject({
      kind: 'stop',
      markBefore: '0.00',
      fee: (Math.floor(Number(row.profit) * 10) / 100).toFixed(2),
    });
    expect(Number(row.profit)).toBeGreaterThanOrEqual(100);
    const all = await ok(follower.t, 'followmine', { includeStopped: true });
    expect(all.items[0]).toMatchObject({ status: 'stopped', stopReason: 'take_profit', feesPaid: row.fee });
  });

  it('suspends a leader: nothing new is copied, nobody new follows; reinstating copies again', async () => {
    await tick(67_000);
    const leader = await trader({ fee: '5' });
    const follower = await trader();
    const copy = await follow(follower, leader.account);
    const suspended = await admin.data('admincopysuspend', {
      leader_id: leader.account,
      suspend: true,
      reason: 'Review',
    });
    expect(suspended.status).toBe('suspended');
    const other = await trader();
    await refused(
      other.t,
      'followstart',
      {
        account_id: other.account,
        leader_id: leader.account,
        mode: 'equity',
        value: '0',
        amount: '500',
        idempotencyKey: randomUUID(),
      },
      -5108,
    );
    await leader.t.send(leader.account, { symbol: 'BTCUSDT', side: 'buy', volume: '0.50' });
    expect(copiesOf(copy.copy_account_id)).toEqual([]);
    const parity = await ok(follower.t, 'followparity', { copy_account_id: copy.copy_account_id });
    expect(parity.trades[0]).toMatchObject({ status: 'skipped', reason: 'leader_suspended' });
    expect(parity.summary.reasons).toContainEqual({ reason: 'skipped:leader_suspended', count: 1 });
    await admin.data('admincopysuspend', { leader_id: leader.account, suspend: false });
    await leader.t.send(leader.account, { symbol: 'BTCUSDT', side: 'buy', volume: '0.50' });
    expect(copiesOf(copy.copy_account_id)).toHaveLength(1);
    const exposure = await admin.data('admincopyexposure', {});
    expect(exposure.leaders.find((l: { leader_id: number }) => l.leader_id === leader.account)).toMatchObject(
      { followers: 1, positions: 1, lots: '0.10' },
    );
    const audit = await server.app.services.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('target', '=', String(leader.account))
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['copy.leader.suspend', 'copy.leader.reinstate', 'copy.leader.approve']),
    );
  });

  it('holds spec 9 under parallel requests: a user follows at most 10 traders', async () => {
    await tick(67_000);
    await admin.data('admincopysettingssave', {
      autoApprove: true,
      minTradingDays: 0,
      minEquity: '0',
      maxFeePercent: '30',
    });
    // 12 leader accounts of 3 traders (sign-ins are rate limited per address), then one follower
    const leaders: { account: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const owner = await trader({ fee: '0' });
      leaders.push(owner);
      for (let j = 0; j < 3; j++) {
        const account = await owner.t.createAccount(1, 2, 100);
        await ok(owner.t, 'followapply', {
          account_id: account,
          feePercent: '0',
          minCopyAmount: '0',
          positionsDelayMinutes: 0,
          bio: '',
        });
        leaders.push({ account });
      }
    }
    const follower = await trader();
    const answers = await Promise.all(
      leaders.map((l) =>
        call(follower.t, 'followstart', {
          account_id: follower.account,
          leader_id: l.account,
          mode: 'fixed_lot',
          value: '0.01',
          amount: '100.00',
          idempotencyKey: randomUUID(),
        }),
      ),
    );
    const okCount = answers.filter((a) => a.body.success).length;
    expect(okCount).toBe(10);
    expect(answers.filter((a) => !a.body.success).map((a) => a.body.code)).toEqual([-5105, -5105]);
    // the refused ones moved no money: 10 copies of 100.00 left the main account
    expect(balance(follower.account)).toBe(10_000_000 - 10 * 10_000);
    const mine = await ok(follower.t, 'followmine', {});
    expect(mine.followed).toBe(10);
  });

  it('answers a what-if of the last 90 days and lists leaders with statistics from their history', async () => {
    forgetLeaderStats();
    const leaders = await ok(viewer.t, 'followleaders', { sort: 'followers' });
    expect(leaders.total).toBeGreaterThan(0);
    const top = leaders.items[0];
    expect(top.stats.riskScore).toBeGreaterThanOrEqual(1);
    const withTrades = leaders.items.find(
      (l: { stats: { totalTrades: number } }) => l.stats.totalTrades >= 3,
    );
    expect(withTrades).toBeDefined();
    expect(Number(withTrades.stats.winRate)).toBeGreaterThan(0);
    const answer = await ok(viewer.t, 'followwhatif', {
      leader_id: withTrades.leader_id,
      mode: 'ratio',
      value: '0.5',
      amount: '10000.00',
    });
    expect(answer.leaderTrades).toBe(withTrades.stats.totalTrades);
    expect(answer.copied).toBe(answer.leaderTrades);
    expect(Number(answer.profit)).not.toBe(0);
    // too small a ratio rounds below the minimum volume: every trade skipped, with the reason
    const tiny = await ok(viewer.t, 'followwhatif', {
      leader_id: withTrades.leader_id,
      mode: 'fixed_margin',
      value: '0.01',
      amount: '10000.00',
    });
    expect(tiny.copied).toBe(0);
    expect(tiny.skipped).toEqual([{ reason: 'below_min_volume', count: tiny.leaderTrades }]);
  });
});

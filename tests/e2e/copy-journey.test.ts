import { randomUUID } from 'node:crypto';
import { ADMIN_COPY_PATHS } from '@broker/contracts/admin/copy-paths';
import { COPY_PATHS } from '@broker/contracts/copy-paths';
import { describe, expect, it } from 'vitest';
import { StaffClient } from '../../apps/server/test/staff';
import { ADMIN_PASSWORD, btcQuote, serverAndBrowser } from './support';
import { newTrader, openPage, signedIn, type TTrader } from './traders';

/**
 * Issue 18's journey on the real server, with a hand-driven market (FEED=off in demo mode,
 * /dev/feed/tick) and a fee period of 4 s instead of a week (COPY_FEE_PERIOD_MS, demo mode only):
 * a leader trades; two followers with different modes copy it; the leader closes and the followers'
 * history shows close reason 4; the leader's fee settles at the period's end above the high-water
 * mark only; a follower's copy stop-loss closes its copies and stops its copy.
 */
const running = serverAndBrowser({ FEED: 'off', COPY_FEE_PERIOD_MS: '4000' });
const base = () => running.server.baseUrl;

const quote = (bid: number) => btcQuote(base(), bid);

/** Walks the price to `to` in steps the off-market filter lets through, a moment apart. */
async function walk(from: number, to: number) {
  const step = Math.sign(to - from) * 500;
  for (let bid = from + step; step > 0 ? bid < to : bid > to; bid += step) await quote(bid);
  await quote(to);
}

async function ok(trader: TTrader, name: keyof typeof COPY_PATHS, input: Record<string, unknown>) {
  const answer = await trader.call(COPY_PATHS[name], input);
  expect(answer.body.success, `${name}: ${answer.body.message}`).toBe(true);
  return answer.body.data;
}

describe('copy trading, the whole journey', () => {
  it('copies a leader into two modes, closes with reason 4, charges the fee above the mark only, and stops a copy at its stop-loss', {
    timeout: 120_000,
  }, async () => {
    await quote(67_000);
    const staff = await new StaffClient<keyof typeof ADMIN_COPY_PATHS>(
      base(),
      (n) => ADMIN_COPY_PATHS[n],
    ).signIn('admin', ADMIN_PASSWORD);
    await staff.data('admincopysettingssave', {
      autoApprove: true,
      minTradingDays: 0,
      minEquity: '0',
      maxFeePercent: '30',
    });

    // The leader (10 % fee) and two followers: 0.10 lot a trade, and in proportion to equity with a 1 % copy stop-loss.
    const leader = await newTrader(base(), 'journey-leader');
    const leaderAccount = await leader.createAccount(1, 2, 100);
    const applied = await ok(leader, 'followapply', {
      account_id: leaderAccount,
      feePercent: '10',
      minCopyAmount: '0',
      positionsDelayMinutes: 0,
      bio: 'BTC trends',
    });
    expect(applied.status).toBe('approved');
    const fixed = await newTrader(base(), 'journey-fixed');
    const fixedMain = await fixed.createAccount(1, 2, 100);
    const fixedCopy = (
      await ok(fixed, 'followstart', {
        account_id: fixedMain,
        leader_id: leaderAccount,
        mode: 'fixed_lot',
        value: '0.10',
        amount: '10000.00',
        idempotencyKey: randomUUID(),
      })
    ).copy_account_id as number;
    const prop = await newTrader(base(), 'journey-equity');
    const propMain = await prop.createAccount(1, 2, 100);
    const propCopy = (
      await ok(prop, 'followstart', {
        account_id: propMain,
        leader_id: leaderAccount,
        mode: 'equity',
        value: '0',
        amount: '10000.00',
        controls: { stopLossPercent: '1' },
        idempotencyKey: randomUUID(),
      })
    ).copy_account_id as number;

    // 1. The leader buys 1.00 lot; both copies open (0.10 lot each: 10,000 against 100,000 in equity).
    const bought = await leader.send(leaderAccount, { symbol: 'BTCUSDT', side: 'buy', volume: '1.00' });
    expect(bought.body.success, bought.body.message).toBe(true);
    const { context, page } = await signedIn(running.browser, base(), fixed);
    await openPage(page, base(), '/en/copyTrading/mine');
    const card = page.locator(`[data-testid=copy-card][data-copy="${fixedCopy}"]`);
    await expect.poll(() => card.getByTestId('copy-open').textContent()).toBe('1');
    const propCopies = await prop.call('/api/v1/order/positions', { account_id: propCopy });
    expect(propCopies.body.data.map((p: { volume: string }) => p.volume)).toEqual(['0.10']);

    // 2. The price rises 1,000.00; the leader closes. The copies close with it, reason 4, in the follower's history.
    await walk(67_000, 68_000);
    const positions = await leader.call('/api/v1/order/positions', { account_id: leaderAccount });
    const ticket = positions.body.data[0].order_id as number;
    const closed = await leader.call('/api/v1/order/close', {
      account_id: leaderAccount,
      order_id: ticket,
      idempotencyKey: randomUUID(),
    });
    expect(closed.body.success, closed.body.message).toBe(true);
    await openPage(page, base(), `/en/personalCenter/history?account=${fixedCopy}`);
    const deal = page.getByTestId('deal').first();
    await expect.poll(() => deal.getAttribute('data-reason'), { timeout: 15_000 }).toBe('4');
    await expect(page.getByTestId('history-account').inputValue()).resolves.toBe(String(fixedCopy));

    // 3. The period ends: the fixed-lot copy made 95.00 (0.10 × (68,000 − 67,050)); the fee is 10 %, 9.50.
    await openPage(page, base(), '/en/copyTrading/mine');
    await expect
      .poll(
        async () => {
          await page.reload();
          return card.getByTestId('copy-fees').textContent();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toContain('9.50');
    await expect(card.getByTestId('copy-hwm').textContent()).resolves.toContain('95.00');
    const lead = await signedIn(running.browser, base(), leader);
    await openPage(lead.page, base(), '/en/copyTrading/lead');
    await expect.poll(() => lead.page.getByTestId('lead-settlement').count(), { timeout: 15_000 }).toBe(2);

    // 4. A losing round: the leader buys at 68,050.00 and the price falls to 65,900.00. The equity
    // copy (0.09 lot now: 10,085.50 against the leader's 100,969.00) loses 193.50 and its equity falls
    // below 9,900.00, 1 % under the 10,000.00 allocated: its copy stop-loss closes its copy (reason 4)
    // and stops it.
    const again = await leader.send(leaderAccount, { symbol: 'BTCUSDT', side: 'buy', volume: '1.00' });
    expect(again.body.success, again.body.message).toBe(true);
    await walk(68_000, 65_900);
    const watcher = await signedIn(running.browser, base(), prop);
    // the API first: the engine stops the copy on the tick that crossed the threshold
    await expect
      .poll(async () => (await ok(prop, 'followmine', { includeStopped: true })).items[0]?.stopReason, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe('stop_loss');
    // stopped copies are listed with "show stopped copies" (kept in the address)
    await openPage(watcher.page, base(), '/en/copyTrading/mine?stopped=1');
    const propCard = watcher.page.locator(`[data-testid=copy-card][data-copy="${propCopy}"]`);
    await expect
      .poll(
        async () => {
          await watcher.page.reload();
          return propCard.getAttribute('data-status');
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe('stopped');
    await expect(propCard.getByTestId('copy-stop-reason').textContent()).resolves.toBeTruthy();
    const propHistory = await prop.call('/api/v1/order/history', { account_id: propCopy, page: 1, size: 10 });
    expect(propHistory.body.data.items.map((d: { close_reason: number }) => d.close_reason)).toEqual([4, 4]);

    // 5. The leader closes at a loss: the fixed-lot copy is now below its mark of 95.00, so the next
    // periods charge nothing more (still 9.50 in fees, and no new settlement of it).
    const open = await leader.call('/api/v1/order/positions', { account_id: leaderAccount });
    await leader.call('/api/v1/order/close', {
      account_id: leaderAccount,
      order_id: open.body.data[0].order_id,
      idempotencyKey: randomUUID(),
    });
    const settlements = async () =>
      (await staff.data('admincopysettlements', { leader_id: leaderAccount })).items.filter(
        (s: { copy_account_id: number }) => s.copy_account_id === fixedCopy,
      ).length;
    const before = await settlements();
    // wait past two period ends
    const start = Date.now();
    await expect.poll(() => Date.now() - start, { timeout: 12_000, interval: 500 }).toBeGreaterThan(8_500);
    expect(await settlements()).toBe(before);
    await page.reload();
    await expect(card.getByTestId('copy-fees').textContent()).resolves.toContain('9.50');
    await context.close();
    await lead.context.close();
    await watcher.context.close();
  });
});

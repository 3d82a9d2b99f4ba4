import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { ADMIN_COPY_PATHS } from '@broker/contracts/admin/copy-paths';
import { COPY_PATHS } from '@broker/contracts/copy-paths';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { solveChallenge } from '../../apps/server/src/modules/identity/captcha';
import { Trader } from '../../apps/server/test/trader';
import { createStaff, mailboxCode, serverAndBrowser, staffCall, staffPage } from './support';

/**
 * The back office's copy-trading page against the real server (issue 18): traders apply to lead and
 * copy through the portal's API, as the portal would; staff review, suspend and reinstate in the
 * browser, then find the copy relation and the copied volume on the risk page.
 */
const running = serverAndBrowser();
const base = () => running.server.baseUrl;

// ---------------------------------------------------------------------------------------------
// Traders, through the portal's API

async function post(path: string, body: unknown) {
  const response = await fetch(base() + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { success: boolean; message: string; data: Record<string, unknown> };
}

let serial = 0;
/** A new trader, registered with the mailed code (the captcha solved as the page would) and signed in. */
async function newTrader(label: string): Promise<Trader> {
  const email = `${label}.${Date.now().toString(36)}${serial++}@example.com`;
  const password = 'Trader-Pass-2026';
  const challenge = (await post(ROUTE_PATHS.captcha, {})).data as {
    id: string;
    salt: string;
    difficulty: number;
  };
  const captcha = { id: challenge.id, nonce: solveChallenge(challenge.salt, challenge.difficulty) };
  expect((await post(ROUTE_PATHS.sendcode, { email, purpose: 'register', captcha })).success).toBe(true);
  const code = await mailboxCode(base(), email);
  const registered = await post(ROUTE_PATHS.register, { email, code, password, confirmPassword: password });
  expect(registered.success, registered.message).toBe(true);
  return Trader.signIn(base(), email, password);
}

async function traderData(
  trader: Trader,
  name: keyof typeof COPY_PATHS,
  input: Record<string, unknown> = {},
) {
  const answer = await trader.call(COPY_PATHS[name], input);
  expect(answer.body.success, `${name}: ${answer.body.message}`).toBe(true);
  return answer.body.data;
}

/** A trader with a demo main account (standard mode) who applies to lead with it. */
async function applicant(label: string): Promise<{ trader: Trader; leaderId: number }> {
  const trader = await newTrader(label);
  const leaderId = await trader.createAccount(1, 2, 100);
  const applied = await traderData(trader, 'followapply', {
    account_id: leaderId,
    feePercent: '10',
    minCopyAmount: '100',
    positionsDelayMinutes: 0,
    bio: `E2E leader ${label}`,
  });
  expect(applied.status).toBe('pending');
  return { trader, leaderId };
}

/** The leader's state as the trader sees it on the leader dashboard. */
async function leaderState(trader: Trader, leaderId: number) {
  const dashboard = await traderData(trader, 'followdashboard', {});
  return (dashboard.leaders as { leader_id: number; status: string; reason: string | null }[]).find(
    (leader) => leader.leader_id === leaderId,
  );
}

// ---------------------------------------------------------------------------------------------
// Staff

/** Screenshots for review when COPY_SHOTS names a folder (not part of the assertions). */
async function shot(page: Page, name: string) {
  const folder = process.env.COPY_SHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: `${folder}/${name}.png` });
}

/** Confirms the open dialog and waits until it has closed. */
async function confirm(page: Page) {
  await page.getByTestId('confirm-ok').click();
  await page.getByTestId('confirm-dialog').waitFor({ state: 'detached', timeout: 10_000 });
}

const drawerStatus = (page: Page) =>
  page.getByTestId('leader-drawer').getByTestId('leader-drawer-status').getAttribute('data-status');

// ---------------------------------------------------------------------------------------------

describe('copy trading in the back office', () => {
  it('a leader application waits for review, a 26-character reason is refused, staff approve, suspend and reinstate; the copy relation and the copied volume show up', {
    timeout: 180_000,
  }, async () => {
    const { context, page } = await staffPage(running.browser, base());
    // Applications wait for a reviewer: the broker's rules say so, saved on the settings tab.
    await page.goto(`${base()}/admin/copy/settings`);
    const auto = page.getByTestId('copy-settings-auto');
    await auto.waitFor({ timeout: 10_000 });
    await page.getByTestId('copy-settings-fee').fill('30');
    if (await auto.isChecked()) await auto.uncheck();
    await page.getByTestId('copy-settings-review').click();
    if ((await page.getByTestId('confirm-dialog').count()) > 0) {
      await confirm(page);
      await page.getByTestId('copy-notice').waitFor();
    }
    expect((await staffCall(page, ADMIN_COPY_PATHS.admincopysettings)).body.data).toMatchObject({
      autoApprove: false,
    });

    const { trader: leader, leaderId } = await applicant('lead');

    // The application waits, with the count of those waiting on the segment and the tab.
    await page.goto(`${base()}/admin/copy`);
    const row = page.locator(`[data-testid=leader-row][data-key="${leaderId}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(
      Number(await page.getByTestId('leader-states-count-pending').textContent()),
    ).toBeGreaterThanOrEqual(1);
    await row.getByTestId('leader-open').click();
    const drawer = page.getByTestId('leader-drawer');
    await drawer.getByTestId('leader-statistics').waitFor();
    expect(await drawerStatus(page)).toBe('pending');
    expect(new URL(page.url()).searchParams.get('open')).toBe(String(leaderId));

    // A reason over 20 characters is refused in the dialog, and nothing is sent.
    await drawer.getByTestId('leader-reject').click();
    const reason = page.getByTestId('copy-reason');
    await reason.fill('Not enough trading history');
    expect(await page.getByTestId('copy-reason-counter').textContent()).toBe('26/20');
    await page.getByTestId('confirm-ok').click();
    expect(await page.getByTestId('copy-reason-problem').textContent()).toBe('At most 20 characters.');
    expect(await reason.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'copy-reject-too-long');
    await page.getByText('Cancel').click();
    expect((await leaderState(leader, leaderId))?.status).toBe('pending');

    // Approved: the trader is a leader.
    await drawer.getByTestId('leader-approve').click();
    await confirm(page);
    await expect.poll(() => drawerStatus(page), { timeout: 10_000 }).toBe('approved');
    await page.getByTestId('copy-notice').waitFor();
    expect((await leaderState(leader, leaderId))?.status).toBe('approved');

    // Suspended with a reason, after the dialog says what happens to the followers; then reinstated.
    await drawer.getByTestId('leader-suspend').click();
    expect(await page.getByTestId('suspend-consequences').textContent()).toContain('are told');
    await page.getByTestId('copy-reason').fill('Under review');
    await confirm(page);
    await expect.poll(() => drawerStatus(page), { timeout: 10_000 }).toBe('suspended');
    expect(await drawer.getByTestId('leader-reason').textContent()).toContain('Under review');
    expect(await leaderState(leader, leaderId)).toMatchObject({
      status: 'suspended',
      reason: 'Under review',
    });
    await shot(page, 'copy-suspended');
    await drawer.getByTestId('leader-reinstate').click();
    await confirm(page);
    await expect.poll(() => drawerStatus(page), { timeout: 10_000 }).toBe('approved');
    expect((await leaderState(leader, leaderId))?.status).toBe('approved');

    // A follower starts copying the leader through the portal's API: the relation is listed.
    const follower = await Trader.signIn(base());
    const followerAccount = await follower.createAccount(1, 2, 100);
    const copy = await traderData(follower, 'followstart', {
      account_id: followerAccount,
      leader_id: leaderId,
      mode: 'fixed_lot',
      value: '0.10',
      amount: '1000.00',
      idempotencyKey: randomUUID(),
    });
    await page.goto(`${base()}/admin/copy/relations?leader=${leaderId}`);
    const relation = page.locator(`[data-testid=relation-row][data-key="${copy.copy_account_id}"]`);
    await relation.waitFor({ timeout: 10_000 });
    expect(await relation.getByTestId('relation-status').getAttribute('data-status')).toBe('active');
    const cells = await relation.locator('td .kit-cell-value').allTextContents();
    expect(cells.join(' ')).toContain('0.10 lots a trade');
    expect(cells.join(' ')).toContain('1,000.00 USD');
    await shot(page, 'copy-relations');
    // The leader's name leads to its drawer on the leaders tab.
    await relation.locator(`a[href*="open=${leaderId}"]`).click();
    await expect.poll(() => drawerStatus(page), { timeout: 10_000 }).toBe('approved');

    // The leader trades: the copy opens, and the risk page shows the copied volume.
    const buy = await leader.send(leaderId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.05' });
    expect(buy.body.success, buy.body.message).toBe(true);
    await page.goto(`${base()}/admin/risk`);
    const symbol = page.locator('[data-testid=risk-copy-symbol-row][data-key=BTCUSDT]');
    await expect.poll(() => symbol.count(), { timeout: 15_000 }).toBe(1);
    const symbolCells = await symbol.locator('td .kit-cell-value').allTextContents();
    expect(symbolCells).toContain('0.10'); // bought
    expect(symbolCells).toContain('+0.10'); // net
    const byLeader = page.locator(`[data-testid=risk-copy-leader-row][data-key="${leaderId}"]`);
    await byLeader.waitFor({ timeout: 10_000 });
    expect(await byLeader.locator('td .kit-cell-value').allTextContents()).toEqual([
      expect.stringContaining('#'),
      '1',
      '1',
      '0.10',
    ]);
    await page.getByTestId('risk-copy').scrollIntoViewIfNeeded();
    await shot(page, 'copy-risk');
    await context.close();
  });

  it('staff holding only copy.view read the leader without a single decision button, and the server refuses the decision', {
    timeout: 120_000,
  }, async () => {
    const { context, page } = await staffPage(running.browser, base());
    const { leaderId } = await applicant('viewed');
    const viewer = await createStaff(running, page, 'copyviewer', ['copy.view']);
    const v = viewer.page;
    await v.goto(`${base()}/admin/copy?open=${leaderId}`);
    await v.getByTestId('leader-drawer').getByTestId('leader-statistics').waitFor({ timeout: 10_000 });
    expect(await drawerStatus(v)).toBe('pending');
    for (const action of ['approve', 'reject', 'suspend', 'reinstate'])
      expect(await v.getByTestId(`leader-${action}`).count()).toBe(0);
    const refused = await staffCall(v, ADMIN_COPY_PATHS.admincopyreview, {
      leader_id: leaderId,
      approve: true,
    });
    expect(refused.body.success).toBe(false);
    // The settings are read only.
    await v.goto(`${base()}/admin/copy/settings`);
    await v.getByTestId('copy-settings-auto').waitFor({ timeout: 10_000 });
    expect(await v.getByTestId('copy-settings-auto').isDisabled()).toBe(true);
    expect(await v.getByTestId('copy-settings-review').count()).toBe(0);
    await viewer.context.close();
    await context.close();
  });
});

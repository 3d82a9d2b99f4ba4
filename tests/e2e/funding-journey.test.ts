import { randomUUID } from 'node:crypto';
import { ADMIN_FUNDING_PATHS } from '@broker/contracts/admin/funding-paths';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { StaffClient } from '../../apps/server/test/staff';
import { Trader } from '../../apps/server/test/trader';
import { ADMIN_PASSWORD, DEMO, newContext, serverAndBrowser, staffPage } from './support';

/**
 * Issue 17's whole journey in the browser, across the portal and the back office: a new trader passes
 * KYC (staff approve it), deposits through the sandbox card provider, trades, moves money to a copy
 * account and back, withdraws; staff approve; the sandbox pays the money out; the financial page shows
 * every step, and the day's reconciliation agrees with the provider.
 */
const running = serverAndBrowser({
  PAYMENT_WEBHOOK_DELAY_MS: '5,40',
  PAYMENT_PAYOUT_DELAY_MS: '30,80',
});
const base = () => running.server.baseUrl;
const FUND_PASSWORD = 'Journey-Fund-1';

/** A small real PNG: 1 x 1 pixel. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

async function open(page: Page, path: string) {
  await page.goto(base() + path);
  await page.waitForSelector('html[data-hydrated]');
}

async function confirm(page: Page) {
  await page.getByTestId('confirm-ok').click();
  await page.getByTestId('confirm-dialog').waitFor({ state: 'detached', timeout: 10_000 });
}

describe('money in and out, end to end', () => {
  it('KYC, card deposit, a trade, a copy-account round trip, a withdrawal paid out, all in the financial record', {
    timeout: 180_000,
  }, async () => {
    // The trader: the seeded demo trader, who has never verified or deposited.
    const trader = await Trader.signIn(base(), DEMO.email, DEMO.password);
    const context = await newContext(running.browser);
    await context.addInitScript(() => localStorage.setItem('download-prompt-dismissed', '1'));
    const login = await context.request.post(base() + ROUTE_PATHS.login, {
      data: { email: DEMO.email, password: DEMO.password },
    });
    expect((await login.json()).success).toBe(true);
    const page = await context.newPage();

    // 1. Verification: the form, files up in chunks, pending review.
    await open(page, '/en/personalCenter/setting/verification');
    await page.getByTestId('kyc-basic-form').waitFor();
    await page
      .getByTestId('kyc-front-input')
      .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('kyc-front-done').waitFor();
    await page
      .getByTestId('kyc-selfie-input')
      .setInputFiles({ name: 'selfie.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('kyc-selfie-done').waitFor();
    await page.getByTestId('kyc-first-name').fill('Demo');
    await page.getByTestId('kyc-last-name').fill('Trader');
    await page.getByTestId('kyc-birth-date').fill('1988-02-03');
    await page.waitForSelector('[data-testid=kyc-country] option[value=DE]', { state: 'attached' });
    await page.getByTestId('kyc-country').selectOption('DE');
    await page.getByTestId('kyc-document-passport').click();
    await page.getByTestId('kyc-document-number').fill('C01X00T47');
    await page.getByTestId('kyc-submit').click();
    await expect.poll(() => page.getByTestId('kyc-basic-state').getAttribute('data-state')).toBe('pending');

    // 2. Staff approve it in the back office.
    const admin = await staffPage(running.browser, base());
    await admin.page.goto(`${base()}/admin/kyc`);
    await admin.page
      .locator('[data-testid=kyc-row]', { hasText: DEMO.email })
      .getByTestId('kyc-open')
      .click();
    await admin.page.getByTestId('kyc-image').waitFor({ timeout: 10_000 });
    await admin.page.getByTestId('kyc-approve').click();
    await confirm(admin.page);
    await expect
      .poll(() => admin.page.getByTestId('kyc-detail-status').getAttribute('data-status'))
      .toBe('approved');
    await open(page, '/en/personalCenter/setting/verification');
    await expect.poll(() => page.getByTestId('kyc-basic-state').getAttribute('data-state')).toBe('approved');

    // 3. A real account, and a card deposit through the sandbox's hosted page.
    const accountId = await trader.createAccount(2, 1, 100);
    await open(page, `/en/personalCenter/deposit?account=${accountId}`);
    await page.getByTestId('method-card').click();
    await page.getByTestId('deposit-amount').fill('1000');
    await Promise.all([page.waitForURL('**/sandbox/pay/**'), page.getByTestId('deposit-submit').click()]);
    await page.fill('#number', '4242 4242 4242 4242');
    await page.fill('#expiry', '12 / 30');
    await page.fill('#cvc', '123');
    await Promise.all([page.waitForURL('**/en/personalCenter/deposit?deposit=*'), page.click('button.pay')]);
    await page.waitForSelector('[data-testid=deposit-tracker][data-status=completed]', { timeout: 20_000 });

    // 4. A trade on it (the terminal has its own tests): open and close at the market.
    await trader.renewTradeToken();
    await expect
      .poll(
        async () =>
          (await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' })).body.success,
        {
          timeout: 15_000,
        },
      )
      .toBe(true);
    const positions = await trader.call(ROUTE_PATHS.positions, { account_id: accountId });
    const ticket = positions.body.data[0]?.order_id;
    const closed = await trader.call(ROUTE_PATHS.positionclose, {
      account_id: accountId,
      order_id: ticket,
      idempotencyKey: randomUUID(),
    });
    expect(closed.body.success, closed.body.message).toBe(true);
    const afterTrade = (await trader.call(ROUTE_PATHS.info, { account_id: accountId })).body.data;
    // The trade's result is the account's profit; the deposit is not.
    expect(afterTrade.total_in_amount).toBe('-1000.00');
    // balance − 1000 in cents, without floats.
    const cents = (v: string) => BigInt(v.replace('.', ''));
    expect(cents(afterTrade.profit)).toBe(cents(afterTrade.balance) - 100_000n);
    expect(cents(afterTrade.balance)).not.toBe(100_000n);

    // 5. A copy account, funded and emptied again (following a trader opens one; an empty one is opened
    // through the API here).
    const opened = await trader.call(ROUTE_PATHS.subaccountcreate, {
      account_id: accountId,
      purpose: 'copy',
      idempotencyKey: randomUUID(),
    });
    expect(opened.body.success, opened.body.message).toBe(true);
    await open(page, '/en/personalCenter/account');
    await page.locator(`[data-testid=account-card][data-account="${accountId}"]`).click();
    await page.getByTestId('sub-accounts').waitFor();
    const sub = page.getByTestId('sub-account').first();
    await sub.waitFor();
    await sub.getByTestId('sub-transfer-out').click();
    await page.getByTestId('transfer-amount').fill('100');
    await page.getByTestId('transfer-confirm').click();
    await page.getByTestId('transfer-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => sub.getByTestId('sub-balance').textContent()).toBe('100.00 USD');
    await sub.getByTestId('sub-transfer-in').click();
    await page.getByTestId('transfer-max').click();
    await page.getByTestId('transfer-confirm').click();
    await page.getByTestId('transfer-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => sub.getByTestId('sub-balance').textContent()).toBe('0.00 USD');

    // 6. A withdrawal back to the card, with a new funding password.
    await open(page, `/en/personalCenter/withdrawal?account=${accountId}`);
    await page.getByTestId('fund-password-set').waitFor();
    await page.getByTestId('fund-password-new').fill(FUND_PASSWORD);
    await page.getByTestId('fund-password-confirm').fill(FUND_PASSWORD);
    await page.getByTestId('fund-password-save').click();
    await page.getByTestId('withdrawal-form').waitFor();
    await page.getByTestId('withdrawal-source').first().waitFor();
    await page.getByTestId('withdrawal-amount').fill('200');
    await page.getByTestId('withdrawal-password').fill(FUND_PASSWORD);
    await page.getByTestId('withdrawal-submit').click();
    await page.waitForSelector('[data-testid=withdrawal-timeline][data-status=awaiting_review]');
    const withdrawalId = new URL(page.url()).searchParams.get('withdrawal');
    expect(withdrawalId).toBeTruthy();

    // 7. Staff approve it; the sandbox pays it out and the trader's open page follows it to the end.
    await admin.page.goto(`${base()}/admin/funding?open=${withdrawalId}`);
    const drawer = admin.page.getByTestId('withdrawal-drawer');
    await drawer.getByTestId('drawer-flags').waitFor();
    await drawer.getByTestId('withdrawal-approve').click();
    await confirm(admin.page);
    await page.waitForSelector('[data-testid=withdrawal-timeline][data-status=completed]', {
      timeout: 20_000,
    });
    // The back office shows it completed too once the drawer is opened again (it does not poll).
    await admin.page.goto(`${base()}/admin/funding?open=${withdrawalId}`);
    await drawer.getByTestId('drawer-flags').waitFor();
    await expect
      .poll(() => drawer.getByTestId('drawer-status').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('completed');

    // 8. The financial record has every step, newest first.
    await open(page, '/en/personalCenter/financial');
    await expect
      .poll(() =>
        page.$$eval('[data-testid=financial-row]', (rows) => rows.map((r) => r.getAttribute('data-kind'))),
      )
      .toEqual(['withdrawal', 'transfer_follow_in', 'transfer_follow_out', 'deposit']);

    // 9. The money reached the sandbox: the day's reconciliation matches the card provider's records.
    const staff = await new StaffClient<keyof typeof ADMIN_FUNDING_PATHS>(
      base(),
      (n) => ADMIN_FUNDING_PATHS[n],
    ).signIn('admin', ADMIN_PASSWORD);
    const report = await staff.data('adminreconciliation', { day: new Date().toISOString().slice(0, 10) });
    const card = report.providers.find((p: { provider: string }) => p.provider === 'sandboxcard');
    expect(card).toMatchObject({
      ledgerIn: '1025.30',
      providerIn: '1025.30',
      ledgerOut: '200.00',
      providerOut: '200.00',
      mismatches: [],
    });
    await admin.context.close();
    await context.close();
  });
});

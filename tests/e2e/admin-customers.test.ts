import { mkdirSync } from 'node:fs';
import en from '@broker/i18n/locales/en.json';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Trader } from '../../apps/server/test/trader';
import { DEMO, newContext, serverAndBrowser, staffPage } from './support';

const running = serverAndBrowser();

/** The portal's English text for -3008, as the terminal shows it. */
const RESTRICTED = (en as Record<string, string>)['errors.-3008'];

/** The trader signs in to the terminal, opens a demo account and picks BTCUSDT. */
async function traderReady(page: Page): Promise<string> {
  await page.goto(`${running.server.baseUrl}/en/trade`);
  await page.waitForURL('**/en/login**');
  await page.waitForLoadState('networkidle');
  await page.fill('input[name=email]', DEMO.email);
  await page.fill('input[name=password]', DEMO.password);
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/en/trade', { timeout: 15_000 }),
    page.getByTestId('login-submit').click(),
  ]);
  await page.getByTestId('open-demo').click();
  const switcher = page.getByTestId('account-switcher');
  await switcher.waitFor({ timeout: 15_000 });
  await page.getByTestId('watch-search').fill('btc');
  await page.locator('[data-testid=watchlist] li[data-symbol=BTCUSDT] [data-testid=watch-row]').click();
  await expect.poll(() => page.getByTestId('chart-symbol').textContent()).toBe('BTCUSDT');
  await expect
    .poll(() => page.getByTestId('ticket-margin').getAttribute('data-value'), { timeout: 15_000 })
    .toMatch(/^\d+\.\d{2}$/);
  const accountText = await switcher.getAttribute('data-account');
  return accountText ?? '';
}

/** Staff opens the restrictions dialog of the account and sets "no opening" on or off. */
async function setNoOpen(page: Page, accountId: string, on: boolean) {
  const card = page.locator(`[data-testid=account-card][data-account="${accountId}"]`);
  await card.getByTestId('account-restrict').click();
  const box = page.getByTestId('restrict-noOpen');
  await box.setChecked(on);
  await page.getByTestId('confirm-ok').click();
  await page.getByTestId('confirm-dialog').waitFor({ state: 'detached', timeout: 10_000 });
  await page.getByTestId('customer-notice').waitFor({ timeout: 10_000 });
  await expect
    .poll(() => card.locator('[data-restriction=noOpen]').count(), { timeout: 10_000 })
    .toBe(on ? 1 : 0);
}

/** Screenshots for review when CUSTOMERS_SHOTS names a folder (not part of the assertions). */
async function shot(page: Page, name: string) {
  const folder = process.env.CUSTOMERS_SHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}

describe('customers in the browser', () => {
  it("staff restricts opening on the demo trader's account: the terminal refuses with the translated message, and trades again once lifted", {
    timeout: 150_000,
  }, async () => {
    const traderContext = await newContext(running.browser);
    const trader = await traderContext.newPage();
    const accountId = await traderReady(trader);

    const { context: staffContext, page: staff } = await staffPage(running.browser, running.server.baseUrl);
    await staff.goto(`${running.server.baseUrl}/admin/users`);
    await staff.getByTestId('customers-search').fill(DEMO.email);
    // The search has run (300 ms after typing) and its answer is on screen: a fresh database holds
    // only the demo trader, so the unfiltered list also shows one row and cannot tell.
    await expect.poll(() => new URL(staff.url()).searchParams.get('q'), { timeout: 10_000 }).toBe(DEMO.email);
    await expect
      .poll(() => staff.getByTestId('customers-table').getAttribute('data-loading'), { timeout: 10_000 })
      .toBe('false');
    const row = staff.getByTestId('customer-row');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.first().textContent()).toContain(DEMO.name);
    await row.first().click();
    await staff.getByTestId('customer-page').waitFor();
    expect(new URL(staff.url()).pathname).toMatch(/^\/admin\/users\/[\w-]+$/);
    await staff.getByTestId('customer-tab-accounts').click();
    const card = staff.locator(`[data-testid=account-card][data-account="${accountId}"]`);
    await card.waitFor({ timeout: 10_000 });
    await setNoOpen(staff, accountId, true);
    await shot(staff, 'e2e-restricted');

    // The trader's next buy is refused with the restriction message, and no position opens.
    const submit = trader.getByTestId('ticket-submit');
    if (await submit.isEnabled()) await submit.click();
    const refusal = trader.getByTestId('ticket-error').or(trader.getByTestId('ticket-blocked'));
    await refusal.first().waitFor({ timeout: 10_000 });
    expect(await refusal.first().textContent()).toBe(RESTRICTED);
    expect(await trader.locator('[data-testid=position-row]').count()).toBe(0);

    // Lifted: the next order goes through.
    await setNoOpen(staff, accountId, false);
    await trader.getByTestId('ticket-blocked').waitFor({ state: 'detached', timeout: 10_000 });
    await expect.poll(() => submit.isEnabled(), { timeout: 10_000 }).toBe(true);
    await submit.click();
    const result = trader.getByTestId('ticket-result');
    await result.waitFor({ timeout: 10_000 });
    expect(await result.getAttribute('data-kind')).toBe('position');
    await trader.locator('[data-testid=position-row]').first().waitFor({ timeout: 10_000 });

    // The staff page shows the new position.
    await staff.getByTestId('customer-tab-positions').click();
    await expect.poll(() => staff.getByTestId('position-row').count(), { timeout: 15_000 }).toBe(1);
    // Swap and commission charged so far are shown beside the floating profit.
    const headers = await staff.getByTestId('positions-table').locator('th').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Swap', 'Commission', 'Profit']));
    // On a phone each position is a card of labelled values: nothing scrolls sideways.
    const desktop = staff.viewportSize();
    await staff.setViewportSize({ width: 375, height: 812 });
    const table = staff.getByTestId('positions-table');
    await expect
      .poll(() => table.locator('.kit-table-scroll').evaluate((el) => el.scrollWidth - el.clientWidth))
      .toBeLessThanOrEqual(1);
    const labels = await table.locator('tbody .kit-cell-label').allInnerTexts();
    expect(labels).toEqual(expect.arrayContaining(['Swap', 'Commission', 'Profit']));
    expect(await table.locator('thead').isVisible()).toBe(false);
    if (desktop) await staff.setViewportSize(desktop);

    // A dealer closes it after a confirmation; the trader's terminal loses the row.
    await staff.getByTestId('position-close').first().click();
    await staff.getByTestId('confirm-ok').click();
    await expect.poll(() => staff.getByTestId('position-row').count(), { timeout: 15_000 }).toBe(0);
    await expect
      .poll(() => trader.locator('[data-testid=position-row]').count(), { timeout: 15_000 })
      .toBe(0);
    await traderContext.close();
    await staffContext.close();
  });

  it('a balance adjustment above the threshold waits on the approvals page', {
    timeout: 120_000,
  }, async () => {
    const api = await Trader.signIn(running.server.baseUrl);
    const realAccount = await api.createAccount(2);
    const { context, page } = await staffPage(running.browser, running.server.baseUrl);
    await page.goto(`${running.server.baseUrl}/admin/users?q=${encodeURIComponent(DEMO.email)}`);
    await page.getByTestId('customer-row').first().click();
    await page.getByTestId('customer-tab-accounts').click();
    const card = page.locator(`[data-testid=account-card][data-account="${realAccount}"]`);
    await card.getByTestId('account-adjust').click();
    const dialog = page.getByTestId('adjust-dialog');
    await dialog.getByTestId('adjust-amount').fill('1500');
    await dialog.getByTestId('adjust-reason').fill('Contest prize');
    await dialog.getByTestId('adjust-next').click();
    await dialog.getByTestId('adjust-review').waitFor();
    await shot(page, 'e2e-adjust-review');
    await dialog.getByTestId('adjust-confirm').click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    const pending = page.getByTestId('customer-pending');
    await pending.waitFor({ timeout: 10_000 });
    // The requester sees it as theirs: no approve button for them.
    expect(await pending.getByTestId('adjustment-approve').count()).toBe(0);
    await page.goto(`${running.server.baseUrl}/admin/users`);
    await page.getByTestId('customers-approvals').click();
    await page.waitForURL('**/admin/users/approvals');
    await expect.poll(() => page.getByTestId('adjustment-row').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('adjustment-status').first().textContent()).toBe('Waiting for approval');
    await shot(page, 'e2e-approvals');
    await context.close();
  });
});

import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Trader } from '../../apps/server/test/trader';
import { serverAndBrowser, signInStaff } from './support';

const running = serverAndBrowser();

/** Screenshots for review, when SHOTS names a folder (not part of the assertions). */
async function shot(page: Page, name: string) {
  const folder = process.env.RISK_SHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}

describe('risk page in the browser', () => {
  it('shows the exposure row of a symbol a trader just opened, live, and adds a routing rule after confirmation', async () => {
    // A trader opens a demo position through the API, as the terminal does.
    const trader = await Trader.signIn(running.server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const buy = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.05' });
    expect(buy.body.success, buy.body.message).toBe(true);

    // A plain context: the shared one waits for the portal's hydration mark, which /admin never sets.
    const context = await running.browser.newContext({
      locale: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript(() => localStorage.setItem('admin_lang', 'en'));
    const page = await context.newPage();
    await signInStaff(page, running.server.baseUrl);
    await page.goto(`${running.server.baseUrl}/admin/risk`);
    // Real money by default: the demo position is not the broker's risk.
    await expect
      .poll(() => page.locator('[data-testid=risk-symbols-empty]').count(), { timeout: 10_000 })
      .toBe(1);
    await page.locator('[data-testid=risk-scope] [data-value=demo]').click();
    const row = page.locator('[data-testid=risk-symbol-row][data-key=BTCUSDT]');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    // Each cell holds its value and, for the phone's card layout, its column's label: read the values.
    const cells = await row.locator('td .kit-cell-value').allTextContents();
    expect(cells[0]).toMatch(/^BTCUSDT\d/); // the symbol over its quote
    expect(cells).toContain('0.05 / 0.00'); // buy / sell lots
    expect(cells).toContain('+0.05'); // net lots
    await shot(page, 'e2e-exposure-demo');

    // A second position shows up by itself (the page refreshes every 2 s).
    const sell = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'sell', volume: '0.02' });
    expect(sell.body.success, sell.body.message).toBe(true);
    await expect
      .poll(async () => (await row.locator('td .kit-cell-value').allTextContents()).includes('+0.03'), {
        timeout: 10_000,
      })
      .toBe(true);

    // Routing: a group rule is added only after the confirmation.
    await page.locator('[data-testid=risk-tab-routing]').click();
    await expect
      .poll(() => page.locator('[data-testid=risk-rules-empty]').count(), { timeout: 10_000 })
      .toBe(1);
    await page.locator('[data-testid=risk-rule-add]').click();
    await page.locator('[data-testid=risk-rule-dialog] select[name=kind]').selectOption('group');
    await page.locator('[data-testid=risk-rule-dialog] select[name=book]').selectOption('A');
    await page.locator('[data-testid=risk-rule-submit]').click();
    await page.locator('[data-testid=confirm-ok]').click();
    await expect
      .poll(() => page.locator('[data-testid=risk-rules] tbody tr').count(), { timeout: 10_000 })
      .toBe(1);
    expect(await page.locator('[data-testid=risk-rules] tbody tr').textContent()).toContain('Standard');
    await expect
      .poll(() => page.locator('[data-testid=risk-lp]').textContent(), { timeout: 10_000 })
      .toContain('Connected');
    await shot(page, 'e2e-routing');

    // Levels: before applying, the confirmation says what the new levels would do to the accounts.
    await page.locator('[data-testid=risk-tab-levels]').click();
    await page.locator('[data-testid=risk-level-edit]').first().click();
    await page.locator('[data-testid=risk-level-dialog] input[name=marginCall]').fill('150');
    await page.locator('[data-testid=risk-level-dialog] input[name=stopOut]').fill('80');
    await page.locator('[data-testid=risk-level-dialog] button[type=submit]').click();
    const impact = page.locator('[data-testid=levels-impact]');
    await impact.waitFor({ timeout: 10_000 });
    expect(await impact.textContent()).toContain('No account would be in margin call or stopped out now');
    await shot(page, 'e2e-levels-impact');
    await context.close();
  });
});

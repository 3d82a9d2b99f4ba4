import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, serverAndBrowser, signInStaff } from './support';

const running = serverAndBrowser();

/** The BTCUSDT spread the portal's markets page shows, in points (2 digits), from its live bid and ask. */
async function portalSpread(page: Page): Promise<number | null> {
  const row = page.locator('tr[data-symbol="BTCUSDT"]');
  const bid = await row.locator('.mk-col-bid .flash').getAttribute('data-value');
  const ask = await row.locator('.mk-col-ask .flash').getAttribute('data-value');
  if (!bid || !ask) return null;
  return Math.round(Number(ask) * 100) - Math.round(Number(bid) * 100);
}

describe('market configuration in the browser', () => {
  it("changing a symbol's spread shows in the portal's quotes within a second", async () => {
    const portalContext = await newContext(running.browser);
    const portal = await portalContext.newPage();
    await portal.goto(`${running.server.baseUrl}/en/markets`);
    await expect
      .poll(() => portal.getByTestId('stream-status').getAttribute('data-state'), { timeout: 15_000 })
      .toBe('open');
    await expect.poll(() => portalSpread(portal), { timeout: 10_000 }).toBeGreaterThan(0);
    // The simulator's BTCUSDT spread stays well under 50 dollars (5,000 points).
    expect(await portalSpread(portal)).toBeLessThan(5_000);

    const staffContext = await newContext(running.browser);
    const admin = await staffContext.newPage();
    await signInStaff(admin, running.server.baseUrl);
    await admin.goto(`${running.server.baseUrl}/admin/market`);
    await admin.getByTestId('instruments-table-filter').fill('BTCUSDT');
    const row = admin.locator('[data-testid="instrument-row"][data-key="BTCUSDT"]');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    // The feed's quote is live in the table too.
    await expect.poll(() => row.getByTestId('quote-bid').count(), { timeout: 5_000 }).toBe(1);
    await row.click();
    const drawer = admin.getByTestId('instrument-drawer');
    await drawer.waitFor();

    // A rule broken in the form is caught before anything is sent.
    const saves: string[] = [];
    admin.on('request', (request) => {
      if (request.url().endsWith('/admin/market/instrumentsave')) saves.push(request.postData() ?? '');
    });
    await drawer.locator('input[name=minVolume]').fill('0.015');
    await admin.getByTestId('instrument-review').click();
    await expect.poll(() => drawer.locator('[role=alert]').first().textContent()).toContain('2 decimals');
    expect(saves).toHaveLength(0);
    await drawer.locator('input[name=minVolume]').fill('0.01');

    await drawer.locator('input[name=markupPoints]').fill('10000');
    await admin.getByTestId('instrument-review').click();
    const changes = admin.getByTestId('instrument-changes');
    await changes.waitFor();
    expect(
      await changes.locator('[data-key]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key'))),
    ).toEqual(['markupPoints']);
    expect(await changes.textContent()).toContain('0 pts→10,000 pts');
    const saved = admin.waitForResponse((r) => r.url().endsWith('/admin/market/instrumentsave'));
    await admin.getByTestId('confirm-ok').click();
    const answer = (await (await saved).json()) as { success: boolean; data: { applied: boolean } };
    const savedAt = Date.now();
    expect(answer.success).toBe(true);
    expect(answer.data.applied).toBe(true);

    // The portal page, open all along, shows the wider spread within a second.
    await expect
      .poll(() => portalSpread(portal), { timeout: 1_000, interval: 50 })
      .toBeGreaterThanOrEqual(12_000);
    expect(Date.now() - savedAt).toBeLessThan(1_000);

    // The back office says so, and the history keeps who changed what.
    await expect.poll(() => admin.getByTestId('market-notice').textContent()).toContain('BTCUSDT saved');
    await admin.getByTestId('tab-/market/history').click();
    const entry = admin.getByTestId('history-row').first();
    await expect.poll(() => entry.textContent(), { timeout: 10_000 }).toContain('BTCUSDT');
    expect(await entry.textContent()).toContain('Spread markup');
    expect(await entry.textContent()).toContain('10,000 pts');

    await staffContext.close();
    await portalContext.close();
  });
});

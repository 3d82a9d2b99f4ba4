import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { AUDIT_PATHS } from '@broker/contracts/admin/audit-paths';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../apps/server/test/helpers';
import { Trader } from '../../apps/server/test/trader';
import { ADMIN_PASSWORD, newContext, serverAndBrowser, signInStaff, staffPage } from './support';

const running = serverAndBrowser();

/** A demo trade closed through the API, as the terminal does: one deal for today's statistics. */
async function closedDemoTrade() {
  const trader = await Trader.signIn(running.server.baseUrl);
  const accountId = await trader.createAccount(1, 2, 100);
  const buy = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.03' });
  expect(buy.body.success, buy.body.message).toBe(true);
  const close = await trader.call('/api/v1/order/close', {
    account_id: accountId,
    order_id: buy.body.data.ticket,
    idempotencyKey: randomUUID(),
  });
  expect(close.body.data.closed, close.body.message).toBe(1);
}

describe('operation history, statistics and versions in the browser', () => {
  it('records a release made on the versions page, finds it in the history by its action, and shows the chain intact', async () => {
    const { context, page } = await staffPage(running.browser, running.server.baseUrl);
    await page.goto(`${running.server.baseUrl}/admin/versions`);
    await page.locator('[data-testid=version-new]').click();
    const editor = page.locator('[data-testid=version-editor]');
    await editor.locator('[data-testid=version-platform]').selectOption('ios');
    await editor.locator('[data-testid=version-version]').fill('3.2');
    await editor.locator('[data-testid=version-save]').click();
    // Checked before the server is asked: not a semantic version, no notes.
    await expect.poll(() => editor.locator('.field-error').count()).toBeGreaterThanOrEqual(2);
    await editor.locator('[data-testid=version-version]').fill('3.2.1');
    await editor.locator('[data-testid=version-build]').fill('321');
    await editor
      .locator('[data-testid=version-url]')
      .fill('https://downloads.example.com/northstar-3.2.1.ipa');
    await editor.locator('[data-testid=version-notes-zh-CN]').fill('全新图表');
    await editor.locator('[data-testid=version-notes-en]').fill('New charts');
    await editor.locator('[data-testid=version-save]').click();
    // Nothing is saved before the confirmation.
    await page.locator('[data-testid=confirm-dialog]').waitFor();
    await page.locator('[data-testid=confirm-ok]').click();
    await expect
      .poll(() => page.locator('[data-testid=version-row]').allTextContents(), { timeout: 10_000 })
      .toEqual([expect.stringContaining('3.2.1')]);
    const check = await new ApiClient(running.server.baseUrl).post(AUDIT_PATHS.appversion, {
      platform: 'ios',
      version: '3.0.0',
    });
    expect(check.body.data).toMatchObject({
      updateAvailable: true,
      latest: { version: '3.2.1', notes: expect.any(String) },
    });

    await page.goto(`${running.server.baseUrl}/admin/operations`);
    await expect
      .poll(() => page.locator('[data-testid=chain-intact]').textContent(), { timeout: 10_000 })
      .toMatch(/^Chain intact \(\d+ entries\)$/);
    await page.locator('[data-testid=filter-action]').fill('versions.create');
    await page.locator('[data-testid=filter-apply]').click();
    await expect
      .poll(() => page.locator('[data-testid=operations-row]').count(), { timeout: 10_000 })
      .toBe(1);
    expect(new URL(page.url()).searchParams.get('action')).toBe('versions.create');
    const row = page.locator('[data-testid=operations-row]');
    expect(await row.textContent()).toContain('admin');
    await row.click();
    const detail = page.locator('[data-testid=operation-detail]');
    await expect
      .poll(() => detail.locator('[data-testid=detail-action]').textContent())
      .toBe('versions.create');
    expect(await detail.locator('[data-testid=detail-json]').textContent()).toContain('"version": "3.2.1"');
    expect(await detail.locator('[data-testid=detail-integrity]').textContent()).toBe('Matches its hash');
    expect(await detail.locator('[data-testid=detail-hash]').textContent()).toMatch(/^[0-9a-f]{64}$/);
    await page.keyboard.press('Escape');
    await expect.poll(() => detail.count()).toBe(0);

    // Another actor kind finds nothing for that action.
    await page.locator('[data-testid=filter-kind]').selectOption('user');
    await page.locator('[data-testid=filter-apply]').click();
    await expect.poll(() => page.locator('[data-testid=operations-table-empty]').count()).toBe(1);
    await context.close();
  });

  it('shows the statistics of a date range with its charts, for the accounts chosen', async () => {
    await closedDemoTrade();
    const { context, page } = await staffPage(running.browser, running.server.baseUrl);
    await page.goto(`${running.server.baseUrl}/admin/statistics`);
    const charts = page.locator('[data-testid=stats-charts] figure');
    await expect.poll(() => charts.count(), { timeout: 10_000 }).toBe(4);
    for (const id of ['chart-people', 'chart-volume', 'chart-pnl', 'chart-funding']) {
      const svg = page.locator(`[data-testid=${id}] svg[role=img]`);
      expect(await svg.count()).toBe(1);
      expect(await svg.locator('desc').textContent()).toMatch(/total/);
    }
    expect(await page.locator('[data-testid=stats-range]').textContent()).toContain('(30 days)');
    // The trade was on a demo account: real accounts (the default) have no volume.
    const volume = page.locator('[data-testid=stats-card-volume] .bo-stat-value');
    await expect.poll(() => volume.textContent()).toBe('0.00');
    await page.locator('[data-testid=stats-scope] [data-value=demo]').click();
    await expect.poll(() => volume.textContent(), { timeout: 10_000 }).toBe('0.03');
    await expect
      .poll(() => page.locator('[data-testid=stats-symbols] tbody tr').first().textContent())
      .toContain('BTCUSDT');
    // One bar on today in the volume chart, none on the other days.
    expect(await page.locator('[data-testid=chart-volume] svg rect[fill]').count()).toBe(1);

    await page.locator('[data-testid=stats-preset] [data-value="7d"]').click();
    await expect.poll(() => page.locator('[data-testid=stats-range]').textContent()).toContain('(7 days)');
    await page.locator('[data-testid=stats-preset] [data-value=custom]').click();
    await page.locator('[data-testid=stats-from]').fill('2026-01-01');
    await page.locator('[data-testid=stats-to]').fill('2026-01-10');
    await page.locator('[data-testid=stats-apply]').click();
    await expect
      .poll(() => page.locator('[data-testid=stats-range]').textContent())
      .toContain('2026-01-01 to 2026-01-10 (10 days)');
    await expect
      .poll(() => page.locator('[data-testid=chart-volume] desc').textContent())
      .toContain('total 0.00');
    await context.close();
  });

  it('takes the screenshots for review when AUDIT_SHOTS names a folder', async () => {
    const folder = process.env.AUDIT_SHOTS;
    if (!folder) return;
    mkdirSync(folder, { recursive: true });
    await seedForShots();
    for (const mobile of [false, true]) {
      const context = await newContext(running.browser, { mobile });
      const page = await context.newPage();
      await signInStaff(page, running.server.baseUrl);
      for (const lang of ['en', 'zh-CN'])
        for (const theme of ['white', 'dark']) {
          await page.evaluate(
            ([l, th]) => {
              localStorage.setItem('admin_lang', l as string);
              localStorage.setItem('admin_theme', th as string);
            },
            [lang, theme],
          );
          for (const path of ['operations', 'statistics', 'versions', 'packages']) {
            // Statistics over every account, so the demo trades of the tests above show.
            await page.goto(
              `${running.server.baseUrl}/admin/${path}${path === 'statistics' ? '?scope=all' : ''}`,
            );
            await page.locator(`[data-testid=${path}-page]`).waitFor();
            await page.waitForTimeout(800);
            await page.screenshot({
              path: `${folder}/${path}-${mobile ? 'mobile' : 'desktop'}-${lang}-${theme}.png`,
              fullPage: true,
            });
          }
          if (!mobile && theme === 'white') {
            await page.goto(`${running.server.baseUrl}/admin/operations`);
            await page.locator('[data-testid=operations-row]').first().click();
            await page.locator('[data-testid=detail-json]').waitFor();
            await page.screenshot({ path: `${folder}/operations-detail-${lang}.png` });
            await page.goto(`${running.server.baseUrl}/admin/versions`);
            await page.locator('[data-testid=version-new]').click();
            await page.screenshot({ path: `${folder}/versions-editor-${lang}.png` });
            await page.goto(`${running.server.baseUrl}/admin/packages`);
            await page.locator('[data-testid=package-new]').click();
            await page.screenshot({ path: `${folder}/packages-editor-${lang}.png` });
          }
        }
      await context.close();
    }
  }, 900_000);
});

/** Releases, packages and a second broker, so the review screenshots show filled pages. */
async function seedForShots() {
  const api = new ApiClient(running.server.baseUrl);
  const login = await api.post('/api/v1/admin/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
  const csrf = { 'x-csrf-token': login.body.data.csrfToken };
  for (const [platform, version, force] of [
    ['android', '3.1.0', false],
    ['android', '3.2.0', true],
    ['windows', '1.8.4', false],
    ['web', '2026.1.0', false],
  ] as const)
    await api.post(
      AUDIT_PATHS.adminversionsave,
      {
        platform,
        version,
        buildNumber: 100,
        forceUpdate: force,
        minSupportedVersion: null,
        notes: { 'zh-CN': '性能改进与问题修复', en: 'Performance improvements and fixes' },
        downloadUrl: 'https://downloads.example.com/app',
        releasedAt: new Date(Date.now() - 86_400_000).toISOString(),
      },
      csrf,
    );
  const pack = await api.post(
    AUDIT_PATHS.adminpackagesave,
    {
      name: 'Standard',
      description: 'Trading, customers and statistics for a growing broker',
      modules: ['statistics', 'users', 'market', 'risk', 'funding', 'kyc'],
      limits: { staff: 20, customers: 5000, tradingAccounts: 20000, symbols: 60 },
    },
    csrf,
  );
  await api.post(
    AUDIT_PATHS.adminpackagesave,
    {
      name: 'Starter',
      description: 'Market making basics',
      modules: ['users', 'market'],
      limits: { staff: 3, customers: 500, tradingAccounts: null, symbols: 20 },
    },
    csrf,
  );
  const broker = await api.post(
    '/api/v1/admin/access/broker/create',
    {
      name: 'Harbor FX',
      slug: 'harbor',
      hosts: ['harbor.example.test'],
      adminUsername: 'harboradmin',
      adminPassword: 'Harbor-Admin-2026!',
    },
    csrf,
  );
  if (broker.body.success)
    await api.post(
      AUDIT_PATHS.adminpackageassign,
      { tenantId: broker.body.data.id, packageId: pack.body.data.id },
      csrf,
    );
}

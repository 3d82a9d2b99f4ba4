import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, launchBrowser, newContext, startServer, type TRunningServer } from './support';

let server: TRunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('back office in the browser', () => {
  it('prints the administrator log-in at start and signs in at /admin', async () => {
    expect(server.output()).toContain(`admin / ${ADMIN_PASSWORD}`);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin`);
    await page.waitForURL('**/admin/login**');
    await page.locator('input[name=username]').fill('admin');
    await page.locator('input[name=password]').fill('wrong-password');
    await page.locator('button[type=submit]').click();
    await expect.poll(() => page.locator('[role=alert]').first().textContent()).toBeTruthy();
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await page.locator('input[name=password]').fill(ADMIN_PASSWORD);
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/'),
      page.locator('button[type=submit]').click(),
    ]);
    await expect.poll(() => page.locator('nav a[href="/admin/kyc"]').count()).toBe(1);
    expect(await page.locator('nav a').count()).toBeGreaterThanOrEqual(12);
    const cookie = (await context.cookies()).find((c) => c.name === 'admin_token');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    await context.close();
  });

  it('rejects bad input before and after the server', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin/login`);
    await page.locator('input[name=username]').fill('bad name!');
    await page.locator('input[name=password]').fill('123');
    await page.locator('button[type=submit]').click();
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    const direct = await fetch(`${server.baseUrl}/api/v1/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bad name!', password: '123' }),
    });
    expect(((await direct.json()) as { errorCode: number }).errorCode).toBe(-9001);
    await context.close();
  });
});

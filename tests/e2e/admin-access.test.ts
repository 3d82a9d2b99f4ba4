import { routeCatalogue } from '@broker/contracts/routes';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, newContext, serverAndBrowser } from './support';

const running = serverAndBrowser();

/** The code the authenticator app would show now, computed like the server checks it (otpauth, SHA-1, 30 s). */
const codeFor = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

async function fillCredentials(page: Page, username: string, password: string) {
  await page.goto(`${running.server.baseUrl}/admin/login`);
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
}

const atHome = (url: URL) => !url.pathname.startsWith('/admin/login');

let adminSecret = '';

describe('back-office access in the browser', () => {
  it('lets the administrator turn on two-factor and then asks for the code at sign-in', async () => {
    const context = await newContext(running.browser);
    const page = await context.newPage();
    await fillCredentials(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(atHome);
    await page.locator('[data-testid=open-security]').click();
    const dialog = page.locator('[data-testid=security-dialog]');
    await expect.poll(() => dialog.locator('[data-testid=my-totp-state]').textContent()).toBe('Off');
    await dialog.locator('[data-testid=totp-start]').click();
    await dialog.locator('.ac-qr svg').waitFor();
    adminSecret = (await dialog.locator('[data-testid=totp-secret]').getAttribute('data-secret')) ?? '';
    expect(adminSecret).toMatch(/^[A-Z2-7]{32}$/);
    await dialog.locator('[data-testid=totp-setup] input[name=code]').fill(codeFor(adminSecret));
    await dialog.locator('[data-testid=totp-setup] button[type=submit]').click();
    await expect.poll(() => dialog.locator('[data-testid=my-totp-state]').textContent()).toBe('On');
    await page.keyboard.press('Escape');
    await Promise.all([page.waitForURL('**/admin/login**'), page.locator('.bo-signout').click()]);

    // Back in: the password alone is not enough now.
    await fillCredentials(page, 'admin', ADMIN_PASSWORD);
    const step = page.locator('[data-testid=otp-step]');
    await step.waitFor();
    await step.locator('input[name=otp]').fill('000000' === codeFor(adminSecret) ? '111111' : '000000');
    await step.locator('button[type=submit]').click();
    await expect.poll(() => step.locator('[role=alert]').textContent()).toContain('wrong');
    await step.locator('input[name=otp]').fill(codeFor(adminSecret));
    await Promise.all([page.waitForURL(atHome), step.locator('button[type=submit]').click()]);
    await expect.poll(() => page.locator('[data-testid=open-security] svg').count()).toBe(1);
    await context.close();
  });

  it('creates a role with the users menu but not its disable button, and a staff member in it', async () => {
    const context = await newContext(running.browser);
    const page = await context.newPage();
    await fillCredentials(page, 'admin', ADMIN_PASSWORD);
    await page.locator('[data-testid=otp-step] input[name=otp]').fill(codeFor(adminSecret));
    await Promise.all([
      page.waitForURL(atHome),
      page.locator('[data-testid=otp-step] button[type=submit]').click(),
    ]);

    await page.goto(`${running.server.baseUrl}/admin/roles`);
    await page.locator('[data-testid=role-new]').click();
    const editor = page.locator('[data-testid=role-editor]');
    await editor.locator('input[name=name]').fill('Customer viewers');
    await editor.locator('input[data-permission="users.view"]').check();
    await editor.locator('input[data-permission="users.note"]').check();
    expect(await editor.locator('input[data-permission="users.disable"]').isChecked()).toBe(false);
    await editor.locator('button[type=submit]').click();
    await page.locator('[data-testid=confirm-ok]').click();
    await page.locator('[data-testid=role-row][data-name="Customer viewers"]').waitFor();

    await page.goto(`${running.server.baseUrl}/admin/staff`);
    await page.locator('[data-testid=staff-new]').click();
    const form = page.locator('[data-testid=staff-create]');
    await form.locator('input[name=username]').fill('viewer1');
    await form.locator('input[name=displayName]').fill('Vera Viewer');
    await form.locator('input[name=password]').fill('short');
    await expect
      .poll(() => form.locator('[data-testid=strength-meter]').getAttribute('data-strength'))
      .toBe('0');
    await form.locator('input[name=password]').fill('Viewer-Pass-2026!');
    await expect
      .poll(async () =>
        Number(await form.locator('[data-testid=strength-meter]').getAttribute('data-strength')),
      )
      .toBeGreaterThanOrEqual(3);
    await form.locator('label', { hasText: 'Customer viewers' }).locator('input').check();
    await form.locator('button[type=submit]').click();
    await page.locator('[data-testid=confirm-ok]').click();
    await expect
      .poll(() => page.locator('[data-testid=staff-row]', { hasText: 'viewer1' }).textContent())
      .toContain('Customer viewers');
    await context.close();
  });

  it('shows that staff member only what the role opens, and the server refuses the rest (403)', async () => {
    const context = await newContext(running.browser);
    const page = await context.newPage();
    await fillCredentials(page, 'viewer1', 'Viewer-Pass-2026!');
    // Without the dashboard's permission, home is the first module the role opens.
    await page.waitForURL('**/admin/users**');
    const links = await page.locator('.bo-nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links).toEqual(['/admin/users']);

    // The pages of other modules say no, and so does the server when called from the page directly.
    await page.goto(`${running.server.baseUrl}/admin/roles`);
    await expect.poll(() => page.locator('[data-testid=roles-page]').count()).toBe(0);
    const disableRoute = Object.values(routeCatalogue).find(
      (r) => r.access.kind === 'staff' && r.access.permission === 'users.disable',
    );
    const forbidden = [routeCatalogue.adminstafflist.path, routeCatalogue.adminrolesave.path];
    if (disableRoute) forbidden.push(disableRoute.path);
    for (const path of forbidden) {
      const answer = await page.evaluate(async (url) => {
        const csrf = document.cookie.match(/(?:^|; )admin_csrf=([^;]+)/)?.[1] ?? '';
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) },
          body: JSON.stringify({ id: 'x', name: 'Escalate', parentId: null, permissions: ['roles.edit'] }),
        });
        return { status: response.status, body: (await response.json()) as { errorCode: number } };
      }, path);
      expect(answer.status, path).toBe(403);
      expect(answer.body.errorCode, path).toBe(-1009);
    }
    // A call the role allows goes through from the same page.
    const me = await page.evaluate(async (url) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      return (await response.json()) as { data: { permissions: string[] } };
    }, routeCatalogue.adminme.path);
    expect(me.data.permissions).toEqual(['users.note', 'users.view']);
    await context.close();
  });
});

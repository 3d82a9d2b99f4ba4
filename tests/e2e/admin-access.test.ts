import { ALL_PERMISSIONS } from '@broker/contracts/permissions';
import { routeCatalogue } from '@broker/contracts/routes';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, newContext, serverAndBrowser, staffPage } from './support';

const running = serverAndBrowser();

/**
 * The code the authenticator app shows `steps` 30-second steps from now, computed like the server
 * checks it (otpauth, SHA-1, 30 s; one step either side accepted). A code is single use.
 */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

async function fillCredentials(page: Page, username: string, password: string) {
  await page.goto(`${running.server.baseUrl}/admin/login`);
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
}

const atHome = (url: URL) => !url.pathname.startsWith('/admin/login');

let adminSecret = '';

/** Calls a back-office route from the signed-in page (its cookies and CSRF token). */
async function callFromPage(page: Page, path: string, body: Record<string, unknown>) {
  return page.evaluate(
    async ({ url, input }) => {
      const csrf = document.cookie.match(/(?:^|; )admin_csrf=([^;]+)/)?.[1] ?? '';
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) },
        body: JSON.stringify(input),
      });
      // biome-ignore lint/suspicious/noExplicitAny: the test reads answers of several routes
      return (await response.json()) as { success: boolean; errorCode: number; data: any };
    },
    { url: path, input: body },
  );
}

describe('back-office access in the browser', () => {
  // First, while the administrator still signs in with the password alone (two-factor comes next).
  it('keeps a weaker sign-in rule waiting until a second staff member approves it', async () => {
    const requester = await staffPage(running.browser, running.server.baseUrl);
    const role = await callFromPage(requester.page, routeCatalogue.adminrolesave.path, {
      name: 'Security officers',
      parentId: null,
      // Lowering the minimum protects every staff member less: the approver holds every permission.
      permissions: [...ALL_PERMISSIONS],
    });
    expect(role.success).toBe(true);
    const officer = await callFromPage(requester.page, routeCatalogue.adminstaffcreate.path, {
      username: 'secofficer',
      displayName: 'Sam Security',
      password: 'Officer-Pass-2026!',
      roleIds: [role.data.id],
    });
    expect(officer.success).toBe(true);

    // The administrator lowers the minimum: the page asks for approval instead of saving.
    await requester.page.goto(`${running.server.baseUrl}/admin/staff`);
    const panel = requester.page.locator('[data-testid=staff-settings]');
    await panel.locator('input[name=passwordMinLength]').fill('6');
    await expect
      .poll(() => panel.locator('[data-testid=settings-save]').textContent())
      .toBe('Ask for approval');
    await panel.locator('[data-testid=settings-save]').click();
    await requester.page.locator('[data-testid=confirm-ok]').click();
    const request = panel.locator('[data-testid=policy-request]');
    await expect
      .poll(() => request.locator('[data-testid=policy-status]').textContent())
      .toBe('Awaiting a second approver');
    // The rule in force is unchanged, the requester may withdraw but not approve.
    expect(await panel.locator('input[name=passwordMinLength]').inputValue()).toBe('8');
    expect(await request.locator('[data-testid=policy-cancel]').count()).toBe(1);
    expect(await request.locator('[data-testid=policy-approve]').count()).toBe(0);
    expect(await request.locator('tr[data-weaker]').textContent()).toContain('6');

    // A second staff member with the permission sees Approve and Reject, and approves.
    const approver = await staffPage(
      running.browser,
      running.server.baseUrl,
      'secofficer',
      'Officer-Pass-2026!',
    );
    await approver.page.goto(`${running.server.baseUrl}/admin/staff`);
    const theirs = approver.page.locator('[data-testid=staff-settings] [data-testid=policy-request]');
    await theirs.locator('[data-testid=policy-approve]').waitFor();
    expect(await theirs.textContent()).toContain('@admin');
    expect(await theirs.locator('[data-testid=policy-reject]').count()).toBe(1);
    expect(await theirs.locator('[data-testid=policy-cancel]').count()).toBe(0);
    await theirs.locator('[data-testid=policy-approve]').click();
    await approver.page.locator('[data-testid=confirm-ok]').click();
    await approver.page.locator('[data-testid=policy-notice]').waitFor();
    // The list reloads after the notice: the request leaves once the new rules are read.
    await expect.poll(() => theirs.count()).toBe(0);
    await expect.poll(() => approver.page.locator('input[name=passwordMinLength]').inputValue()).toBe('6');
    const list = await callFromPage(requester.page, routeCatalogue.adminstafflist.path, {});
    expect(list.data.settings.passwordMinLength).toBe(6);
    expect(list.data.policyRequest).toBeNull();
    await requester.context.close();
    await approver.context.close();
  });

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
    // Codes are single use: confirm with the previous step's, sign in with this step's and the next.
    await dialog.locator('[data-testid=totp-setup] input[name=code]').fill(codeFor(adminSecret, -1));
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
    await page.locator('[data-testid=otp-step] input[name=otp]').fill(codeFor(adminSecret, 1));
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

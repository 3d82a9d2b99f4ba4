import { randomUUID } from 'node:crypto';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from '../../apps/server/src/modules/identity/captcha';
import { holdRequests, launchBrowser, newContext, startServer, type TRunningServer } from './support';

let server: TRunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface TEnvelope {
  success: boolean;
  errorCode: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of every route
  data: any;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(server.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const cookies = Object.fromEntries(
    response.headers.getSetCookie().map((line) => line.split(';')[0]!.split('=') as [string, string]),
  );
  return { ...((await response.json()) as TEnvelope), cookies };
}

/** The newest 4-digit code mailed to an address, from the developer mailbox. */
async function mailedCode(to: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const box = (await (
      await fetch(`${server.baseUrl}/dev/mailbox.json?to=${encodeURIComponent(to)}`)
    ).json()) as { mails: { text: string }[] };
    const code = box.mails[0]?.text.match(/\b(\d{4})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code mailed to ${to}`);
}

/** A fresh trader registered through the API, so each scenario starts from its own account. */
async function registerTrader(overrides: { password?: string } = {}) {
  const email = `settings.${randomUUID().slice(0, 8)}@example.com`;
  const password = overrides.password ?? 'Settings2026';
  const challenge = (await post(ROUTE_PATHS.captcha, {})).data as {
    id: string;
    salt: string;
    difficulty: number;
  };
  const sent = await post(ROUTE_PATHS.sendcode, {
    email,
    purpose: 'register',
    captcha: { id: challenge.id, nonce: solveChallenge(challenge.salt, challenge.difficulty) },
  });
  expect(sent.success, 'code sent').toBe(true);
  const registered = await post(ROUTE_PATHS.register, {
    email,
    code: await mailedCode(email),
    password,
    confirmPassword: password,
  });
  expect(registered.success, 'registered').toBe(true);
  // Registering signs in; that session is not one of the browsers the scenarios look at.
  const { token, csrf } = registered.cookies;
  await post(ROUTE_PATHS.logout, {}, { cookie: `token=${token}; csrf=${csrf}`, 'x-csrf-token': csrf ?? '' });
  return { email, password };
}

/** Signs a browser context in (its cookie jar receives the session), answering the envelope. */
async function signIn(context: BrowserContext, user: { email: string; password: string }, otp?: string) {
  const response = await context.request.post(server.baseUrl + ROUTE_PATHS.login, {
    data: { email: user.email, password: user.password, ...(otp ? { otp } : {}) },
  });
  return (await response.json()) as TEnvelope;
}

async function signedInPage(user: { email: string; password: string }, options = {}) {
  const context = await newContext(browser, options);
  expect((await signIn(context, user)).success).toBe(true);
  return { context, page: await context.newPage() };
}

async function openPreferences(page: Page) {
  await page.goto(`${server.baseUrl}/en/personalCenter/setting`);
  await page.getByTestId('preferences').waitFor();
}

async function waitSaved(page: Page) {
  await eventually(() => page.getByTestId('save-status').getAttribute('data-status')).toBe('saved');
}

/** Polls for a value that arrives with the page's scripts and calls (longer than the 1 s default). */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
/** The authenticator code `steps` 30-second steps from now (the server accepts one either side; single use). */
const totpCode = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

describe('settings in the browser', () => {
  it('switches the whole page to the white theme at once, and the choice survives a reload', async () => {
    const { context, page } = await signedInPage(await registerTrader());
    const otherTab = await context.newPage();
    await otherTab.goto(`${server.baseUrl}/en/personalCenter/account`);
    await openPreferences(page);
    expect(await page.getAttribute('html', 'data-theme')).toBe('navy');
    const navy = await bodyBackground(page);
    // The side menu keeps the settings entry active for every settings tab.
    expect(await page.locator('.pc-menu-item.active').getAttribute('data-section')).toBe('setting');

    // Hold the save on its way to show that the page changes before the server answers.
    const release = await holdRequests(page, '**/savesettings');
    await page.getByTestId('theme-white').click();
    await eventually(() => page.getAttribute('html', 'data-theme')).toBe('white');
    expect(await page.getByTestId('save-status').getAttribute('data-status')).toBe('saving');
    expect(await bodyBackground(page)).not.toBe(navy);
    expect(await bodyBackground(page)).toBe('rgb(245, 247, 251)');
    release();
    await waitSaved(page);
    await page.unroute('**/savesettings');
    // Another open tab of the portal follows once the choice is saved.
    await eventually(() => otherTab.getAttribute('html', 'data-theme')).toBe('white');

    const response = await page.reload();
    expect(await response!.text()).toContain('data-theme="white"');
    expect(await bodyBackground(page)).toBe('rgb(245, 247, 251)');
    await page.getByTestId('preferences').waitFor();
    expect(await page.getByTestId('theme-white').locator('input').isChecked()).toBe(true);
    await context.close();
  });

  it('changes the rise colour of an open market page when the kline colour is switched', async () => {
    const { context, page } = await signedInPage(await registerTrader());
    const market = await context.newPage();
    await market.goto(`${server.baseUrl}/en/markets/EURUSD`);
    const scope = market.getByTestId('symbol-page');
    await scope.waitFor();
    const riseColour = () =>
      scope.evaluate((el) => {
        const style = getComputedStyle(el);
        return {
          rise: style.getPropertyValue('--rise').trim(),
          down: style.getPropertyValue('--down').trim(),
        };
      });
    await openPreferences(page);
    const greenUp = page.getByTestId('kline-1').locator('input');
    const redUp = page.getByTestId('kline-0').locator('input');
    // A trader without a country gets green up; the market page agrees with the settings screen.
    expect(await greenUp.isChecked()).toBe(true);
    expect(await scope.getAttribute('data-kline')).toBe('1');
    expect((await riseColour()).rise).not.toBe((await riseColour()).down);

    await page.getByTestId('kline-0').click();
    expect(await redUp.isChecked()).toBe(true);
    await waitSaved(page);
    // The other tab follows at once, without a reload: red is now the rising colour.
    await eventually(() => scope.getAttribute('data-kline')).toBe('0');
    const after = await riseColour();
    expect(after.rise).toBe(after.down);

    await market.reload();
    await scope.waitFor();
    await eventually(() => scope.getAttribute('data-kline')).toBe('0');
    expect((await context.cookies()).find((c) => c.name === 'klineColor')?.value).toBe('0');
    await context.close();
  });

  it('keeps notification and display switches after a reload', async () => {
    const { context, page } = await signedInPage(await registerTrader());
    await openPreferences(page);
    const createOrder = page.getByTestId('notification-createOrder');
    const ringsOpen = page.getByTestId('notification-ringsOpen');
    const historyOrder = page.getByTestId('display-historyOrder');
    const before = {
      createOrder: await createOrder.isChecked(),
      ringsOpen: await ringsOpen.isChecked(),
      historyOrder: await historyOrder.isChecked(),
    };
    await createOrder.click();
    await ringsOpen.click();
    await historyOrder.click();
    expect(await createOrder.isChecked()).toBe(!before.createOrder);
    await waitSaved(page);

    await page.reload();
    await page.getByTestId('preferences').waitFor();
    expect(await createOrder.isChecked()).toBe(!before.createOrder);
    expect(await ringsOpen.isChecked()).toBe(!before.ringsOpen);
    expect(await historyOrder.isChecked()).toBe(!before.historyOrder);
    expect(await createOrder.getAttribute('aria-checked')).toBe(String(!before.createOrder));
    await context.close();
  });

  it('rolls a change back with an error when it cannot be saved', async () => {
    const { context, page } = await signedInPage(await registerTrader());
    await openPreferences(page);
    const closeOrder = page.getByTestId('notification-closeOrder');
    const before = await closeOrder.isChecked();
    await page.route('**/savesettings', (route) => route.abort());
    await closeOrder.click();
    await page.getByTestId('save-error').waitFor();
    expect(await closeOrder.isChecked()).toBe(before);
    await page.unroute('**/savesettings');
    await context.close();
  });

  it('turns on two-factor sign-in with a code from the app, then every sign-in needs the code', async () => {
    const user = await registerTrader();
    const { context, page } = await signedInPage(user);
    await page.goto(`${server.baseUrl}/en/personalCenter/setting/security`);
    const card = page.getByTestId('two-factor-card');
    await eventually(() => card.getByTestId('two-factor-state').textContent()).toBe('Off');
    await card.getByTestId('two-factor-setup').click();
    await card.getByTestId('two-factor-qr').locator('svg').waitFor();
    const secret = (await card.getByTestId('two-factor-secret').getAttribute('data-secret')) as string;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

    const enable = card.getByTestId('two-factor-enable');
    await enable.locator('input[name=otp]').fill('12345');
    await enable.getByTestId('two-factor-enable-submit').click();
    await eventually(() => enable.locator('.field-error').textContent()).toBe('The code has 6 digits.');
    // The confirming code is used up: confirm with the previous step's, sign in with this step's.
    await enable.locator('input[name=otp]').fill(totpCode(secret, -1));
    await enable.getByTestId('two-factor-enable-submit').click();
    await eventually(() => card.getByTestId('two-factor-state').textContent()).toBe('On');
    await card.getByTestId('two-factor-disable').waitFor();

    // Sign out through the user menu, then sign in again: the password alone is not enough.
    await page.getByTestId('user-menu').click();
    await Promise.all([page.waitForURL(`${server.baseUrl}/en`), page.locator('[data-command="5"]').click()]);
    await page.goto(`${server.baseUrl}/en/personalCenter/setting/security`);
    expect(new URL(page.url()).pathname).toBe('/en/login');
    await page.locator('input[name=email]').fill(user.email);
    await page.locator('input[name=password]').fill(user.password);
    await page.getByTestId('login-submit').click();
    const otp = page.getByTestId('login-otp');
    await otp.waitFor();
    const current = totpCode(secret);
    await otp.fill(current === '123456' ? '654321' : '123456');
    await page.getByTestId('login-submit').click();
    await eventually(() =>
      page.locator('label:has([data-testid=login-otp]) .field-error').textContent(),
    ).toBe('The two-factor code is wrong.');
    await otp.fill(totpCode(secret));
    await Promise.all([
      page.waitForURL(`${server.baseUrl}/en/personalCenter/setting/security`),
      page.getByTestId('login-submit').click(),
    ]);
    await eventually(() => card.getByTestId('two-factor-state').textContent()).toBe('On');
    // The API says the same: the password alone is refused with "code required".
    const elsewhere = await newContext(browser);
    expect((await signIn(elsewhere, user)).errorCode).toBe(-1016);
    await elsewhere.close();
    await context.close();
  });

  it('lists both sessions and signs the other one out; it is signed out on its next navigation', async () => {
    const user = await registerTrader();
    const first = await signedInPage(user);
    const second = await signedInPage(user, { mobile: true });
    await second.page.goto(`${server.baseUrl}/en/personalCenter/account`);
    await second.page.getByTestId('pc-menu').waitFor();

    await first.page.goto(`${server.baseUrl}/en/personalCenter/setting/security`);
    const sessions = first.page.getByTestId('session');
    await eventually(() => sessions.count()).toBe(2);
    expect(
      await first.page.locator('[data-current="true"]').getByTestId('session-current').textContent(),
    ).toBe('This device');
    const other = first.page.locator('[data-testid=session][data-current="false"]');
    expect(await other.textContent()).toContain('Safari on iPhone');

    // Cancelling the question keeps the session.
    await other.getByTestId('session-revoke').click();
    await first.page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await sessions.count()).toBe(2);

    await other.getByTestId('session-revoke').click();
    await first.page.getByTestId('confirm-dialog-confirm').click();
    await eventually(() => sessions.count()).toBe(1);
    await first.page.getByText('1 session was signed out.').waitFor();

    // The second browser still shows the centre; its next navigation inside it goes to sign-in.
    await Promise.all([
      second.page.waitForURL(/\/en\/login\?redirect=/),
      second.page.locator('[data-section="setting"]').click(),
    ]);
    await first.context.close();
    await second.context.close();
  });

  it('signs every other session out at once after confirmation', async () => {
    const user = await registerTrader();
    const first = await signedInPage(user);
    const others = [await signedInPage(user), await signedInPage(user)];
    await first.page.goto(`${server.baseUrl}/en/personalCenter/setting/security`);
    await eventually(() => first.page.getByTestId('session').count()).toBe(3);
    await first.page.getByTestId('sessions-revoke-others').click();
    expect(await first.page.getByTestId('confirm-dialog').textContent()).toContain(
      '2 other sessions will end',
    );
    await first.page.getByTestId('confirm-dialog-confirm').click();
    await eventually(() => first.page.getByTestId('session').count()).toBe(1);
    expect(await first.page.getByTestId('sessions-revoke-others').count()).toBe(0);
    for (const other of others) {
      await other.page.goto(`${server.baseUrl}/en/personalCenter/account`);
      expect(new URL(other.page.url()).pathname).toBe('/en/login');
      await other.context.close();
    }
    await first.context.close();
  });

  it('changes the password, ends every session including the other browser, and asks to sign in again', async () => {
    const user = await registerTrader();
    const first = await signedInPage(user);
    const second = await signedInPage(user);
    const { page } = first;
    await page.goto(`${server.baseUrl}/en/personalCenter/setting/security`);
    const form = page.getByTestId('password-card');
    const submit = () => form.getByTestId('password-submit').click();
    const error = (name: string) => form.locator(`label:has(input[name=${name}]) .field-error`).textContent();

    await form.locator('input[name=oldPassword]').fill(user.password);
    await form.locator('input[name=password]').fill(user.password);
    await form.locator('input[name=confirmPassword]').fill('Different1');
    await submit();
    expect(await error('password')).toBe('The new password must differ from the old one.');
    expect(await error('confirmPassword')).toBe('The two passwords do not match.');

    await form.locator('input[name=password]').fill('with space');
    await submit();
    expect(await error('password')).toBe('The password must not contain spaces.');

    await form.locator('input[name=oldPassword]').fill('not-the-password');
    await form.locator('input[name=password]').fill('Changed2026');
    await form.locator('input[name=confirmPassword]').fill('Changed2026');
    await submit();
    await eventually(() => error('oldPassword')).toBe('The current password is wrong.');

    await form.locator('input[name=oldPassword]').fill(user.password);
    await submit();
    await form.getByTestId('password-changed').waitFor();
    expect(await form.getByTestId('password-changed').textContent()).toContain('every session has ended');

    await second.page.goto(`${server.baseUrl}/en/personalCenter/account`);
    expect(new URL(second.page.url()).pathname).toBe('/en/login');
    await Promise.all([page.waitForURL(/\/en\/login\?redirect=/), form.getByRole('link').click()]);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/en/personalCenter/setting/security');
    expect((await signIn(first.context, user)).success).toBe(false);
    expect((await signIn(first.context, { ...user, password: 'Changed2026' })).success).toBe(true);
    await first.context.close();
    await second.context.close();
  });

  it('keeps every tab of the settings on a phone screen, in German', async () => {
    const { context, page } = await signedInPage(await registerTrader(), { mobile: true });
    await page.goto(`${server.baseUrl}/de/personalCenter/setting/feedback`);
    await page.locator('.st-tab.active[data-tab="feedback"]').waitFor();
    expect(await page.locator('.pc-menu-item.active').getAttribute('data-section')).toBe('setting');
    await page.goto(`${server.baseUrl}/de/personalCenter/setting/security`);
    await page.getByTestId('sessions').waitFor();
    expect(await page.title()).toContain('Sicherheit');
    expect(await page.getByTestId('password-card').locator('h2').textContent()).toBe('Passwort');
    await page.goto(`${server.baseUrl}/de/personalCenter/setting`);
    await page.getByTestId('preferences').waitFor();
    // Nothing wider than the phone's screen: long German tab names scroll inside the tab row.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();
  });
});

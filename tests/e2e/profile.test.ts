import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newContext, startServer, type TRunningServer } from './support';

const en = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../packages/i18n/locales/en.json'), 'utf8'),
) as Record<string, string>;

let server: TRunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CAPTCHA_DIFFICULTY: '4' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A real, decodable PNG of `size` × `size` pixels in one colour. */
function pngImage(size = 4, rgb: [number, number, number] = [47, 107, 255]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.from([0, ...Array.from({ length: size }, () => rgb).flat()]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const GIF = Buffer.from(
  'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x00\x00\x00\x00\x00;',
);

const headerName = (page: Page) => page.getByTestId('user-menu').textContent();

async function signedInContext(): Promise<BrowserContext> {
  const context = await newContext(browser);
  const response = await context.request.post(server.baseUrl + ROUTE_PATHS.login, {
    data: { email: DEMO.email, password: DEMO.password },
  });
  expect(((await response.json()) as { success: boolean }).success).toBe(true);
  return context;
}

/** Opens a page and waits until it is hydrated and has nothing left to load. */
async function open(page: Page, path: string) {
  await page.goto(server.baseUrl + path);
  await page.waitForLoadState('networkidle');
}

/** Signs in at the sandbox provider's own pages (any login and password), then consents. */
async function passProvider(page: Page, login: string) {
  await page.waitForURL((url) => !url.href.startsWith(server.baseUrl), { waitUntil: 'commit' });
  const loginField = page.locator('input[name=login]');
  await loginField.waitFor();
  await loginField.fill(login);
  await page.locator('input[name=password]').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.href.startsWith(server.baseUrl), { waitUntil: 'domcontentloaded' });
}

/** The newest 4-digit code texted or mailed to `to`, from the developer mailbox. */
async function codeFor(to: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const box = (await (
      await fetch(`${server.baseUrl}/dev/mailbox.json?to=${encodeURIComponent(to)}`)
    ).json()) as { mails: { text: string }[]; texts: { body: string }[] };
    const code = [...box.texts.map((t) => t.body), ...box.mails.map((m) => m.text)][0]?.match(
      /\b(\d{4})\b/,
    )?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code for ${to}`);
}

describe('profile, feedback and third-party accounts in the browser', () => {
  it('signs a new trader in with the sandbox OpenID provider from the sign-in page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await open(page, '/en/login');
    await page.getByRole('button', { name: 'Continue with Sandbox ID' }).click();
    await passProvider(page, 'alice.e2e');
    expect(new URL(page.url()).pathname).toBe('/en');
    await expect.poll(() => headerName(page)).toContain('alice.e2e');
    await context.close();
  });

  it('shows why a third-party sign-in failed, translated, with the way out for a taken email', async () => {
    const ja = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../packages/i18n/locales/ja.json'), 'utf8'),
    ) as Record<string, string>;
    const context = await newContext(browser);
    const page = await context.newPage();
    await open(page, '/ja/login?unionError=-1003');
    expect(await page.getByTestId('union-error').locator('p').allTextContents()).toEqual([
      ja['errors.-1003'],
      ja['union.emailTaken'],
    ]);
    await open(page, '/ja/login?unionError=bogus');
    expect(await page.getByTestId('union-error').textContent()).toBe(ja['errors.-1018']);
    await context.close();
  });

  it('links the sandbox account to the demo trader from the security tab, then unlinks it', async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    // The page's whole catalog arrives late, as on a slow link: the notice shown as the page opens
    // must still get its text once it has.
    await page.route('**/assets/catalog-*.json', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await open(page, '/en/personalCenter/setting/security');
    const provider = page.locator('[data-testid=provider][data-provider=sandbox]');
    expect(await provider.getAttribute('data-bound')).toBe('false');
    await provider.getByTestId('provider-link').click();
    await passProvider(page, 'demo-link');

    const notice = page.getByTestId('union-notice');
    // The notice's message may arrive with the page's whole catalog, after hydration.
    await expect.poll(() => notice.textContent()).toBe(en['union.bound']);
    // The result is shown once: the address no longer carries it.
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(() => provider.getAttribute('data-bound')).toBe('true');
    expect(await provider.getByTestId('provider-binding').textContent()).toContain('demo-link@sandbox.test');

    await provider.getByTestId('provider-unlink').click();
    await page.getByTestId('confirm-dialog-confirm').click();
    await expect.poll(() => provider.getAttribute('data-bound')).toBe('false');
    expect(await notice.textContent()).toBe(en['union.unlinked']?.replace('{provider}', 'Sandbox ID'));
    await context.close();
  });

  it('edits nick, sex and avatar; the header follows the nick and the avatar loads after a reload', async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    await open(page, '/en/personalCenter/setting/profile');
    const save = page.getByTestId('profile-save');
    expect(await save.isDisabled()).toBe(true);

    await page.getByTestId('profile-nick').fill('Marta Trader');
    await page.getByTestId('profile-sex-2').click();
    await page.getByTestId('avatar-input').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: pngImage(),
    });
    const avatar = page.getByTestId('avatar-image');
    await expect.poll(() => avatar.getAttribute('src')).toMatch(/^\/files\/avatar\/[0-9a-f-]{36}$/);
    expect(await page.getByTestId('profile-status').textContent()).toBe(en['profile.unsaved']);
    await save.click();
    await expect.poll(() => page.getByTestId('profile-status').textContent()).toBe(en['profile.saved']);
    expect(await save.isDisabled()).toBe(true);
    // The header shows the new name at once, without a reload.
    await expect.poll(() => headerName(page)).toContain('Marta Trader');

    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await headerName(page)).toContain('Marta Trader');
    expect(await page.getByTestId('profile-nick').inputValue()).toBe('Marta Trader');
    expect(await page.getByTestId('profile-sex-2').locator('input').isChecked()).toBe(true);
    await expect
      .poll(() =>
        avatar.evaluate(
          (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth,
        ),
      )
      .toBe(4);

    // A GIF named .png passes the browser's guess but not the server's look at its content.
    await page
      .getByTestId('avatar-input')
      .setInputFiles({ name: 'anim.png', mimeType: 'image/png', buffer: GIF });
    await expect
      .poll(() => page.getByTestId('avatar-error').textContent())
      .toBe(en['profile.avatar.typeRefused']);
    expect(await save.isDisabled()).toBe(true);
    await context.close();
  });

  it('sends feedback with a contact and an image once, however often the button is pressed', async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    await open(page, '/en/personalCenter/setting/feedback');
    const sends: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(ROUTE_PATHS.feedback)) sends.push(request.postData() ?? '');
    });

    await page.getByTestId('feedback-text').fill('The chart should remember my timeframe.');
    expect(await page.getByTestId('feedback-counter').textContent()).toBe('39/500');
    await page.getByTestId('feedback-submit').click();
    expect(await page.getByTestId('feedback-contacts-error').textContent()).toBe(
      en['validation.contactRequired'],
    );
    expect(sends).toHaveLength(0);

    await page.getByTestId('feedback-telegram').fill('@demo_trader');
    await page.getByTestId('attachment-input').setInputFiles({
      name: 'screen.png',
      mimeType: 'image/png',
      buffer: pngImage(16),
    });
    await expect.poll(() => page.getByTestId('attachment').getAttribute('data-status')).toBe('done');
    await page.getByTestId('feedback-submit').dblclick();
    await page.getByTestId('feedback-sent').waitFor();
    expect(sends).toHaveLength(1);
    const body = JSON.parse(sends[0] as string) as { contacts: object; attachments: string[]; text: string };
    expect(body.contacts).toEqual({ telegram: '@demo_trader' });
    expect(body.attachments).toHaveLength(1);

    await page.getByTestId('feedback-again').click();
    expect(await page.getByTestId('feedback-text').inputValue()).toBe('');
    expect(await page.getByTestId('attachment').count()).toBe(0);
    await context.close();
  });

  it('changes the phone number with a code sent to the new one, behind the captcha', async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    await open(page, '/en/personalCenter/setting/profile');
    expect(await page.getByTestId('contact-phone-value').textContent()).toBe('+12*****0123');
    await page.getByTestId('contact-phone-edit').click();
    const dialog = page.getByTestId('bind-dialog');
    // An English page preselects the United States.
    await dialog.locator('input[name=phone]').fill('202 555 0199');
    await dialog.getByTestId('bind-confirm').click();
    expect(await dialog.getByTestId('bind-code-message').textContent()).toBe(en['validation.codeFormat']);
    await dialog.getByTestId('bind-send').click();
    await expect
      .poll(() => dialog.getByTestId('bind-code-message').textContent(), { timeout: 10_000 })
      .toMatch(/^Code sent to \+12\*+0199\.$/);
    expect(await dialog.getByTestId('bind-send').textContent()).toMatch(/^Resend in \d+ s$/);
    await dialog.getByTestId('bind-code').fill(await codeFor('+12025550199'));
    await dialog.getByTestId('bind-confirm').click();
    await expect
      .poll(() => page.getByTestId('contact-notice').textContent())
      .toBe(en['profile.contact.phoneBound']);
    expect(await page.getByTestId('bind-dialog').count()).toBe(0);
    expect(await page.getByTestId('contact-phone-value').textContent()).toBe('+12*****0199');
    await context.close();
  });
});

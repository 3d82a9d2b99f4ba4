import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { intlLocale, LOCALES } from '@broker/i18n/locales';
import { createTranslator } from '@broker/i18n/translator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, gotoReady, launchBrowser, newContext, startServer, type TRunningServer } from './support';

const catalog = (code: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, `../../packages/i18n/locales/${code}.json`), 'utf8'),
  ) as Record<string, string>;

let server: TRunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('portal in the browser', () => {
  it('serves every language home page server-rendered in its language', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    for (const locale of LOCALES) {
      const response = await page.goto(`${server.baseUrl}/${locale.code}`);
      expect(response?.status(), locale.code).toBe(200);
      const html = await response!.text();
      const title = catalog(locale.code)['home.hero.title']!;
      // Translated before any script runs: the server's HTML already holds the text.
      expect(html, locale.code).toContain(`<html lang="${intlLocale(locale.code)}"`);
      expect(html, locale.code).toContain(title.replace(/&/g, '&amp;').replace(/'/g, '&#x27;'));
      await expect.poll(() => page.locator('h1').first().textContent(), { timeout: 10_000 }).toBe(title);
    }
    await context.close();
  });

  it('sends / to the best browser language, unless the language cookie says otherwise', async () => {
    for (const [browserLocale, expected] of [
      ['pt-BR', 'pt'],
      ['zh-TW', 'zh'],
      ['fil-PH', 'fil'],
      ['sv-SE', 'zh-CN'],
      ['ja-JP', 'ja'],
    ] as const) {
      const context = await newContext(browser, { locale: browserLocale });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/`);
      expect(new URL(page.url()).pathname, browserLocale).toBe(`/${expected}`);
      const cookie = (await context.cookies()).find((c) => c.name === 'lang');
      expect(cookie?.value).toBe(expected);
      expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
      await context.close();
    }
    const context = await newContext(browser, { locale: 'pt-BR' });
    await context.addCookies([{ name: 'lang', value: 'de', url: server.baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/`);
    expect(new URL(page.url()).pathname).toBe('/de');
    await context.close();
  });

  it('answers 404 with the page-not-found page for unmatched routes', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    for (const path of ['/en/no-such-page', '/not-a-language/page', '/xx', '/en/h5/nope']) {
      const response = await page.goto(server.baseUrl + path);
      expect(response?.status(), path).toBe(404);
    }
    const response = await page.goto(`${server.baseUrl}/unknown/path`);
    expect(response?.status()).toBe(404);
    await expect
      .poll(() => page.getByTestId('not-found').locator('h1').textContent())
      .toBe(catalog('en')['notFound.title']);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await context.close();
  });

  it('switches language in place, keeping the page, and remembers the choice', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await gotoReady(page, `${server.baseUrl}/en/h5/privacy`);
    await page.getByTestId('language-switch').click();
    await Promise.all([page.waitForURL('**/de/h5/privacy'), page.locator('[data-lang="de"]').click()]);
    await page.waitForSelector('html[data-hydrated]');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    // The German text, with the notice right under its title naming the governing English version.
    const english = await page.evaluate(() => new Intl.DisplayNames(['de'], { type: 'language' }).of('en'));
    await expect
      .poll(() => page.locator('.legal-body h1 + .legal-notice').textContent())
      .toBe(catalog('de')['legal.translationNotice']!.replace('{language}', english!));
    expect(await page.locator('.legal-body h1').textContent()).toBe('Datenschutzerklärung');
    expect(await page.getByTestId('legal-untranslated').count()).toBe(0);
    expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('de');
    await page.getByTestId('language-switch').click();
    await Promise.all([page.waitForURL('**/zh-CN/h5/privacy'), page.locator('[data-lang="zh-CN"]').click()]);
    await page.waitForSelector('html[data-hydrated]');
    await expect.poll(() => page.locator('.legal-body h1').textContent()).toMatch(/隐私/);
    expect(await page.getByTestId('legal-translation-notice').textContent()).toMatch(/^本译文仅供参考/);
    expect(await page.getByTestId('legal-untranslated').count()).toBe(0);
    await page.getByTestId('language-switch').click();
    await Promise.all([page.waitForURL('**/en/h5/privacy'), page.locator('[data-lang="en"]').click()]);
    await page.waitForSelector('html[data-hydrated]');
    await expect.poll(() => page.locator('.legal-body h1').textContent()).toBe('Privacy Policy');
    expect(await page.getByTestId('legal-translation-notice').count()).toBe(0);
    await context.close();
  });

  it('serves the three legal texts server-rendered in each of the 16 languages, marked as translations', async () => {
    const displayTag: Record<string, string> = { 'zh-CN': 'zh-Hans', zh: 'zh-Hant' };
    const escapeHtml = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const englishTitles = new Map<string, string | undefined>();
    const englishFirst = [...LOCALES].sort((a, b) => Number(b.code === 'en') - Number(a.code === 'en'));
    for (const locale of englishFirst) {
      const t = createTranslator(locale.code, catalog(locale.code));
      const name = (code: string) =>
        new Intl.DisplayNames([intlLocale(locale.code)], { type: 'language' }).of(displayTag[code] ?? code)!;
      for (const doc of ['privacy', 'privacy-google', 'termsofuse']) {
        const where = `${locale.code}/h5/${doc}`;
        const response = await fetch(`${server.baseUrl}/${where}`);
        expect(response.status, where).toBe(200);
        const html = await response.text();
        const page = {
          lang: html.match(/<html lang="([^"]*)"/)?.[1],
          untranslatedNote: html.includes('data-testid="legal-untranslated"'),
          title: html.match(/<div class="legal-body"[^>]*><h1>([^<]*)<\/h1>/)?.[1],
          // The notice, right under the title.
          notice: html.match(
            /<\/h1>\n<blockquote class="legal-notice" data-testid="legal-translation-notice"><p>([^<]*)<\/p><\/blockquote>/,
          )?.[1],
        };
        if (locale.code === 'en') {
          expect(page, where).toEqual({
            lang: 'en',
            untranslatedNote: false,
            title: page.title,
            notice: undefined,
          });
          expect(page.title, where).toBeTruthy();
          englishTitles.set(doc, page.title);
          continue;
        }
        const notice =
          locale.code === 'zh'
            ? t('legal.translationNoticeFrom', { source: name('zh-CN'), language: name('en') })
            : t('legal.translationNotice', { language: name('en') });
        expect(page, where).toEqual({
          lang: intlLocale(locale.code),
          untranslatedNote: false,
          title: page.title,
          notice: escapeHtml(notice),
        });
        expect(page.title, where).toBeTruthy();
        expect(page.title, where).not.toBe(englishTitles.get(doc));
      }
    }
  });

  it('guards the personal centre, signs in, shows the menu and logs out as the spec says', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await gotoReady(page, `${server.baseUrl}/en/personalCenter/deposit`);
    expect(page.url()).toBe(
      `${server.baseUrl}/en/login?redirect=${encodeURIComponent('/en/personalCenter/deposit')}`,
    );
    await page.locator('input[name=email]').fill(DEMO.email);
    await page.locator('input[name=password]').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    await expect
      .poll(() => page.getByTestId('login-error').textContent())
      .toBe(catalog('en')['errors.-1002']);
    await page.locator('input[name=password]').fill(DEMO.password);
    await Promise.all([
      page.waitForURL('**/en/personalCenter/deposit'),
      page.getByTestId('login-submit').click(),
    ]);
    const menu = page.getByTestId('pc-menu');
    await expect.poll(() => menu.locator('a').count()).toBe(7);
    expect(await menu.locator('a.active').getAttribute('data-section')).toBe('deposit');
    expect(await page.locator('.site-header').getAttribute('data-nav')).toBe('hidden');
    await page.goto(`${server.baseUrl}/en/personalCenter/account/create`);
    expect(await menu.locator('a.active').getAttribute('data-section')).toBe('account');
    await page.goto(`${server.baseUrl}/en/personalCenter/account/success`);
    expect(await menu.locator('a.active').getAttribute('data-section')).toBe('account');

    // Command 3 opens the accounts page in a new tab; command 4 does nothing.
    await page.getByTestId('user-menu').click();
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.locator('[data-command="3"]').click(),
    ]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe('/en/personalCenter/account');
    await tab.close();
    await page.getByTestId('user-menu').click();
    await page.locator('[data-command="4"]').click();
    expect(new URL(page.url()).pathname).toBe('/en/personalCenter/account/success');
    expect(context.pages()).toHaveLength(1);

    // Command 5 logs out; from the personal centre it goes to the language home.
    await page.getByTestId('user-menu').click();
    await Promise.all([page.waitForURL(`${server.baseUrl}/en`), page.locator('[data-command="5"]').click()]);
    const names = (await context.cookies()).map((c) => c.name);
    expect(names).not.toContain('token');
    expect(names).not.toContain('userInfo');
    expect(await page.getByTestId('user-menu').count()).toBe(0);
    await page.goto(`${server.baseUrl}/en/personalCenter/account`);
    expect(new URL(page.url()).pathname).toBe('/en/login');
    await context.close();
  });

  it('shows the error fallback page when the error page itself fails', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const plain = await page.goto(`${server.baseUrl}/en/error`);
    expect(plain?.status()).toBe(200);
    await expect
      .poll(() => page.getByTestId('error-page').locator('h1').textContent())
      .toBe(catalog('en')['error.title']);
    await page.goto(`${server.baseUrl}/ja/error?selftest=fallback`);
    const fallback = page.getByTestId('error-fallback');
    await expect
      .poll(() => fallback.locator('p').textContent())
      .toBe('an error occurred while showing the error page');
    expect(await fallback.locator('a').getAttribute('href')).toBe('/ja');
    await Promise.all([page.waitForURL(`${server.baseUrl}/ja`), fallback.locator('a').click()]);
    await context.close();
  });

  it('records page views with the device, and serves the mobile layout at 375 px', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    const response = await page.goto(`${server.baseUrl}/ko`);
    expect(response?.headers()['x-device']).toBe('mobile');
    await expect.poll(() => page.getByTestId('download-prompt').isVisible()).toBe(true);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('reloads once when a page chunk fails to load, and not again within 60 s', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    // Every request for the QR page's chunk fails, as after a deployment removed it.
    let blocked = 0;
    await page.route(/\/assets\/QrCodePage-[^/]+\.js$/, (route) => {
      blocked++;
      return route.abort();
    });
    await page.goto(`${server.baseUrl}/en/login`);
    await page.waitForLoadState('networkidle');
    let loads = 0;
    page.on('load', () => {
      loads++;
    });
    // An in-app link: the router loads the page's chunk before the address changes, and the
    // reload must land on the page the click was going to, not the sign-in page it left.
    await page.getByTestId('to-qr').click();
    await expect.poll(() => loads, { timeout: 10_000 }).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/en/qrcodePage');
    expect(blocked).toBeGreaterThanOrEqual(1);
    const stamp = await page.evaluate(() => window.sessionStorage.getItem('chunk-reload-at'));
    expect(Number(stamp)).toBeGreaterThan(0);
    // A second failure inside the guard window must not reload again.
    await page.goto(`${server.baseUrl}/en`);
    loads = 0;
    await page.evaluate(() => {
      window.history.pushState({}, '', '/en/qrcodePage');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForTimeout(1500);
    expect(loads).toBe(0);
    await context.close();
  });

  /** Home's likely next pages for an anonymous visitor: registration, sign-in, the markets. */
  const NEXT_FROM_HOME = /\/assets\/(RegisterPage|LoginPage|MarketsPage)-/;
  it('prefetches the likely next pages when idle, but not on 2g or with data saver', async () => {
    /** The page's chunk requests, once it has marked its prefetch as asked for (or skipped). */
    const prefetched = async (connection: Record<string, unknown> | null) => {
      const context = await newContext(browser);
      if (connection) {
        await context.addInitScript((value) => {
          Object.defineProperty(navigator, 'connection', { value, configurable: true });
        }, connection);
      }
      const page = await context.newPage();
      const chunks: string[] = [];
      page.on('request', (request) => {
        if (/\/assets\/[^/]+\.js$/.test(request.url())) chunks.push(request.url());
      });
      await page.goto(`${server.baseUrl}/en`);
      await page.waitForFunction(() => document.documentElement.dataset.prefetch !== undefined, undefined, {
        timeout: 15_000,
      });
      const mark = await page.evaluate(() => document.documentElement.dataset.prefetch);
      // The prefetches were asked for in the task that set the mark: their requests are on their way.
      if (mark === 'done')
        await expect.poll(() => chunks.filter((url) => NEXT_FROM_HOME.test(url)).length).toBe(3);
      await context.close();
      return { mark, chunks };
    };
    const idle = await prefetched(null);
    expect(idle.mark).toBe('done');
    // Issue 21, item 14: an anonymous visitor's home page no longer warms every linked page.
    expect(
      idle.chunks.filter((url) =>
        /\/assets\/(TradePage|ChartParts|QrCodePage|LegalPage|ConverterPage)-/.test(url),
      ),
    ).toEqual([]);
    for (const connection of [
      { effectiveType: '2g', saveData: false },
      { effectiveType: '4g', saveData: true },
    ]) {
      const skipped = await prefetched(connection);
      expect(skipped.mark).toBe('skipped');
      expect(skipped.chunks.filter((url) => NEXT_FROM_HOME.test(url))).toEqual([]);
    }
  });
});

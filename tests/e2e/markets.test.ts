import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  holdRequests,
  launchBrowser,
  newContext,
  recordLayoutShifts,
  startServer,
  type TRunningServer,
} from './support';

const catalog = (code: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, `../../packages/i18n/locales/${code}.json`), 'utf8'),
  ) as Record<string, string>;

const english = catalog('en');

let server: TRunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function api<T>(name: string, body: unknown): Promise<T> {
  const response = await fetch(`${server.baseUrl}/api/v1/quote/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', LanguageCode: 'en' },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { success: boolean; data: T };
  expect(envelope.success, name).toBe(true);
  return envelope.data;
}

interface TConversion {
  from: string;
  to: string;
  amount: string;
  rate: string;
  result: string;
}

describe('market data screens in the browser', () => {
  it('moves crypto prices live on the markets page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/en/markets`);
    const bid = page.locator('tr[data-symbol="BTCUSDT"] .mk-col-bid .flash');
    await expect.poll(() => bid.count(), { timeout: 10_000 }).toBe(1);
    const first = await bid.getAttribute('data-value');
    expect(first).toMatch(/^\d+\.\d{2}$/);
    await expect
      .poll(() => page.getByTestId('stream-status').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('open');
    // Crypto trades around the clock: the bid changes within seconds.
    await expect
      .poll(() => bid.getAttribute('data-value'), { timeout: 10_000, interval: 250 })
      .not.toBe(first);
    expect(await page.locator('tr.mk-row[data-symbol]').count()).toBeGreaterThan(40);

    // Category tab and search narrow the list; an unknown name shows the empty state.
    await page.locator('[data-tab="crypto"]').click();
    await expect.poll(() => page.locator('tr.mk-row[data-symbol]').count(), { timeout: 5000 }).toBe(11);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('crypto');
    await page.getByTestId('markets-search').fill('ethusdt');
    await expect.poll(() => page.locator('tr.mk-row[data-symbol]').count()).toBe(1);
    await page.getByTestId('markets-search').fill('no-such-thing');
    await expect.poll(() => page.getByTestId('markets-empty').isVisible()).toBe(true);
    await context.close();
  });

  it('sends the quotes table and the hot list in the page’s HTML, without loading cards', async () => {
    const html = await (await fetch(`${server.baseUrl}/en/markets`)).text();
    const rows = html.match(/<tr class="mk-row[^"]*" data-symbol="[A-Z0-9]+"/g) ?? [];
    expect(rows.length).toBeGreaterThan(40);
    expect(html).toContain('data-symbol="BTCUSDT"');
    expect(html.match(/class="mk-hot-card[^"]*" data-symbol=/g)?.length ?? 0).toBeGreaterThan(0);
    expect(html).not.toContain('mk-row-skeleton');
    // The browser hydrates it from the same lists: the page makes no request for them.
    const context = await newContext(browser);
    const page = await context.newPage();
    const calls: string[] = [];
    page.on('request', (request) => {
      if (/\/quote\/currency(all|hot)$/.test(request.url())) calls.push(request.url());
    });
    await page.goto(`${server.baseUrl}/en/markets`);
    await page.waitForSelector('html[data-hydrated]');
    await expect.poll(() => page.locator('tr.mk-row[data-symbol]').count()).toBe(rows.length);
    expect(calls).toEqual([]);
    // A change of tab filters what the page holds, without loading the lists again.
    await page.locator('[data-tab="crypto"]').click();
    await expect.poll(() => page.locator('tr.mk-row[data-symbol]').count()).toBe(11);
    expect(calls).toEqual([]);
    await context.close();
  });

  it('shows the app prompt of a phone with its text, once, without a layout shift while the catalog loads', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    const layoutShifts = await recordLayoutShifts(page);
    // The whole catalog arrives only after the page has hydrated: the prompt's messages are not
    // among the ones the server render inlined (it renders no prompt).
    const release = await holdRequests(page, /\/assets\/catalog-en-[^/]+\.json$/);
    await page.goto(`${server.baseUrl}/en/markets`);
    await page.waitForSelector('html[data-hydrated]');
    const prompt = page.getByTestId('download-prompt');
    expect(await prompt.count()).toBe(0);
    release();
    await expect.poll(() => prompt.locator('strong').textContent()).toBe(english['download.promptTitle']);
    await page.waitForLoadState('networkidle');
    const moved = (await layoutShifts()).flatMap((shift) => shift.moved);
    expect(moved.filter((name) => name.includes('download-prompt'))).toEqual([]);
    await context.close();
  });

  it('keeps the page still when Noto Sans arrives after the first paint (a metric-matched fallback)', async () => {
    // On a slow connection the font file can come after the page has painted in a system font: the
    // fallback faces of fonts/stacks.css are scaled to Noto Sans, so the swap shifts nothing (the
    // unscaled system font shifted the home page's preview: a CLS of 0.03 to 0.05).
    for (const path of ['/en', '/en/markets']) {
      const context = await newContext(browser, { mobile: true });
      const page = await context.newPage();
      const layoutShifts = await recordLayoutShifts(page);
      const release = await holdRequests(page, /\.woff2$/);
      // Not until "load": the load event waits for the preloaded font file, held here.
      await page.goto(`${server.baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('html[data-hydrated]');
      // Painted without the font, then the font arrives.
      expect(await page.evaluate(() => document.fonts.check('16px "Noto Sans Variable"', 'Markets'))).toBe(
        false,
      );
      release();
      await page.waitForFunction(() => document.fonts.check('16px "Noto Sans Variable"', 'Markets'));
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      const shifts = await layoutShifts();
      expect(
        shifts.reduce((sum, shift) => sum + shift.value, 0),
        path,
      ).toBeLessThan(0.01);
      await context.close();
    }
  });

  it('keeps the hot strip’s height while its quotes load, on a phone and a desktop', async () => {
    for (const mobile of [true, false]) {
      const context = await newContext(browser, { mobile });
      const page = await context.newPage();
      // The quotes are held back until the loading cards have been measured.
      const release = await holdRequests(page, '**/api/v1/quote/currencyhot');
      // The server renders the lists with the page (marketsLoader); a navigation in the browser
      // loads them, with the loading cards meanwhile.
      await page.goto(`${server.baseUrl}/en`);
      await page.waitForSelector('html[data-hydrated]');
      await page.locator('.site-footer a[href="/en/markets"]').click();
      const strip = page.getByTestId('hot-strip');
      await strip.locator('.skeleton').first().waitFor();
      const loading = (await strip.boundingBox())?.height ?? 0;
      release();
      await strip.locator('a.mk-hot-card').first().waitFor();
      const loaded = (await strip.boundingBox())?.height ?? 0;
      expect(loading).toBeGreaterThan(0);
      // The table below does not move when the quotes arrive (a layout shift).
      expect(
        Math.abs(loaded - loading),
        `${mobile ? 'phone' : 'desktop'}: ${loading} -> ${loaded}`,
      ).toBeLessThanOrEqual(1);
      await context.close();
    }
  });

  it('draws the symbol page chart from history and moves its last bar live', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const response = await page.goto(`${server.baseUrl}/en/markets/BTCUSDT?tf=M1`);
    expect(response?.status()).toBe(200);
    const chart = page.getByTestId('price-chart');
    await expect
      .poll(async () => Number(await chart.getAttribute('data-bars')), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(100);
    await expect.poll(() => page.locator('.mk-chart canvas').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const close = await chart.getAttribute('data-last-close');
    expect(close).toMatch(/^\d+\.\d{2}$/);
    await expect
      .poll(() => chart.getAttribute('data-last-close'), { timeout: 15_000, interval: 250 })
      .not.toBe(close);
    expect(await page.getByTestId('chart-legend').textContent()).toContain(
      catalog('en')['markets.chart.open'],
    );
    await expect
      .poll(() => page.getByTestId('stats-card').locator('tbody td.num').count(), { timeout: 10_000 })
      .toBe(12);
    await expect
      .poll(() => page.getByTestId('spec-card').textContent(), { timeout: 10_000 })
      .toContain(catalog('en')['markets.spec.alwaysOpen']);

    // Another timeframe loads its own history.
    await page.locator('[data-tf="H4"]').click();
    // Wait for the switch itself: the bar count of the previous timeframe already passes the check below.
    await expect.poll(() => new URL(page.url()).searchParams.get('tf'), { timeout: 10_000 }).toBe('H4');
    await expect
      .poll(async () => Number(await chart.getAttribute('data-bars')), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(100);

    // An unknown symbol is a 404; a lower-case one goes to its canonical address.
    expect((await page.goto(`${server.baseUrl}/en/markets/NOSUCH`))?.status()).toBe(404);
    await page.goto(`${server.baseUrl}/en/markets/ethusdt`);
    expect(new URL(page.url()).pathname).toBe('/en/markets/ETHUSDT');
    await context.close();
  });

  it('converts both ways at the rates of the quotes', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const pairCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/quote/pairs')) pairCalls.push(request.postData() ?? '');
    });
    await page.goto(`${server.baseUrl}/en/converter`);
    const result = page.getByTestId('converter-result');
    await expect.poll(() => result.getAttribute('data-ready'), { timeout: 10_000 }).toBe('true');
    expect(await result.getAttribute('data-from')).toBe('EUR');
    expect(await result.getAttribute('data-to')).toBe('USD');
    expect(await result.getAttribute('data-amount')).toBe('1000');
    const forward = new Big((await result.getAttribute('data-rate')) as string);
    const shown = new Big((await result.getAttribute('data-result')) as string);
    const quoted = await api<{ conversion: TConversion }>('pairs', {
      from: 'EUR',
      to: 'USD',
      amount: '1000',
    });
    // The same mid prices (they may have ticked in between).
    expect(forward.minus(quoted.conversion.rate).abs().div(quoted.conversion.rate).lt(0.002)).toBe(true);
    expect(shown.minus(forward.times(1000)).abs().lt(0.01)).toBe(true);

    await page.getByTestId('converter-swap').click();
    await expect.poll(() => result.getAttribute('data-from'), { timeout: 10_000 }).toBe('USD');
    await expect.poll(() => result.getAttribute('data-ready'), { timeout: 10_000 }).toBe('true');
    const backward = new Big((await result.getAttribute('data-rate')) as string);
    const quotedBack = await api<{ conversion: TConversion }>('pairs', {
      from: 'USD',
      to: 'EUR',
      amount: '1000',
    });
    expect(backward.minus(quotedBack.conversion.rate).abs().div(quotedBack.conversion.rate).lt(0.002)).toBe(
      true,
    );
    // B→A is 1/(A→B) within rounding.
    expect(forward.times(backward).minus(1).abs().lt(0.002)).toBe(true);

    // A crypto and metal pair through the cross, picked with the searchable picker.
    await page.getByTestId('converter-from').click();
    await page.getByTestId('converter-from-search').fill('bitcoin');
    await page.locator('.cv-option[data-code="BTC"]').click();
    await page.getByTestId('converter-to').click();
    await page.getByTestId('converter-to-search').fill('XAU');
    await page.keyboard.press('Enter');
    await expect.poll(() => result.getAttribute('data-to'), { timeout: 10_000 }).toBe('XAU');
    await expect.poll(() => result.getAttribute('data-from'), { timeout: 10_000 }).toBe('BTC');
    expect(await page.getByTestId('converter-path').textContent()).toContain('BTCUSDT');

    // Invalid amounts show a translated message and send nothing.
    await page.waitForTimeout(400);
    const before = pairCalls.length;
    await page.getByTestId('converter-amount').fill('1.2.3');
    await expect
      .poll(() => page.getByTestId('converter-amount-error').textContent())
      .toBe(catalog('en')['converter.error.format']);
    await page.getByTestId('converter-amount').fill('0.123456789');
    await expect
      .poll(() => page.getByTestId('converter-amount-error').textContent())
      .toBe(catalog('en')['converter.error.decimals']);
    await page.waitForTimeout(500);
    expect(pairCalls.slice(before).filter((body) => body.includes('"from"'))).toEqual([]);
    await context.close();
  });

  it('shows a closed market as closed', async () => {
    const quotes = await api<{ symbol: string; status: string }[]>('currencyall', {});
    const indices = ['GER40', 'UK100', 'JP225', 'HK50'];
    const closed =
      quotes.find((q) => indices.includes(q.symbol) && q.status === 'closed') ??
      quotes.find((q) => q.status === 'closed');
    expect(closed, 'one of GER40, UK100, JP225, HK50 is closed at any hour').toBeDefined();
    const symbol = closed!.symbol;
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/en/markets`);
    const row = page.locator(`tr[data-symbol="${symbol}"]`);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('closed');
    const badge = row.getByTestId('closed-badge');
    expect(await badge.isVisible()).toBe(true);
    expect(await badge.textContent()).toBe(catalog('en')['markets.status.closed']);

    await page.goto(`${server.baseUrl}/en/markets/${symbol}`);
    await expect
      .poll(() => page.getByTestId('symbol-page').getByTestId('closed-badge').count(), { timeout: 10_000 })
      .toBe(1);
    await expect.poll(() => page.getByTestId('next-open').isVisible(), { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it('keeps the markets page and its tab when the language changes', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/en/markets?tab=crypto`);
    await page.getByTestId('language-switch').click();
    await Promise.all([
      page.waitForURL('**/de/markets?tab=crypto'),
      page.locator('[data-lang="de"]').click(),
    ]);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await expect
      .poll(() => page.locator('h1').textContent(), { timeout: 10_000 })
      .toBe(catalog('de')['markets.title']);
    await expect
      .poll(() => page.locator('[data-tab="crypto"]').getAttribute('aria-selected'), { timeout: 10_000 })
      .toBe('true');
    expect(await page.locator('[data-tab="crypto"]').textContent()).toBe(catalog('de')['markets.tab.crypto']);
    await context.close();
  });

  it('streams the home ticker and links its items to their symbol pages', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/en`);
    const item = page.locator('.ticker-item[data-symbol="BTCUSDT"]');
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(1);
    expect(await item.getAttribute('href')).toBe('/en/markets/BTCUSDT');
    // Mobile: the page itself never scrolls sideways.
    for (const path of ['/en', '/en/markets', '/en/markets/EURUSD', '/en/converter']) {
      await page.goto(server.baseUrl + path);
      await page.waitForTimeout(800);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await context.close();
  });
});

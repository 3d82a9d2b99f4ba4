import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { contrastRatio } from '@broker/domain/contrast';
import { LOCALES } from '@broker/i18n/locales';
import { THEME_COLOR, THEMES } from '@broker/ui/themes.ts';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Trader } from '../../apps/server/test/trader';
import { SHIPPED } from '../../apps/web/src/app/upcoming';
import { DEMO, mailboxCode, newContext, serverAndBrowser } from './support';

/**
 * Issue 21, items 10 to 12: the rise and fall colours from the first byte and the hero's live prices;
 * the details a trader notices (browser bar colour, menus, history, watchlist, chart, footer, wide
 * screens); and the way in (registration, then the demo account; no promise of a feature to come).
 */
const running = serverAndBrowser({ CAPTCHA_DIFFICULTY: '4' });

const catalog = (code: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, `../../packages/i18n/locales/${code}.json`), 'utf8'),
  ) as Record<string, string>;

/** A portal page as the server sends it, before any script runs. */
async function html(path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(running.server.baseUrl + path, { headers });
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The server-rendered markup of the page (without the boot data, which holds the whole catalog). */
const markup = (page: string) => page.slice(page.indexOf('<div id="root">'), page.indexOf('window.__BOOT__'));

/** `data-kline` of <html> and of every market scope of a server-rendered page. */
function klineAttributes(page: string): { root: string | undefined; scopes: string[] } {
  return {
    root: /<html[^>]* data-kline="(\d)"/.exec(page)?.[1],
    scopes: [...page.matchAll(/class="[^"]*\bmk-scope\b[^"]*" data-kline="(\d)"/g)].map(
      (m) => m[1] as string,
    ),
  };
}

/** A browser context with the demo trader signed in (through the API, as an app would). */
async function traderContext(options: { locale?: string } = {}): Promise<BrowserContext> {
  const context = await newContext(running.browser, options);
  const answer = await context.request.post(running.server.baseUrl + ROUTE_PATHS.login, {
    data: { email: DEMO.email, password: DEMO.password },
  });
  expect((await answer.json()).success).toBe(true);
  return context;
}

/** The colour a CSS value computes to on the page (`var(--down)` -> "rgb(...)"). */
const computedColour = (page: Page, value: string) =>
  page.evaluate((css) => {
    const probe = document.createElement('span');
    probe.style.color = css;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, value);

/** The fill of the hero chart's first rising candle. */
const heroRiseFill = (page: Page) =>
  page
    .locator('[data-testid=hero-preview] g[data-candle=rise] rect')
    .first()
    .evaluate((rect) => getComputedStyle(rect).fill);

describe('the kline colour from the first byte (item 10)', () => {
  it('renders red-up for a zh-CN or ja visitor before any script runs; the cookie comes first', async () => {
    const zh = await html('/zh-CN', { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' });
    const zhKline = klineAttributes(zh);
    expect(zhKline.root).toBe('0');
    // The hero's preview and the ticker are market scopes of the server's markup.
    expect(zhKline.scopes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(zhKline.scopes)).toEqual(new Set(['0']));
    expect(zh).toContain('"klineColor":0');
    expect(klineAttributes(await html('/ja', { 'accept-language': 'ja-JP' })).root).toBe('0');

    const en = klineAttributes(await html('/en', { 'accept-language': 'en-US,en;q=0.9' }));
    expect(en.root).toBe('1');
    expect(new Set(en.scopes)).toEqual(new Set(['1']));
    // Without a browser language, the page's language decides.
    expect(klineAttributes(await html('/zh-CN')).root).toBe('0');
    // The trader's choice (the cookie) wins, both ways.
    const chose = (cookie: string, lang: string) =>
      html(`/${lang}`, { cookie, 'accept-language': lang }).then((page) => klineAttributes(page));
    expect(await chose('klineColor=1', 'zh-CN')).toEqual({
      root: '1',
      scopes: expect.arrayContaining(['1']),
    });
    expect((await chose('klineColor=1', 'zh-CN')).scopes).not.toContain('0');
    expect((await chose('theme=white; klineColor=0', 'en')).root).toBe('0');
  });

  it('keeps the colours through hydration: nothing flips, and the hero chart rises in red', async () => {
    const context = await newContext(running.browser, { locale: 'zh-CN' });
    await context.addInitScript(() => {
      const flips: string[] = [];
      (window as unknown as { __klineFlips: string[] }).__klineFlips = flips;
      new MutationObserver((records) => {
        for (const record of records) {
          const element = record.target as Element;
          flips.push(
            `${element.className || element.tagName}: ${record.oldValue} -> ${element.getAttribute('data-kline')}`,
          );
        }
      }).observe(document, {
        subtree: true,
        attributes: true,
        attributeOldValue: true,
        attributeFilter: ['data-kline'],
      });
    });
    const page = await context.newPage();
    await page.goto(`${running.server.baseUrl}/zh-CN`);
    // The live parts have rendered: the hero's prices stream.
    await expect.poll(() => page.getByTestId('hero-buy').textContent(), { timeout: 15_000 }).toMatch(/\d/);
    expect(await page.evaluate(() => (window as unknown as { __klineFlips: string[] }).__klineFlips)).toEqual(
      [],
    );
    expect(await page.getAttribute('html', 'data-kline')).toBe('0');
    expect(await heroRiseFill(page)).toBe(await computedColour(page, 'var(--down)'));
    await context.close();
  });

  it('streams the hero’s Sell and Buy prices within seconds, in the green-up colours of an en-US visitor', async () => {
    const context = await newContext(running.browser);
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(`${running.server.baseUrl}/en`);
    const price = /^\d{1,3}(,\d{3})*\.\d+$/;
    await expect
      .poll(() => page.getByTestId('hero-sell').locator('.preview-price').textContent(), { timeout: 10_000 })
      .toMatch(price);
    await expect
      .poll(() => page.getByTestId('hero-buy').locator('.preview-price').textContent())
      .toMatch(price);
    console.info(`hero prices after ${Date.now() - started} ms`);
    const value = async (side: string) =>
      Number(
        (await page.getByTestId(`hero-${side}`).locator('.preview-price').textContent())?.replace(/,/g, ''),
      );
    expect(await value('buy')).toBeGreaterThan(await value('sell'));
    expect(await heroRiseFill(page)).toBe(await computedColour(page, 'var(--up)'));
    await context.close();
  });
});

describe('the details (item 11)', () => {
  beforeAll(async () => {
    // The demo trader has a demo account with two closed positions, for the history and the terminal.
    const trader = await Trader.signIn(running.server.baseUrl, DEMO.email, DEMO.password);
    const accountId = await trader.createAccount();
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      const sent = await trader.send(accountId, { symbol, side: 'buy', volume: '0.01' });
      expect(sent.body.success, sent.body.message).toBe(true);
    }
    const closed = await trader.call(ROUTE_PATHS.closeall, {
      account_id: accountId,
      idempotencyKey: crypto.randomUUID(),
    });
    expect(closed.body.success, closed.body.message).toBe(true);
  });

  it('colours the browser bar in the theme: from the server, and when the trader switches it', async () => {
    expect(await html('/en')).toContain(`<meta name="theme-color" content="${THEME_COLOR.navy}" />`);
    for (const theme of THEMES)
      expect(await html('/en', { cookie: `theme=${theme}` })).toContain(
        `<meta name="theme-color" content="${THEME_COLOR[theme]}" />`,
      );
    const context = await traderContext();
    const page = await context.newPage();
    await page.goto(`${running.server.baseUrl}/en/personalCenter/setting`);
    await page.getByTestId('theme-dark').click();
    await expect.poll(() => page.getAttribute('meta[name=theme-color]', 'content')).toBe(THEME_COLOR.dark);
    await page.getByTestId('theme-navy').click();
    await expect.poll(() => page.getAttribute('meta[name=theme-color]', 'content')).toBe(THEME_COLOR.navy);
    await context.close();
  });

  it('shows the white theme’s language menu under the dark bar in readable colours', async () => {
    const context = await traderContext();
    await context.addCookies([{ name: 'theme', value: 'white', url: running.server.baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${running.server.baseUrl}/en/personalCenter/account`);
    await page.getByTestId('language-switch').click();
    const pairs = await page.locator('.language-menu .dropdown-item').evaluateAll((items) =>
      items.map((item) => {
        const menu = item.closest('.language-menu') as Element;
        const background =
          item.getAttribute('aria-current') === 'true'
            ? getComputedStyle(item).backgroundColor
            : getComputedStyle(menu).backgroundColor;
        return { text: item.textContent, colour: getComputedStyle(item).color, background };
      }),
    );
    expect(pairs).toHaveLength(16);
    for (const pair of pairs)
      expect(
        contrastRatio(pair.colour, pair.background),
        `${pair.text}: ${pair.colour} on ${pair.background}`,
      ).toBeGreaterThanOrEqual(4.5);
    await context.close();
  });

  it('offers “Sign in” in the footer to visitors only', async () => {
    const visitor = await newContext(running.browser);
    const anonymous = await visitor.newPage();
    await anonymous.goto(`${running.server.baseUrl}/en/markets`);
    expect(await anonymous.getByTestId('footer-sign-in').count()).toBe(1);
    const context = await traderContext();
    const page = await context.newPage();
    for (const path of ['/en', '/en/markets', '/en/converter']) {
      await page.goto(running.server.baseUrl + path);
      expect(await page.getByTestId('footer-nav').count(), path).toBe(1);
      expect(await page.getByTestId('footer-sign-in').count(), path).toBe(0);
      expect(await page.getByTestId('footer-nav').textContent()).not.toContain(
        catalog('en')['header.signIn'],
      );
    }
    await Promise.all([visitor.close(), context.close()]);
  });

  it('shows the whole close reason in the history, and the personal centre uses a wide screen', async () => {
    const context = await traderContext();
    const page = await context.newPage();
    // The longest reason, an automatic close (stop-out or broker), on every deal of the page.
    await page.route('**/api/v1/order/history**', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/"close_reason":\s*\d+/g, '"close_reason":2');
      await route.fulfill({ response, body });
    });
    for (const [lang, width] of [
      ['ru', 1280],
      ['en', 1440],
      ['fil', 1440],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${running.server.baseUrl}/${lang}/personalCenter/history`);
      await page.getByTestId('deal').first().waitFor();
      const fit = await page.evaluate(() => {
        const wrap = document.querySelector('.hi-table-wrap') as HTMLElement;
        const reasons = [...document.querySelectorAll<HTMLElement>('[data-testid=deal-reason]')];
        return {
          table: wrap.scrollWidth <= wrap.clientWidth,
          reasons: reasons.map((cell) => cell.scrollWidth <= cell.clientWidth),
          right: Math.max(...reasons.map((cell) => cell.getBoundingClientRect().right)),
          panel: wrap.getBoundingClientRect().right,
        };
      });
      expect(fit.table, `${lang} at ${width} px: the table fits its panel`).toBe(true);
      expect(fit.reasons, `${lang} at ${width} px`).toEqual([true, true]);
      expect(fit.right).toBeLessThanOrEqual(fit.panel);
      expect(await page.getByTestId('deal-reason').first().textContent()).toBe(
        catalog(lang)['history.reason.2'],
      );
    }

    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${running.server.baseUrl}/en/personalCenter/account`);
    await page.getByTestId('pc-menu').waitFor();
    const content = await page.locator('.pc-content').boundingBox();
    expect(content?.width).toBeGreaterThanOrEqual(1500);
    // An account's figures show the equity in copy trading and strategies only once they exist (item 12).
    await expect.poll(() => page.locator('.ac-figures').count()).toBeGreaterThan(0);
    const figures = await page.locator('.ac-figures').textContent();
    if (SHIPPED.copyTrading) expect(figures).toContain(catalog('en')['accounts.field.followEquity']);
    else expect(figures).not.toContain(catalog('en')['accounts.field.followEquity']);
    if (SHIPPED.strategies) expect(figures).toContain(catalog('en')['accounts.field.strategyEquity']);
    else expect(figures).not.toContain(catalog('en')['accounts.field.strategyEquity']);
    await context.close();
  });

  it('shows whole instrument names at 1920 px and the change column’s name on one line', async () => {
    const context = await traderContext();
    const page = await context.newPage();
    const headerLines = () =>
      page
        .locator('.tr-watch-cols span')
        .last()
        .evaluate((span) => {
          const range = document.createRange();
          range.selectNodeContents(span);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
    for (const [lang, width] of [
      ['en', 1920],
      ['fil', 1280],
      ['id', 1280],
      ['fr', 1440],
      ['de', 1440],
      ['th', 1280],
    ] as const) {
      await page.setViewportSize({ width, height: width > 1500 ? 1080 : 900 });
      await page.goto(`${running.server.baseUrl}/${lang}/trade`);
      await page
        .locator('[data-testid=watchlist] [data-testid=watch-row]')
        .first()
        .waitFor({ timeout: 15_000 });
      expect(
        await headerLines(),
        `${lang} at ${width} px: "${catalog(lang)['markets.col.changePercent']}"`,
      ).toBe(1);
      // Symbols never wrap, and a row's prices do not overlap: each cell keeps to its column.
      const rows = await page.locator('[data-testid=watchlist] li[data-symbol]').evaluateAll((items) =>
        items.slice(0, 12).map((li) => {
          const symbol = li.querySelector('.tr-watch-symbol') as HTMLElement;
          // The figures themselves (a price's flash reaches a few pixels into the gap on purpose).
          const [bid, ask] = [...li.querySelectorAll('.tr-watch-price')].map((price) => {
            const range = document.createRange();
            range.selectNodeContents(price);
            return range.getBoundingClientRect();
          });
          return {
            symbol: li.getAttribute('data-symbol'),
            wraps: symbol.getBoundingClientRect().height > 24,
            overlap: !!bid && !!ask && bid.right > ask.left,
          };
        }),
      );
      for (const row of rows)
        expect(row, `${lang} at ${width} px`).toMatchObject({ wraps: false, overlap: false });
    }

    // At 1920 px, the names of the instruments are whole.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${running.server.baseUrl}/en/trade`);
    await page
      .locator('[data-testid=watchlist] [data-testid=watch-row]')
      .first()
      .waitFor({ timeout: 15_000 });
    const cut = await page
      .locator('[data-testid=watchlist] .tr-watch-sub')
      .evaluateAll((names) =>
        names.filter((name) => name.scrollWidth > name.clientWidth).map((name) => name.textContent),
      );
    expect(cut).toEqual([]);
    await context.close();
  });

  it('never draws a time label cut by the chart’s left edge', async () => {
    const context = await newContext(running.browser);
    const page = await context.newPage();
    await page.goto(`${running.server.baseUrl}/en/markets/EURUSD`);
    const chart = page.locator('.tv-lightweight-charts').first();
    await chart.waitFor();
    await page.waitForTimeout(1500);
    /** Painted pixels in the first two columns of the time axis, under its border line. */
    const edgeInk = () =>
      page.evaluate(() => {
        const rows = document.querySelectorAll('.tv-lightweight-charts table tr');
        const axis = (rows[rows.length - 1] as HTMLTableRowElement).cells[1] as HTMLTableCellElement;
        let ink = 0;
        for (const canvas of axis.querySelectorAll('canvas')) {
          const { data } = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(
            0,
            4,
            2,
            canvas.height - 5,
          );
          for (let i = 3; i < data.length; i += 4) if ((data[i] as number) > 40) ink++;
        }
        return ink;
      });
    const box = (await chart.boundingBox()) as { x: number; y: number; width: number; height: number };
    const y = box.y + box.height / 3;
    // Drag the chart right 3 px at a time: the labels pass the left edge one after another.
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    const cutAt: number[] = [];
    for (let step = 1; step <= 60; step++) {
      await page.mouse.move(box.x + box.width / 2 + step * 3, y);
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      if ((await edgeInk()) > 0) cutAt.push(step * 3);
    }
    await page.mouse.up();
    expect(cutAt, 'drag offsets (px) with a label cut at the left edge').toEqual([]);
    await context.close();
  });
});

describe('the way in (item 12)', () => {
  it('sends a new visitor from “Open an account” to registration, then to the demo account form', async () => {
    const context = await newContext(running.browser);
    const page = await context.newPage();
    await page.goto(`${running.server.baseUrl}/en`);
    for (const id of ['hero-open-account', 'hero-try-demo', 'cta-open-account', 'header-open'])
      expect(await page.getByTestId(id).getAttribute('href'), id).toBe('/en/register');

    await Promise.all([page.waitForURL('**/en/register'), page.getByTestId('hero-open-account').click()]);
    await page.waitForSelector('html[data-hydrated]');
    const email = `way-in.${Date.now().toString(36)}@example.com`;
    const password = 'Way-in-2026';
    await page.locator('input[name=email]').fill(email);
    await page.getByTestId('send-code').click();
    await page.locator('input[name=code]').fill(await mailboxCode(running.server.baseUrl, email));
    await page.locator('input[name=password]').fill(password);
    await page.locator('input[name=confirmPassword]').fill(password);
    await page.getByTestId('consent').check();
    await Promise.all([
      page.waitForURL(`${running.server.baseUrl}/en/personalCenter/account/create?type=1`),
      page.getByTestId('register-submit').click(),
    ]);
    await page.getByTestId('create-account').waitFor();
    expect(await page.getByTestId('create-type-1').locator('input').isChecked()).toBe(true);
    // Registering stored the new trader's appearance in the cookies the server renders with.
    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
    expect(cookies).toMatchObject({ theme: 'navy', klineColor: '1' });

    // Signed in, the same buttons lead to the trader's accounts.
    await page.goto(`${running.server.baseUrl}/en`);
    for (const id of ['hero-open-account', 'hero-try-demo', 'cta-open-account'])
      expect(await page.getByTestId(id).getAttribute('href'), id).toBe('/en/personalCenter/account');
    expect(await page.getByTestId('header-open').count()).toBe(0);
    await context.close();
  });

  it('promises no feature that does not exist yet, in any of the 16 languages', async () => {
    const upcoming = [
      ...(SHIPPED.copyTrading ? [] : ['nav.copy', 'home.features.copy.title']),
      ...(SHIPPED.strategies ? [] : ['nav.strategies', 'home.features.strategies.title']),
      'home.features.contests.title',
      'home.features.news.title',
      'home.accounts.mt.title',
    ];
    for (const { code } of LOCALES) {
      const texts = catalog(code);
      for (const path of [`/${code}`, `/${code}/markets`]) {
        const page = markup(await html(path));
        expect(page, path).not.toMatch(/href="[^"]*#(copy-trading|strategies)"/);
        // A shipped feature is linked to its own page.
        if (SHIPPED.copyTrading) expect(page, path).toContain(`href="/${code}/copyTrading"`);
        if (SHIPPED.strategies) expect(page, path).toContain(`href="/${code}/strategies"`);
        expect(page, path).not.toMatch(/\bMT[45]\b|MetaTrader/);
        for (const key of upcoming)
          expect(page, `${path}: ${key} "${texts[key]}"`).not.toContain(`>${texts[key]}<`);
      }
    }
  });
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { btcQuote, serverAndBrowser } from './support';
import { newTrader, openPage, signedIn } from './traders';

/**
 * The portal's strategy-bot screens against the real server (issue 19), with a hand-driven market
 * (FEED=off, /dev/feed/tick): a trader creates a long BTCUSDT grid through the form with its worst case
 * shown, sees a breaching configuration refused before it is sent (warning, button disabled), sees the
 * bot running in the list, the price crosses a level and the grid profit shows, and stops it keeping its
 * position ("stopped with position open"); the pages pass axe-core in the three themes and fit a 375 px
 * phone.
 */
const running = serverAndBrowser({ FEED: 'off' });
const base = () => running.server.baseUrl;

const quote = (bid: number) => btcQuote(base(), bid);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings (contrast included) in the navy, dark and white themes. */
async function axeFindings(page: Page, label: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const lines: string[] = [];
  for (const theme of ['navy', 'dark', 'white']) {
    await page.evaluate((value) => {
      if (!document.getElementById('no-transitions')) {
        const style = document.createElement('style');
        style.id = 'no-transitions';
        style.textContent = '*, *::before, *::after { transition: none !important; }';
        document.head.append(style);
      }
      document.documentElement.dataset.theme = value;
    }, theme);
    const found = await page.evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: axe-core is injected as a script, without types here
      const axe = (window as any).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      const out: string[] = [];
      for (const violation of result.violations) {
        if (!['serious', 'critical'].includes(violation.impact)) continue;
        for (const node of violation.nodes) {
          const data = node.any[0]?.data;
          const detail = data?.fgColor ? ` ${data.fgColor} on ${data.bgColor} = ${data.contrastRatio}:1` : '';
          out.push(`${violation.id} ${node.target.join(' ')}${detail}`);
        }
      }
      return out;
    });
    lines.push(...found.map((line) => `${label} [${theme}] ${line}`));
  }
  await page.evaluate(() => {
    document.documentElement.dataset.theme = 'navy';
  });
  return lines;
}

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Types into a form field (replacing what it held). */
async function type(page: Page, testId: string, value: string) {
  await page.getByTestId(testId).fill(value);
}

describe('strategy bots in the portal', () => {
  it('creates a grid with its worst case, runs it, shows the grid profit and stops it keeping its position', {
    timeout: 180_000,
  }, async () => {
    await quote(67_000);
    const trader = await newTrader(base(), 'strategy');
    await trader.createAccount(1, 2, 100);
    const { context, page } = await signedIn(running.browser, base(), trader);
    const findings: string[] = [];

    // No bot yet: the empty state leads to the form.
    await openPage(page, base(), '/en/strategies');
    await page.getByTestId('strategies-empty').waitFor();
    findings.push(...(await axeFindings(page, 'empty list')));
    await page.getByTestId('strategies-empty').getByRole('link').click();
    await page.getByTestId('strategy-form').waitFor();

    // A long grid 66,000-67,000 in 4 cells of 0.01 lot on 1,000.00: the worst case, no warning.
    await type(page, 'strategy-investment', '1000');
    await type(page, 'strategy-lowerPrice', '66000');
    await type(page, 'strategy-upperPrice', '67000');
    await type(page, 'strategy-grids', '4');
    await type(page, 'strategy-volumePerGrid', '0.01');
    const preview = page.getByTestId('strategy-preview');
    await page.locator('[data-testid=strategy-preview][data-state=ready]').waitFor({ timeout: 15_000 });
    await expect(page.getByTestId('worst-margin').textContent()).resolves.toMatch(/\d.*USD/);
    await expect(page.getByTestId('worst-loss').textContent()).resolves.toMatch(/\d/);
    await expect(page.getByTestId('preview-levels').locator('li').count()).resolves.toBeGreaterThanOrEqual(5);
    await expect(page.getByTestId('strategy-breach').count()).resolves.toBe(0);
    await expect(page.getByTestId('strategy-create').isEnabled()).resolves.toBe(true);
    findings.push(...(await axeFindings(page, 'create form')));

    // 1.00 lot a cell on 1,000.00 breaches the margin rules: the warning, and the button disabled.
    await type(page, 'strategy-volumePerGrid', '1');
    await page.getByTestId('strategy-breach').waitFor({ timeout: 15_000 });
    await expect(page.getByTestId('strategy-create').isDisabled()).resolves.toBe(true);
    await expect(preview.getAttribute('data-state')).resolves.toBe('ready');
    findings.push(...(await axeFindings(page, 'breaching form')));

    // Back to 0.01 lot: created, and the detail page shows it running.
    await type(page, 'strategy-volumePerGrid', '0.01');
    await expect
      .poll(
        async () =>
          (await page.getByTestId('strategy-breach').count()) === 0 &&
          (await preview.getAttribute('data-state')),
        {
          timeout: 15_000,
        },
      )
      .toBe('ready');
    await page.getByTestId('strategy-create').click();
    await page.waitForURL(/\/en\/strategies\/\d+$/, { timeout: 15_000 });
    await page.getByTestId('strategy-page').waitFor();
    await expect(page.getByTestId('strategy-state').getAttribute('data-state')).resolves.toBe('running');
    await expect(page.getByTestId('strategy-params').textContent()).resolves.toContain('66,000');
    await page.getByTestId('tab-log').click();
    await page.getByTestId('strategy-log').waitFor();
    findings.push(...(await axeFindings(page, 'bot detail')));

    // The list shows it running with its figures.
    await openPage(page, base(), '/en/strategies');
    const card = page.getByTestId('strategy-card').first();
    await card.waitFor();
    await expect(card.getByTestId('strategy-state').getAttribute('data-state')).resolves.toBe('running');
    await expect(card.getByTestId('strategy-investment').textContent()).resolves.toContain('1,000.00');
    await expect(card.getByTestId('strategy-holding').textContent()).resolves.toContain('0 / 4');

    // The ask reaches 66,750.00 (the top cell buys), the bid comes back to 67,000.00 (its take-profit): 2.50.
    await quote(66_700);
    await quote(67_000);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId('strategy-card').first().waitFor();
          return page.getByTestId('strategy-realized').first().textContent();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe('+2.50 USD');
    await expect(card.getByTestId('strategy-trades').textContent()).resolves.toBe('1');
    findings.push(...(await axeFindings(page, 'running list')));

    // The cell buys again; stopped keeping the position: "stopped with position open".
    await quote(66_700);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId('strategy-card').first().waitFor();
          return page.getByTestId('strategy-holding').first().textContent();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toMatch(/^1 \//);
    await page.getByTestId('strategy-stop').first().click();
    await page.getByTestId('stop-dialog').waitFor();
    findings.push(...(await axeFindings(page, 'stop dialog')));
    await page.getByTestId('stop-keep').check();
    await page.getByTestId('stop-confirm').click();
    await page.getByTestId('stop-result').waitFor({ timeout: 15_000 });
    await expect(
      page.getByTestId('stop-result').getByTestId('strategy-state').getAttribute('data-state'),
    ).resolves.toBe('stopped_open');
    await expect(page.getByTestId('stop-returned').textContent()).resolves.toBe('0.00 USD');
    await page.getByTestId('stop-ok').click();
    // Stopped, it leaves the running bots for the history, with the way to close what it kept.
    const row = page.getByTestId('strategy-history-row').first();
    await expect
      .poll(() => row.getByTestId('strategy-state').textContent())
      .toBe('Stopped with position open');
    await expect(page.getByTestId('strategy-stop').count()).resolves.toBe(0);
    await expect(row.getByTestId('strategy-close-kept').isVisible()).resolves.toBe(true);
    findings.push(...(await axeFindings(page, 'history')));
    expect(findings).toEqual([]);

    // On a 375 px phone the three pages fit without sideways scrolling.
    const id = await row.getAttribute('data-strategy');
    const phone = await signedIn(running.browser, base(), trader, { mobile: true });
    for (const path of ['/en/strategies', '/en/strategies/new', `/en/strategies/${id}`]) {
      await openPage(phone.page, base(), path);
      await phone.page.locator('.sb-page .card').first().waitFor();
      expect(await overflow(phone.page), path).toBe(0);
    }
    await phone.context.close();
    await context.close();
  });
});

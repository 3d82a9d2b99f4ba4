import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO, newContext, serverAndBrowser } from './support';

const running = serverAndBrowser();

/** Signs the demo trader in to the terminal, opens a demo account if there is none, shows BTCUSDT. */
async function openTerminal(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/en/login?redirect=%2Fen%2Ftrade%3Fsymbol%3DBTCUSDT`);
  await page.waitForLoadState('networkidle');
  for (const [name, value] of Object.entries({ email: DEMO.email, password: DEMO.password }))
    await page.locator(`input[name=${name}]`).fill(value);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname === '/en/trade', { timeout: 15_000 });
  const empty = page.getByTestId('trade-empty');
  const chart = page.getByTestId('trade-chart');
  await empty.or(chart).first().waitFor({ timeout: 15_000 });
  if (await empty.isVisible()) {
    await page.getByTestId('open-demo').click();
    await page.getByTestId('account-switcher').waitFor({ timeout: 15_000 });
  }
  await expect
    .poll(() => page.getByTestId('chart-symbol').textContent(), { timeout: 15_000 })
    .toBe('BTCUSDT');
  await expect
    .poll(async () => Number(await chart.getAttribute('data-bars')), { timeout: 15_000 })
    .toBeGreaterThan(50);
}

const legend = (page: Page, kind: string) =>
  page.locator(`[data-testid=indicator-legend] li[data-kind="${kind}"]`);

describe('chart indicators in the terminal', () => {
  it('adds RSI in its own pane and an SMA on the candles, by keyboard, and keeps both after a reload', async () => {
    const context = await newContext(running.browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await openTerminal(page, running.server.baseUrl);
    const chart = page.getByTestId('trade-chart');
    expect(await chart.getAttribute('data-panes')).toBe('1');

    // The menu opens from the keyboard and names its controls.
    const button = page.getByTestId('indicators-button');
    await button.focus();
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const panel = page.getByTestId('indicators-panel');
    await panel.waitFor();
    expect(await panel.getAttribute('aria-label')).toBe('Chart indicators');

    await page.getByLabel('Indicator', { exact: true }).selectOption('rsi');
    await page.getByTestId('indicators-add').click();
    await page.getByTestId('indicators-kind').selectOption('sma');
    await page.getByTestId('indicators-add').click();

    // A wrong period is refused with its range; a valid one applies at once.
    const sma = page.locator('[data-testid=indicator-row][data-kind=sma]');
    const period = sma.getByLabel('Period');
    await period.fill('0');
    expect(await period.getAttribute('aria-invalid')).toBe('true');
    expect(await sma.getByRole('alert').textContent()).toBe('Enter a value from 1 to 500.');
    await period.fill('10');
    expect(await period.getAttribute('aria-invalid')).toBeNull();

    // Escape closes the menu and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'indicators-button',
    );

    // RSI has a pane of its own, the SMA is a line on the candles; both show values.
    await expect.poll(() => chart.getAttribute('data-panes')).toBe('2');
    await expect.poll(() => legend(page, 'rsi').getAttribute('data-pane')).toBe('1');
    expect(await legend(page, 'sma').getAttribute('data-pane')).toBe('0');
    expect(await legend(page, 'sma').textContent()).toContain('SMA 10');
    await expect
      .poll(async () => Number(await legend(page, 'rsi').getAttribute('data-value')))
      .toBeGreaterThan(0);
    const rsi = Number(await legend(page, 'rsi').getAttribute('data-value'));
    expect(rsi).toBeLessThanOrEqual(100);
    await expect
      .poll(async () => Number(await legend(page, 'sma').getAttribute('data-value')))
      .toBeGreaterThan(0);
    // The pane is drawn: the chart has a second row of canvases under the candles.
    const canvases = await page.locator('[data-testid=trade-chart] canvas').count();
    expect(canvases).toBeGreaterThan(4);
    // Without a volume indicator, the chart keeps its own volume bars under the candles.
    expect(await chart.getAttribute('data-own-volume')).toBe('shown');

    // After a reload, both are back with their parameters.
    await page.reload();
    await expect
      .poll(async () => Number(await chart.getAttribute('data-bars')), { timeout: 15_000 })
      .toBeGreaterThan(50);
    await expect.poll(() => chart.getAttribute('data-panes'), { timeout: 10_000 }).toBe('2');
    expect(await legend(page, 'sma').textContent()).toContain('SMA 10');
    expect(await legend(page, 'rsi').getAttribute('data-pane')).toBe('1');
    expect(await page.getByTestId('indicators-button').textContent()).toContain('2');

    // Removing RSI removes its pane.
    await page.getByTestId('indicators-button').click();
    await page.getByRole('button', { name: 'Remove Relative strength index (RSI)' }).click();
    await expect.poll(() => chart.getAttribute('data-panes')).toBe('1');
    expect(await legend(page, 'rsi').count()).toBe(0);

    // Leaving the terminal takes the chart and its indicators away without an error.
    await page.keyboard.press('Escape');
    await page.locator('header a[href="/en/markets"]').first().click();
    await page.waitForURL((url) => url.pathname === '/en/markets');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a 375 px phone with the menu open and every indicator on the chart', async () => {
    const context = await newContext(running.browser, { mobile: true });
    const page = await context.newPage();
    await page.goto(`${running.server.baseUrl}/en`);
    await page.evaluate(() =>
      localStorage.setItem(
        'trade.indicators.BTCUSDT',
        JSON.stringify([
          { kind: 'ema', params: [50] },
          { kind: 'bollinger', params: [20, 2] },
          { kind: 'macd', params: [12, 26, 9] },
          { kind: 'stochastic', params: [9, 3, 3] },
          { kind: 'atr', params: [14] },
          { kind: 'volume', params: [] },
        ]),
      ),
    );
    await openTerminal(page, running.server.baseUrl);
    await expect.poll(() => page.getByTestId('trade-chart').getAttribute('data-panes')).toBe('5');
    // With a volume pane, the chart's own volume bars under the candles are hidden: volume once.
    expect(await page.getByTestId('trade-chart').getAttribute('data-own-volume')).toBe('hidden');
    await page.getByTestId('indicators-button').click();
    await page.getByTestId('indicators-panel').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const box = await page.getByTestId('indicators-panel').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await context.close();
  });
});

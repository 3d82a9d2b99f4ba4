import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { btcQuote, serverAndBrowser } from './support';
import { newTrader, openPage, signedIn } from './traders';

/**
 * Issue 19's "done when", in the browser against the real server with a hand-driven market (FEED=off
 * in demo mode, /dev/feed/tick): a trader reaches the strategy home from the navigation, sees the
 * templates, backtests and starts a grid bot in the create wizard (which funds its strategy account),
 * the price crosses levels and the grid profit shows on the bot's page; stopped keeping its position it
 * is "stopped with position open", and the kept position closed later shows close reason 6 in the
 * bot's history; a martingale bot adds on a falling price, takes profit for its round and starts the
 * next one, as its figures and its log say. The pages refresh themselves: no reloads, no fixed waits.
 */
const running = serverAndBrowser({ FEED: 'off' });
const base = () => running.server.baseUrl;

const quote = (bid: number) => btcQuote(base(), bid);

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();

async function fill(page: Page, fields: Record<string, string>) {
  for (const [testId, value] of Object.entries(fields)) await page.getByTestId(testId).fill(value);
}

/** Picks a value in a segmented choice (a radio inside its fieldset). */
async function choose(page: Page, testId: string, label: string) {
  await page.getByTestId(testId).getByRole('radio', { name: label, exact: true }).check();
}

/** Opens one of the bot page's tabs. */
async function tab(page: Page, name: 'positions' | 'orders' | 'history' | 'log') {
  await page.getByTestId(`tab-${name}`).click();
}

describe('strategy bots, the whole journey', () => {
  it('backtests and starts a grid, realises grid profit, stops it keeping its position, closes it later with reason 6; a martingale adds, takes profit and starts its next round', {
    timeout: 240_000,
  }, async () => {
    await quote(67_000);
    const trader = await newTrader(base(), 'strategy-journey');
    await trader.createAccount(1, 2, 100);
    const { context, page } = await signedIn(running.browser, base(), trader);

    // The strategy home from the navigation: the templates of both bots and nothing running yet.
    await openPage(page, base(), '/en');
    await page.locator('.main-nav').getByRole('link', { name: 'Strategies' }).click();
    await page.waitForURL(/\/en\/strategies$/);
    await page.getByTestId('strategies-empty').waitFor();
    await expect(page.getByTestId('strategy-template-card').count()).resolves.toBe(6);
    await page
      .locator(
        '[data-testid=strategy-template-card][data-template=grid-conservative] [data-testid=backtest-return]',
      )
      .waitFor({ timeout: 30_000 });

    // A template fills the wizard: a neutral EURUSD grid around today's price.
    await page.locator('[data-template=grid-neutral]').getByTestId('strategy-template-use').click();
    await page.getByTestId('strategy-form').waitFor();
    await expect.poll(() => page.getByTestId('strategy-lowerPrice').inputValue()).toMatch(/^1\.\d{5}$/);
    await expect(page.getByTestId('strategy-grids').inputValue()).resolves.toBe('20');

    // Our own grid on BTCUSDT. What the server would refuse is refused here first, in words.
    await page.getByTestId('strategy-symbol').selectOption('BTCUSDT');
    await choose(page, 'strategy-direction', 'Long');
    await fill(page, {
      'strategy-investment': '1000',
      'strategy-lowerPrice': '66000',
      'strategy-upperPrice': '67000',
      'strategy-grids': '201',
      'strategy-volumePerGrid': '0.01',
    });
    await expect(text(page, 'strategy-grids-error')).resolves.toBe('From 2 to 200.');
    await fill(page, { 'strategy-investment': '200000' });
    await expect(text(page, 'strategy-investment-error')).resolves.toBe("More than the account's balance.");
    await fill(page, { 'strategy-investment': '1000', 'strategy-grids': '4' });

    // The worst case, the backtest (7 days) and the levels drawn over the candles.
    await page.locator('[data-testid=strategy-preview][data-state=ready]').waitFor({ timeout: 15_000 });
    await expect(text(page, 'worst-margin')).resolves.toMatch(/USD$/);
    await page.locator('[data-testid=strategy-backtest][data-state=ready]').waitFor({ timeout: 20_000 });
    await choose(page, 'backtest-days', '7 days');
    await expect
      .poll(() => page.getByTestId('backtest-basis').textContent(), { timeout: 20_000 })
      .toMatch(/ M5 candles/);
    await expect(text(page, 'backtest-trades')).resolves.toMatch(/^\d+$/);
    await expect
      .poll(async () => Number(await page.getByTestId('preview-chart').getAttribute('data-lines')))
      .toBeGreaterThanOrEqual(5);
    await expect(page.getByTestId('preview-chart-legend').textContent()).resolves.toContain(
      '66,000.00 – 67,000.00',
    );
    await expect(text(page, 'strategy-funding')).resolves.toMatch(/^1,000\.00 USD moves from account #\d+/);

    // Created: the money moves to a new strategy account and the bot runs.
    await page.getByTestId('strategy-create').click();
    await page.waitForURL(/\/en\/strategies\/\d+$/, { timeout: 15_000 });
    await expect(page.getByTestId('strategy-state').getAttribute('data-state')).resolves.toBe('running');
    await expect(text(page, 'strategy-investment')).resolves.toBe('1,000.00 USD');
    await tab(page, 'orders');
    await expect.poll(() => page.getByTestId('strategy-order').count()).toBe(4);
    await expect
      .poll(async () => Number(await page.getByTestId('bot-chart').getAttribute('data-lines')))
      .toBe(5);

    // The ask reaches 66,750.00 (the top cell buys), the bid comes back to 67,000.00: 2.50 of grid profit.
    await quote(66_700);
    await quote(67_000);
    await expect.poll(() => text(page, 'strategy-realized'), { timeout: 20_000 }).toBe('+2.50 USD');
    await tab(page, 'history');
    await expect.poll(() => page.getByTestId('strategy-deal').first().getAttribute('data-reason')).toBe('3');

    // The cell buys again; stopped keeping the position: "stopped with position open".
    await quote(66_700);
    await tab(page, 'positions');
    await expect.poll(() => page.getByTestId('strategy-position').count(), { timeout: 20_000 }).toBe(1);
    await page.getByTestId('strategy-stop').click();
    await page.getByTestId('stop-keep').check();
    await page.getByTestId('stop-confirm').click();
    await expect(
      page.getByTestId('stop-result').getByTestId('strategy-state').getAttribute('data-state'),
    ).resolves.toBe('stopped_open');
    await page.getByTestId('stop-ok').click();
    await expect
      .poll(() => page.getByTestId('strategy-state').first().textContent())
      .toBe('Stopped with position open');
    await expect(page.getByTestId('strategy-stop').count()).resolves.toBe(0);

    // Later the trader closes the kept position: close reason 6, the money back, stopped and closed.
    await quote(66_800);
    await page.getByTestId('strategy-close-kept').click();
    await page.getByTestId('stop-confirm').click();
    await page.getByTestId('stop-result').waitFor();
    await expect(text(page, 'stop-returned')).resolves.toMatch(/^1,00\d\.\d\d USD$/);
    await page.getByTestId('stop-ok').click();
    await expect
      .poll(() => page.getByTestId('strategy-state').first().getAttribute('data-state'))
      .toBe('stopped_closed');
    await tab(page, 'history');
    await expect.poll(() => page.getByTestId('strategy-deal').first().getAttribute('data-reason')).toBe('6');
    await expect(page.getByTestId('strategy-deal-reason').first().textContent()).resolves.toBe(
      'Strategy stopped by you',
    );
    const gridPath = new URL(page.url()).pathname;

    // A martingale: 0.01 lot, an add every 0.5 % (x2, at most 2), the round's take-profit 0.3 %.
    await quote(67_000);
    await openPage(page, base(), '/en/strategies/new');
    await page.getByTestId('strategy-form').waitFor();
    await choose(page, 'strategy-kind', 'Martingale');
    await page.getByTestId('strategy-symbol').selectOption('BTCUSDT');
    await fill(page, {
      'strategy-investment': '2000',
      'strategy-firstVolume': '0.01',
      'strategy-stepPercent': '0.5',
      'strategy-multiplier': '2',
      'strategy-maxAdds': '2',
      'strategy-martingaleTakeProfit': '0.3',
    });
    // x5 over 10 adds would need more lots than the symbol allows: the server's -5205, translated.
    await fill(page, { 'strategy-multiplier': '5', 'strategy-maxAdds': '10' });
    await expect.poll(() => page.getByTestId('strategy-preview-error').count(), { timeout: 15_000 }).toBe(1);
    await expect(text(page, 'strategy-preview-error')).resolves.toBe(
      'A strategy parameter is not valid for this symbol now. Check the range, the levels and the volumes.',
    );
    await fill(page, { 'strategy-multiplier': '2', 'strategy-maxAdds': '2' });
    await page.locator('[data-testid=strategy-preview][data-state=ready]').waitFor({ timeout: 15_000 });
    await page.getByTestId('strategy-create').click();
    await page.waitForURL(/\/en\/strategies\/\d+$/, { timeout: 15_000 });
    await expect.poll(() => text(page, 'strategy-round')).toBe('1 · 0 adds');

    // The price falls through the first add (the ask at 66,700.00): it adds 0.02 lot.
    await quote(66_650);
    await expect.poll(() => text(page, 'strategy-round'), { timeout: 20_000 }).toBe('1 · 1 add');
    // Back up through the round's take-profit: the round closes and the next one opens at once.
    await quote(67_100);
    await expect.poll(() => text(page, 'strategy-round'), { timeout: 20_000 }).toBe('2 · 0 adds');
    await tab(page, 'log');
    const log = page.getByTestId('strategy-log');
    await expect(
      log.locator('tr[data-action=round_closed]').first().getByTestId('log-detail').textContent(),
    ).resolves.toBe('Round 1');
    await expect(
      log.locator('tr[data-action=round_started]').first().getByTestId('log-detail').textContent(),
    ).resolves.toContain('Round 2');
    await expect(
      log.locator('tr[data-action=added]').first().getByTestId('log-detail').textContent(),
    ).resolves.toContain('Add 1 · 0.02 lots');
    await expect(
      log.locator('tr[data-action=position_closed]').first().getByTestId('log-detail').textContent(),
    ).resolves.toContain('Take-profit or stop-loss');

    // The home: the martingale runs, the grid is in the history, stopped by the trader.
    await page.getByRole('link', { name: 'Strategy bots' }).first().click();
    await page.getByTestId('strategy-card').first().waitFor();
    await expect(page.getByTestId('strategy-card').count()).resolves.toBe(1);
    const row = page.locator(
      `[data-testid=strategy-history-row][data-strategy="${gridPath.split('/').at(-1)}"]`,
    );
    await expect(row.getByTestId('strategy-state').getAttribute('data-state')).resolves.toBe(
      'stopped_closed',
    );
    await expect(row.getByTestId('strategy-stop-reason').textContent()).resolves.toBe('Stopped by you.');
    await context.close();
  });
});

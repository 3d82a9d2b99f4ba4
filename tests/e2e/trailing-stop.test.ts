import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { btcQuote, serverAndBrowser } from './support';
import { newTrader, openPage, signedIn, type TTrader } from './traders';

/**
 * A trailing stop in the terminal (issue 21, item 15), on a hand-driven market (FEED=off,
 * /dev/feed/tick; BTCUSDT with a 50.00 spread): the trader buys with a 200.00 (20,000-point)
 * trailing stop from the ticket, the price rises and the stop-loss line on the chart follows it,
 * the trader narrows the distance in the position's dialog, the price falls back and the position
 * closes on its stop-loss with reason 3 in the history.
 */
const running = serverAndBrowser({ FEED: 'off' });
const base = () => running.server.baseUrl;
const quote = (bid: number) => btcQuote(base(), bid);

const chartLines = (page: Page) => page.getByTestId('trade-chart').getAttribute('data-lines');

/** Screenshots of the trailing stop's parts when SHOTS_DIR is set (dark and white, English and Japanese). */
async function shoot(page: Page, name: string, ticket: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const phone = (page.viewportSize()?.width ?? 1440) < 600;
  for (const lang of ['en', 'ja']) {
    await openPage(page, base(), `/${lang}/trade?symbol=BTCUSDT`);
    await page.locator(`[data-testid=trade-chart][data-lines*="pos:${ticket}:sl="]`).waitFor();
    for (const theme of ['dark', 'white']) {
      await page.evaluate((value) => {
        document.documentElement.dataset.theme = value;
      }, theme);
      if (phone) await page.getByTestId('mobile-tab-chart').click();
      await page.screenshot({ path: `${dir}/${name}-${lang}-${theme}-chart.png` });
      if (phone) await page.getByTestId('mobile-tab-trade').click();
      await page.getByTestId('ticket-trailing').fill('15000');
      await page
        .getByTestId('order-ticket')
        .screenshot({ path: `${dir}/${name}-${lang}-${theme}-ticket.png` });
      await page.getByTestId('ticket-trailing').fill('');
      if (phone) await page.getByTestId('mobile-tab-positions').click();
      const row = page.locator(`[data-testid=position-row][data-ticket="${ticket}"]`);
      await row.waitFor();
      await page.screenshot({ path: `${dir}/${name}-${lang}-${theme}-positions.png` });
      await row.getByTestId('position-edit').click();
      const dialog = page.getByTestId('stops-dialog');
      await dialog.waitFor();
      await page.screenshot({ path: `${dir}/${name}-${lang}-${theme}-dialog.png` });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
  }
}

async function terminal(trader: TTrader, mobile = false) {
  const { context, page } = await signedIn(running.browser, base(), trader, { mobile });
  await openPage(page, base(), '/en/trade?symbol=BTCUSDT');
  return { context, page };
}

describe('trailing stop in the terminal', () => {
  it('follows the price up on the chart and closes the position with reason 3 when the price falls back', {
    timeout: 150_000,
  }, async () => {
    await quote(67_000);
    const trader = await newTrader(base(), 'trailing');
    await trader.createAccount(1, 2, 100);
    const { context, page } = await terminal(trader);
    await page.locator('[data-testid=order-ticket][data-symbol=BTCUSDT]').waitFor();

    // The ticket checks the distance before sending: whole points from the stops level.
    const field = page.getByTestId('ticket-trailing');
    await field.fill('0.5');
    const ticket = page.getByTestId('order-ticket');
    await expect.poll(() => ticket.getByRole('alert').first().textContent()).toContain('whole points');
    await expect.poll(() => page.getByTestId('ticket-submit').isEnabled()).toBe(false);
    // 20,000 points: the hint shows where the stop-loss would be now, 200.00 under the bid.
    await field.fill('20000');
    await expect
      .poll(() => ticket.textContent())
      .toContain('Follows the price 20,000 points behind once the profit exceeds that: stop loss 66,800.00');
    await expect.poll(() => page.getByTestId('ticket-submit').isEnabled(), { timeout: 10_000 }).toBe(true);
    await page.getByTestId('ticket-submit').click();
    const result = page.getByTestId('ticket-result');
    await result.waitFor({ timeout: 10_000 });
    const opened = (await result.getAttribute('data-ticket')) ?? '';
    const row = page.locator(`[data-testid=position-row][data-ticket="${opened}"]`);
    await row.waitFor({ timeout: 10_000 });
    // marked as trailing; no stop-loss until the profit exceeds the distance
    await expect.poll(() => row.getByTestId('position-trailing').textContent()).toBe('Trailing');
    expect(await row.getByTestId('position-trailing').getAttribute('data-value')).toBe('20000');
    expect(await row.getByTestId('position-sl').locator('.num').textContent()).toBe('—');

    // The price rises: opened at the ask 67,050.00, the stop-loss appears at 67,100.00 when the
    // bid reaches 67,300.00, then follows it to 67,400.00, and the chart's line moves with it.
    await quote(67_300);
    await expect.poll(() => chartLines(page), { timeout: 10_000 }).toContain(`pos:${opened}:sl=67100.00`);
    await quote(67_600);
    await expect.poll(() => chartLines(page), { timeout: 10_000 }).toContain(`pos:${opened}:sl=67400.00`);
    await expect.poll(() => row.getByTestId('position-sl').locator('.num').textContent()).toBe('67,400.00');
    // a dip that does not reach it moves nothing back
    await quote(67_500);
    await expect.poll(() => row.getByTestId('position-sl').locator('.num').textContent()).toBe('67,400.00');
    expect(await chartLines(page)).toContain(`pos:${opened}:sl=67400.00`);

    // The trader narrows the distance to 150.00 in the position's dialog.
    await row.getByTestId('position-edit').click();
    const dialog = page.getByTestId('stops-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('stops-trailing').inputValue()).toBe('20000');
    await dialog.getByTestId('stops-trailing').fill('15000');
    await dialog.getByTestId('stops-save').click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    await expect.poll(() => row.getByTestId('position-trailing').getAttribute('data-value')).toBe('15000');
    await quote(67_700);
    await expect.poll(() => chartLines(page), { timeout: 10_000 }).toContain(`pos:${opened}:sl=67550.00`);

    if (process.env.SHOTS_DIR) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await shoot(page, 'trailing-1440', opened);
      const phone = await terminal(trader, true);
      await shoot(phone.page, 'trailing-375', opened);
      await phone.context.close();
      await openPage(page, base(), '/en/trade?symbol=BTCUSDT');
    }

    // The price falls back through the stop-loss: closed at the bid with reason 3.
    await quote(67_520);
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('tab-history').click();
    const deal = page.locator(`[data-testid=deal-row][data-position="${opened}"]`);
    await deal.waitFor({ timeout: 10_000 });
    expect(await deal.getByTestId('deal-reason').getAttribute('data-reason')).toBe('3');
    expect(await deal.getByTestId('deal-reason').textContent()).toBe('Take profit or stop loss');
    expect(await chartLines(page)).not.toContain(`pos:${opened}:`);
    await context.close();
  });
});

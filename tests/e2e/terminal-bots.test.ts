import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { STRATEGY_PATHS } from '@broker/contracts/strategy-paths';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { btcQuote, serverAndBrowser } from './support';
import { newTrader, openPage, signedIn } from './traders';

/**
 * The trading terminal shows a bot's orders and positions marked as such (issue 19): a trader with a
 * grid bot on a strategy account finds a "Bots" tab beside the positions and orders of the current
 * account, with each of the bot's orders tagged with its number and no actions (the bot manages
 * them); when the price crosses a level the bought position shows there too; the account's own
 * positions carry no tag. A hand-driven market (FEED=off, /dev/feed/tick).
 */
const running = serverAndBrowser({ FEED: 'off' });
const base = () => running.server.baseUrl;

const quote = (bid: number) => btcQuote(base(), bid);

/** Screenshots of the tab when SHOTS_DIR is set: navy and white themes, English and Japanese, 1440 and 375 px. */
async function shoot(page: Page, path: string, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const lang of ['en', 'ja']) {
    await openPage(page, base(), `/${lang}${path}`);
    // on a phone the book is behind the positions tab of the terminal's own tab bar
    if ((page.viewportSize()?.width ?? 1440) < 600) await page.getByTestId('mobile-tab-positions').click();
    await page.getByTestId('tab-bots').click();
    await page.locator('[data-testid=bot-book] [data-testid=order-row]').first().waitFor();
    for (const theme of ['navy', 'white']) {
      await page.evaluate((value) => {
        document.documentElement.dataset.theme = value;
      }, theme);
      await page.screenshot({ path: `${dir}/${name}-${lang}-${theme}.png` });
    }
  }
}

describe('bots in the trading terminal', () => {
  it('lists the account bots with their orders and positions tagged, read-only', {
    timeout: 120_000,
  }, async () => {
    await quote(67_000);
    const trader = await newTrader(base(), 'terminal-bot');
    const demo = await trader.createAccount(1, 2, 100);
    const created = await trader.call(STRATEGY_PATHS.strategycreate, {
      account_id: demo,
      investment: '1000.00',
      spec: {
        kind: 'grid',
        params: {
          symbol: 'BTCUSDT',
          direction: 'long',
          lowerPrice: '66000.00',
          upperPrice: '67000.00',
          grids: 4,
          spacing: 'arithmetic',
          volumePerGrid: '0.01',
        },
      },
      idempotencyKey: randomUUID(),
    });
    expect(created.body.success, created.body.message).toBe(true);
    const strategyId: number = created.body.data.strategy_id;

    const { context, page } = await signedIn(running.browser, base(), trader);
    await openPage(page, base(), '/en/trade');
    // the tab shows once the account's bots are read, with their number
    const tab = page.getByTestId('tab-bots');
    await tab.waitFor();
    await expect(tab.textContent()).resolves.toContain('1');
    await tab.click();
    const book = page.locator(`[data-testid=bot-book][data-strategy="${strategyId}"]`);
    // its orders come with one read: all four at once
    await book.locator('[data-testid=order-row]').first().waitFor();
    await expect(book.locator('[data-testid=order-row]').count()).resolves.toBe(4);
    await expect(book.getByTestId('bot-tag').first().textContent()).resolves.toBe(`Bot #${strategyId}`);
    // the bot manages them: no modify or cancel
    await expect(book.getByTestId('order-cancel').count()).resolves.toBe(0);
    await expect(book.getByTestId('order-modify').count()).resolves.toBe(0);

    // the ask reaches 66,750.00: the top cell buys; its position shows, tagged, without a close button
    await quote(66_700);
    await book.locator('[data-testid=position-row]').first().waitFor({ timeout: 10_000 });
    await expect(book.locator('[data-testid=position-row] [data-testid=bot-tag]').count()).resolves.toBe(1);
    await expect(book.getByTestId('position-close').count()).resolves.toBe(0);
    // the link leads to the bot's page
    await expect(book.getByTestId('bot-open').getAttribute('href')).resolves.toBe(
      `/en/strategies/${strategyId}`,
    );

    // the account's own book is untagged
    await page.getByTestId('tab-orders').click();
    await expect(page.getByTestId('bot-tag').count()).resolves.toBe(0);

    await page.setViewportSize({ width: 1440, height: 900 });
    await shoot(page, '/trade', 'terminal-bots-1440');
    await context.close();
    if (process.env.SHOTS_DIR) {
      const phone = await signedIn(running.browser, base(), trader, { mobile: true });
      await shoot(phone.page, '/trade', 'terminal-bots-375');
      await phone.context.close();
    }
  });
});

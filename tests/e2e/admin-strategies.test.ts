import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { ADMIN_STRATEGY_PATHS } from '@broker/contracts/admin/strategy-paths';
import { STRATEGY_PATHS } from '@broker/contracts/strategy-paths';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  btcQuote,
  createStaff,
  newContext,
  serverAndBrowser,
  signInStaff,
  staffCall,
  staffPage,
} from './support';
import { newTrader, type TTrader } from './traders';

/**
 * The back office's strategy bots against the real server (issue 19), with a hand-driven market
 * (FEED=off, /dev/feed/tick): a trader starts a grid and a martingale through the portal's API; staff
 * find them in the list, open a bot's drawer (parameters, levels, log), stop the martingale keeping its
 * position after a too-long reason is refused, and see the state change; the risk page shows the bots'
 * exposure. Staff holding only strategies.view see no stop button and the server refuses them. The page
 * with its drawer fits a 375 px phone. `STRATEGY_SHOTS=<folder>` saves screenshots.
 */
const running = serverAndBrowser({ FEED: 'off' });
const base = () => running.server.baseUrl;

const quote = (bid: number) => btcQuote(base(), bid);

async function startBot(trader: TTrader, account: number, investment: string, spec: object) {
  const answer = await trader.call(STRATEGY_PATHS.strategycreate, {
    account_id: account,
    investment,
    spec,
    idempotencyKey: randomUUID(),
  });
  expect(answer.body.success, answer.body.message).toBe(true);
  return answer.body.data as { strategy_id: number; account_id: number };
}

/** A long BTCUSDT grid 66,000–67,000 in `grids` cells of 0.01 lot. */
const longGrid = (grids: number) => ({
  kind: 'grid',
  params: {
    symbol: 'BTCUSDT',
    direction: 'long',
    lowerPrice: '66000.00',
    upperPrice: '67000.00',
    grids,
    spacing: 'arithmetic',
    volumePerGrid: '0.01',
  },
});

/** Screenshots for review when STRATEGY_SHOTS names a folder (not part of the assertions). */
async function shot(page: Page, name: string) {
  const folder = process.env.STRATEGY_SHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: `${folder}/${name}.png` });
}

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const row = (page: Page, strategyId: number) =>
  page.locator(`[data-testid=strategy-row][data-key="${strategyId}"]`);

describe('strategy bots in the back office', () => {
  it('staff find a customer’s bots, open one with its log, stop a martingale keeping its position, and see the bots on the risk page', {
    timeout: 180_000,
  }, async () => {
    await quote(67_000);
    const trader = await newTrader(base(), 'bots');
    const main = await trader.createAccount(1, 2, 100);
    const grid = await startBot(trader, main, '1000.00', longGrid(4));
    const martingale = await startBot(trader, main, '2000.00', {
      kind: 'martingale',
      params: {
        symbol: 'BTCUSDT',
        direction: 'long',
        firstVolume: '0.01',
        stepPercent: '0.5',
        multiplier: '2',
        maxAdds: 3,
        takeProfitPercent: '0.3',
      },
    });

    const { context, page } = await staffPage(running.browser, base());
    // Both bots are working: the default segment lists them with the customer.
    await page.goto(`${base()}/admin/strategies`);
    await row(page, martingale.strategy_id).waitFor({ timeout: 10_000 });
    await row(page, grid.strategy_id).waitFor();
    expect(
      Number(await page.getByTestId('strategy-states-count-working').textContent()),
    ).toBeGreaterThanOrEqual(2);
    const gridCells = (
      await row(page, grid.strategy_id).locator('td .kit-cell-value').allTextContents()
    ).join(' ');
    expect(gridCells).toContain(trader.email);
    expect(gridCells).toContain('BTCUSDT');
    expect(gridCells).toContain('1,000.00 USD');
    // The kind filter keeps the martingale alone.
    await page.getByTestId('strategy-filter-kind').selectOption('martingale');
    await expect.poll(() => row(page, grid.strategy_id).count(), { timeout: 10_000 }).toBe(0);
    expect(await row(page, martingale.strategy_id).count()).toBe(1);
    await shot(page, 'strategies-list');

    // The martingale's drawer: its parameters, its round's first price and its log.
    await row(page, martingale.strategy_id).getByTestId('strategy-open').click();
    const drawer = page.getByTestId('strategy-drawer');
    await drawer.getByTestId('strategy-log').waitFor({ timeout: 10_000 });
    expect(await drawer.getByTestId('strategy-drawer-state').getAttribute('data-state')).toBe('running');
    expect(await drawer.getByTestId('strategy-params').textContent()).toContain('Volume multiplier');
    // its round: the first order and the adds' prices (3 adds), none filled yet
    expect(await drawer.getByTestId('strategy-round').textContent()).toContain('Adds filled in this round0');
    expect(await drawer.getByTestId('strategy-levels').locator('li').count()).toBe(4);
    expect(await drawer.getByTestId('strategy-log').textContent()).toContain('Started');
    expect(new URL(page.url()).searchParams.get('open')).toBe(String(martingale.strategy_id));
    await shot(page, 'strategies-drawer');

    // Stop, keeping the position: a 61-character reason is refused in the dialog and nothing is sent.
    await drawer.getByTestId('strategy-stop').click();
    await page.getByTestId('strategy-stop-keep').check();
    const reason = page.getByTestId('strategy-reason');
    await reason.fill('x'.repeat(61));
    expect(await page.getByTestId('strategy-reason-counter').textContent()).toBe('61/60');
    await page.getByTestId('confirm-ok').click();
    expect(await page.getByTestId('strategy-reason-problem').textContent()).toBe('At most 60 characters.');
    expect(await reason.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'strategies-stop-dialog');
    await reason.fill('Exposure review');
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached', timeout: 10_000 });
    await expect
      .poll(() => drawer.getByTestId('strategy-drawer-state').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('stopped_open');
    expect(await page.getByTestId('strategy-notice').textContent()).toContain('1 position is kept');
    expect(await drawer.getByTestId('strategy-stop-reason').textContent()).toContain('Stopped by staff');
    // The trader sees it stopped with the position open; the list says so too.
    const mine = await trader.call(STRATEGY_PATHS.strategylist, {});
    expect(
      (mine.body.data.items as { strategy_id: number; state: string }[]).find(
        (s) => s.strategy_id === martingale.strategy_id,
      )?.state,
    ).toBe('stopped_open');
    await page.keyboard.press('Escape');
    await expect
      .poll(() => row(page, martingale.strategy_id).getByTestId('strategy-state').getAttribute('data-state'))
      .toBe('stopped_open');
    await shot(page, 'strategies-stopped');

    // The risk page: the bots' exposure per symbol, in the demo scope (the trader's demo account).
    await page.goto(`${base()}/admin/risk`);
    await page.locator('[data-testid=risk-scope] [data-value=demo]').click();
    const exposure = page.locator('[data-testid=risk-bot-symbol-row][data-key=BTCUSDT]');
    await exposure.waitFor({ timeout: 15_000 });
    const cells = await exposure.locator('td .kit-cell-value').allTextContents();
    // two working bots (the grid running, the martingale stopped with its position), 0.01 lot long
    expect(cells.slice(1, 4)).toEqual(['2', '0.01 / 0.00', '+0.01']);
    await page.getByTestId('risk-bots').scrollIntoViewIfNeeded();
    await shot(page, 'strategies-risk');
    await context.close();

    // On a phone: the list and the drawer fit 375 px.
    const phone = await newContext(running.browser, { mobile: true });
    await phone.addInitScript(() => localStorage.setItem('admin_lang', 'en'));
    const small = await phone.newPage();
    await signInStaff(small, base());
    await small.goto(`${base()}/admin/strategies?state=all&open=${grid.strategy_id}`);
    await small.getByTestId('strategy-drawer').getByTestId('strategy-log').waitFor({ timeout: 10_000 });
    expect(await overflow(small)).toBeLessThanOrEqual(0);
    await shot(small, 'strategies-phone-drawer');
    await small.keyboard.press('Escape');
    await row(small, grid.strategy_id).waitFor();
    expect(await overflow(small)).toBeLessThanOrEqual(0);
    await shot(small, 'strategies-phone-list');
    await phone.close();
  });

  it('staff holding only strategies.view see the bots without a stop button, and the server refuses the stop', {
    timeout: 120_000,
  }, async () => {
    await quote(67_000);
    const trader = await newTrader(base(), 'viewed');
    const main = await trader.createAccount(1, 2, 100);
    const bot = await startBot(trader, main, '500.00', longGrid(2));
    const { context, page } = await staffPage(running.browser, base());
    const viewer = await createStaff(running, page, 'botviewer', ['strategies.view']);
    const v = viewer.page;
    await v.goto(`${base()}/admin/strategies?open=${bot.strategy_id}`);
    await v.getByTestId('strategy-drawer').getByTestId('strategy-log').waitFor({ timeout: 10_000 });
    expect(await v.getByTestId('strategy-stop').count()).toBe(0);
    const refused = await staffCall(v, ADMIN_STRATEGY_PATHS.adminstrategystop, {
      strategy_id: bot.strategy_id,
      closePositions: true,
      reason: 'Not allowed',
      idempotencyKey: randomUUID(),
    });
    expect(refused.status).toBe(403);
    const detail = await staffCall(v, ADMIN_STRATEGY_PATHS.adminstrategydetail, {
      strategy_id: bot.strategy_id,
    });
    expect(detail.body.data.strategy.state).toBe('running');
    await viewer.context.close();
    await context.close();
  });
});

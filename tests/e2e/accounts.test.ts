import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Trader } from '../../apps/server/test/trader';
import { DEMO, launchBrowser, newContext, startServer, type TRunningServer } from './support';

const en = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../packages/i18n/locales/en.json'), 'utf8'),
) as Record<string, string>;

let server: TRunningServer;
let browser: Browser;
/** The demo trader signed in through the API, for what the scenarios set up or check behind the page. */
let api: Trader;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  api = await Trader.signIn(server.baseUrl, DEMO.email, DEMO.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Polls for a value that arrives with the page's scripts and calls (longer than the 1 s default). */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });

async function signedInPage(
  options: { mobile?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, options);
  const answer = await context.request.post(server.baseUrl + ROUTE_PATHS.login, {
    data: { email: DEMO.email, password: DEMO.password },
  });
  expect((await answer.json()).success).toBe(true);
  return { context, page: await context.newPage() };
}

/** The spec 4 `account` cookie ("accountId:accountType"), as the portal reads it. */
async function accountCookie(context: BrowserContext, name = 'account') {
  const value = (await context.cookies()).find((c) => c.name === name)?.value;
  return value === undefined ? null : decodeURIComponent(value);
}

interface TAccount {
  account_id: number;
  account_type: number;
  trade_type: number;
  leverage: number;
  balance: string;
}
const accounts = async (): Promise<TAccount[]> => (await api.call(ROUTE_PATHS.accountlist)).body.data;

/** Opens and closes a BTCUSDT position through the API (a signed order with the trade token). */
async function roundTrip(account: TAccount) {
  let opened: Awaited<ReturnType<Trader['send']>> | undefined;
  // The simulated feed may not have priced BTCUSDT yet right after start.
  for (let attempt = 0; attempt < 40; attempt++) {
    opened = await api.send(
      account.account_id,
      { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' },
      account.leverage,
    );
    if (opened.body.success || opened.body.errorCode !== -3009) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(opened?.body.success, opened?.body.message).toBe(true);
  const positionId: number = opened?.body.data.ticket;
  const closed = await api.call(ROUTE_PATHS.positionclose, {
    account_id: account.account_id,
    order_id: positionId,
    idempotencyKey: randomUUID(),
  });
  expect(closed.body.success, closed.body.message).toBe(true);
  return positionId;
}

describe('accounts and history in the browser', () => {
  it('opens a demo account through the form, lands on its success page, then lists it with 100,000.00', async () => {
    const { context, page } = await signedInPage();
    await page.goto(`${server.baseUrl}/en/personalCenter/account`);
    const empty = page.getByTestId('accounts-empty');
    await empty.waitFor();
    await Promise.all([
      page.waitForURL('**/en/personalCenter/account/create'),
      empty.getByRole('link', { name: en['accounts.empty.open'] }).click(),
    ]);

    const demo = page.getByTestId('create-type-1');
    await demo.waitFor();
    expect(await demo.textContent()).toContain('100,000.00 USD');
    expect(await demo.getByTestId('create-remaining').getAttribute('data-left')).toBe('5');
    await demo.click();
    await page.getByTestId('create-mode-2').click();
    await page.getByTestId('create-leverage-200').click();
    await Promise.all([
      page.waitForURL(/\/en\/personalCenter\/account\/success\?account=\d+$/),
      page.getByTestId('create-confirm').click(),
    ]);
    const accountId = Number(new URL(page.url()).searchParams.get('account'));
    await eventually(() => page.getByTestId('success-balance').textContent()).toBe('100,000.00 USD');
    expect(await page.getByTestId('account-success').textContent()).toContain('1:200');

    await Promise.all([
      page.waitForURL('**/en/personalCenter/account'),
      page.getByTestId('success-accounts').click(),
    ]);
    const card = page.locator(`[data-testid=account-card][data-account="${accountId}"]`);
    await eventually(() => card.getByTestId('account-balance').textContent()).toBe('100,000.00');
    expect(await card.getByTestId('account-equity').textContent()).toBe('100,000.00 USD');
    expect(await card.getAttribute('data-current')).toBe('true');
    const details = page.getByTestId('account-details');
    await eventually(() => details.getByTestId('info-total-equity').textContent()).toBe('100,000.00 USD');
    expect(await details.textContent()).toContain(en['accounts.mode.2']);
    expect(await details.getByTestId('account-connection').textContent()).toBe(
      en['accounts.connection.normal'],
    );
    expect(await accounts()).toMatchObject([
      { account_id: accountId, account_type: 1, trade_type: 2, leverage: 200 },
    ]);
    await context.close();
  });

  it('makes the chosen account current and keeps the choice in the account cookie', async () => {
    const [first] = await accounts();
    const secondId = await api.createAccount(1, 1, 100);
    const { context, page } = await signedInPage();
    await page.goto(`${server.baseUrl}/en/personalCenter/account`);
    const cards = page.getByTestId('account-card');
    await eventually(() => cards.count()).toBe(2);
    // Without a saved choice the demo account (the first type-1 account) is current.
    expect(await cards.first().getAttribute('data-current')).toBe('true');

    await page.locator(`[data-testid=account-card][data-account="${secondId}"]`).click();
    await eventually(() => accountCookie(context)).toBe(`${secondId}:1`);
    // Spec 4: the current account's trade type is saved in the tradeType cookie.
    await eventually(() => accountCookie(context, 'tradeType')).toBe('1');
    expect(
      await page
        .locator(`[data-testid=account-card][data-account="${secondId}"]`)
        .getAttribute('data-current'),
    ).toBe('true');
    await eventually(() => page.getByTestId('account-details').getAttribute('data-account')).toBe(
      String(secondId),
    );
    expect(await page.getByTestId('account-details').textContent()).toContain(en['accounts.mode.1']);

    await page.reload();
    await eventually(() =>
      page.locator(`[data-testid=account-card][data-account="${secondId}"]`).getAttribute('data-current'),
    ).toBe('true');
    await page.locator(`[data-testid=account-card][data-account="${first?.account_id}"]`).click();
    await eventually(() => accountCookie(context)).toBe(`${first?.account_id}:1`);
    await eventually(() => accountCookie(context, 'tradeType')).toBe(String(first?.trade_type));
    await context.close();
  });

  it('opens an experience account in cents and holds to one per mode', async () => {
    const { context, page } = await signedInPage();
    await page.goto(`${server.baseUrl}/en/personalCenter/account/create`);
    const experience = page.getByTestId('create-type-3');
    await experience.waitFor();
    expect(await experience.textContent()).toContain('0.00 USC');
    await experience.click();
    await page.getByTestId('create-mode-1').click();
    await Promise.all([
      page.waitForURL(/\/account\/success\?account=\d+$/),
      page.getByTestId('create-confirm').click(),
    ]);
    await eventually(() => page.getByTestId('success-balance').textContent()).toBe('0.00 USC');

    // The novice experience account exists: the form offers only the standard mode now.
    await page.goto(`${server.baseUrl}/en/personalCenter/account/create`);
    await page.getByTestId('create-type-3').click();
    const novice = page.getByTestId('create-mode-1');
    expect(await novice.getByTestId('create-mode-taken').textContent()).toBe(en['accounts.create.modeTaken']);
    expect(await novice.locator('input').isDisabled()).toBe(true);
    expect(await page.getByTestId('create-mode-2').locator('input').isChecked()).toBe(true);

    // Opened elsewhere meanwhile, the standard one is refused by the server with its translated reason.
    await api.createAccount(3, 2, 100);
    await page.getByTestId('create-confirm').click();
    await eventually(() => page.getByTestId('create-error').textContent()).toBe(en['errors.-3015']);
    // The refreshed counts now close the experience type altogether.
    await eventually(() => page.getByTestId('create-type-3').locator('input').isDisabled()).toBe(true);
    expect(await page.getByTestId('create-type-3').getByTestId('create-remaining').textContent()).toBe(
      en['accounts.create.limitReached'],
    );
    expect(
      (await accounts())
        .filter((a) => a.account_type === 3)
        .map((a) => a.trade_type)
        .sort(),
    ).toEqual([1, 2]);
    await context.close();
  });

  it('shows a closed BTCUSDT position in the history with its reason, filters by symbol and exports it as CSV', async () => {
    const [demo] = await accounts();
    if (!demo) throw new Error('no demo account');
    const positionId = await roundTrip(demo);
    const { context, page } = await signedInPage();
    await page.goto(`${server.baseUrl}/en/personalCenter/history?account=${demo.account_id}`);
    const row = page.locator(`[data-testid=deal][data-position="${positionId}"]`);
    await row.waitFor();
    expect(await row.getByTestId('deal-reason').textContent()).toBe(en['history.reason.1']);
    expect(await row.textContent()).toContain('BTCUSDT');
    expect(await row.getByTestId('deal-hold').textContent()).toMatch(/^\d+ sec$/);
    const profit = (await row.getByTestId('deal-profit').textContent()) ?? '';
    // One row on the page: the page total is that row's profit.
    expect(await page.getByTestId('deals-total-profit').textContent()).toBe(profit);

    await page.getByTestId('history-symbol').fill('EURUSD');
    await page.getByTestId('history-empty').waitFor();
    expect(new URL(page.url()).searchParams.get('symbol')).toBe('EURUSD');
    await page.getByTestId('history-symbol').fill('btcusdt');
    await row.waitFor();
    expect(new URL(page.url()).searchParams.get('symbol')).toBe('BTCUSDT');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('history-export').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`history-${demo.account_id}.csv`);
    const file = readFileSync((await download.path()) as string, 'utf8');
    // In the page's language, with a byte-order mark so spreadsheet apps read UTF-8.
    expect(file.startsWith('\uFEFF')).toBe(true);
    const csv = file.slice(1).trim().split('\n');
    expect(csv[0]).toMatch(/^Position,Symbol,Side,Volume \(lots\),Open time \(UTC\)/);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(new RegExp(`^${positionId},BTCUSDT,Buy,0\\.01,.*,Manual close$`));

    // The market buy is a finished order too, filled at once.
    await page.getByTestId('history-tab-orders').click();
    const order = page.getByTestId('order');
    await order.first().waitFor();
    expect(await order.count()).toBe(1);
    expect(await order.getAttribute('data-status')).toBe('filled');
    expect(await order.textContent()).toContain(
      en['history.orderType.market']?.replace('{side}', en['history.side.buy'] ?? ''),
    );
    await context.close();
  });

  it('lays the history out as stacked cards on a 375 px phone', async () => {
    const [demo] = await accounts();
    const { context, page } = await signedInPage({ mobile: true });
    await page.goto(`${server.baseUrl}/en/personalCenter/history?account=${demo?.account_id}`);
    const row = page.getByTestId('deal').first();
    await row.waitFor();
    expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe('grid');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('resets the demo account to 100,000.00 after confirmation', async () => {
    let [demo] = await accounts();
    if (!demo) throw new Error('no demo account');
    // Each round trip pays the spread; repeat in the rare case the price moved exactly as much.
    for (let i = 0; i < 3 && demo.balance === '100000.00'; i++) {
      await roundTrip(demo);
      [demo] = (await accounts()) as [TAccount];
    }
    expect(demo.balance).not.toBe('100000.00');

    const { context, page } = await signedInPage();
    await page.goto(`${server.baseUrl}/en/personalCenter/account`);
    const card = page.locator(`[data-testid=account-card][data-account="${demo.account_id}"]`);
    await card.click();
    await eventually(() => card.getAttribute('data-current')).toBe('true');
    await eventually(() => card.getByTestId('account-balance').textContent()).not.toBe('100,000.00');
    await page.getByTestId('account-reset').click();
    const dialog = page.getByTestId('reset-dialog');
    expect(await dialog.textContent()).toContain('100,000.00 USD');
    await page.getByTestId('reset-dialog-confirm').click();
    await page.getByTestId('accounts-notice').waitFor();
    expect(await dialog.count()).toBe(0);
    await eventually(() => card.getByTestId('account-balance').textContent()).toBe('100,000.00');
    await eventually(() => page.getByTestId('info-balance').textContent()).toBe('100,000.00');
    expect((await accounts()).find((a) => a.account_id === demo.account_id)?.balance).toBe('100000.00');
    await context.close();
  });
});

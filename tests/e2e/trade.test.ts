import { randomUUID } from 'node:crypto';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import Big from 'big.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Trader } from '../../apps/server/test/trader';
import { DEMO, launchBrowser, newContext, startServer, type TRunningServer } from './support';

let server: TRunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Opens the terminal as an anonymous visitor, is sent to sign in, and comes back signed in. */
async function signInToTerminal(page: Page) {
  await page.goto(`${server.baseUrl}/en/trade`);
  expect(new URL(page.url()).pathname).toBe('/en/login');
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/en/trade');
  // The sign-in form works once the page has hydrated and loaded its code.
  await page.waitForLoadState('networkidle');
  await page.fill('input[name=email]', DEMO.email);
  await page.fill('input[name=password]', DEMO.password);
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/en/trade', { timeout: 15_000 }),
    page.getByTestId('login-submit').click(),
  ]);
}

/** The live bid and ask of a symbol, as the watchlist shows them (decimal strings). */
async function quoteOf(page: Page, symbol: string): Promise<{ bid: Big; ask: Big }> {
  const prices = page.locator(`[data-testid=watchlist] li[data-symbol="${symbol}"] .tr-watch-price`);
  const [bid, ask] = await Promise.all([
    prices.nth(0).getAttribute('data-value'),
    prices.nth(1).getAttribute('data-value'),
  ]);
  return { bid: new Big(bid ?? '0'), ask: new Big(ask ?? '0') };
}

const positionRow = (page: Page, ticket: string) =>
  page.locator(`[data-testid=position-row][data-ticket="${ticket}"]`);
const orderRow = (page: Page, ticket: string) =>
  page.locator(`[data-testid=order-row][data-ticket="${ticket}"]`);

/** Sends the order the ticket holds and answers its ticket number (and kind), or the refusal. */
async function submitTicket(page: Page): Promise<{ ticket: string; kind: string } | { error: string }> {
  const submit = page.getByTestId('ticket-submit');
  await expect.poll(() => submit.isEnabled(), { timeout: 10_000 }).toBe(true);
  // A pending price can turn to the wrong side of the moving market between the check and the click,
  // and the ticket then disables the button: report that as not sent, for the caller to retry.
  const clicked = await submit.click({ timeout: 5000 }).then(
    () => true,
    () => false,
  );
  if (!clicked) return { error: 'not sent' };
  const result = page.getByTestId('ticket-result').or(page.getByTestId('ticket-error'));
  await result.waitFor({ timeout: 10_000 });
  if ((await result.getAttribute('data-testid')) === 'ticket-error')
    return { error: (await result.textContent()) ?? '' };
  return {
    ticket: (await result.getAttribute('data-ticket')) ?? '',
    kind: (await result.getAttribute('data-kind')) ?? '',
  };
}

/**
 * Places a buy pending order `offset` away from the live ask (negative: below). The market moves
 * between reading the quote and sending, so a refusal for the wrong side is retried at the new price.
 */
async function placeBuyPending(page: Page, kind: 'limit' | 'stop', offset: string): Promise<string> {
  await page.getByTestId(`ticket-kind-${kind}`).click();
  for (let attempt = 0; attempt < 5; attempt++) {
    const { ask } = await quoteOf(page, 'BTCUSDT');
    await page.getByTestId('ticket-price').fill(ask.plus(offset).toFixed(2));
    const submit = page.getByTestId('ticket-submit');
    // The ticket stays locked for a moment after showing a result (one submission per intent), and
    // refuses a price on the wrong side of the market before sending: then read the quote again.
    const handle = await submit.elementHandle();
    const enabled = await page
      .waitForFunction((el) => !(el as HTMLButtonElement).disabled, handle, { timeout: 1500 })
      .then(
        () => true,
        () => false,
      );
    if (!enabled) continue;
    const result = await submitTicket(page);
    if ('ticket' in result) {
      expect(result.kind).toBe('order');
      return result.ticket;
    }
  }
  throw new Error(`no buy ${kind} could be placed`);
}

/**
 * Finds the lowest draggable line on the chart (the pointer turns into a resize cursor over it) and
 * drags it `pixels` further down.
 */
async function dragLowestLine(page: Page, pixels: number) {
  const box = await page.getByTestId('trade-chart').boundingBox();
  if (!box) throw new Error('no chart');
  const chart = page.locator('.tr-chart');
  const x = box.x + box.width * 0.6;
  let lowest: number | null = null;
  for (let y = box.y + 10; y < box.y + box.height * 0.8; y += 2) {
    await page.mouse.move(x, y);
    if ((await chart.getAttribute('data-line-hover')) === 'true') lowest = y;
  }
  if (lowest === null) throw new Error('no draggable line on the chart');
  await page.mouse.move(x, lowest);
  await page.mouse.down();
  await page.mouse.move(x, lowest + pixels, { steps: 6 });
  await page.mouse.up();
}

describe('trading terminal in the browser', () => {
  it('opens a demo account, trades BTCUSDT, sets levels, works pending orders, closes and finds the deal in history', async () => {
    const context = await newContext(browser);
    // Counts the notes of the notification sound (Web Audio oscillators).
    await context.addInitScript(() => {
      const win = window as unknown as { beeps: number };
      win.beeps = 0;
      const create = BaseAudioContext.prototype.createOscillator;
      BaseAudioContext.prototype.createOscillator = function (this: BaseAudioContext) {
        win.beeps++;
        return create.call(this);
      };
    });
    // Records the kind of every toast shown, to prove each notification comes once.
    await context.addInitScript(() => {
      const win = window as unknown as { toastKinds: string[] };
      win.toastKinds = [];
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof HTMLElement && node.dataset.testid === 'trade-toast')
              win.toastKinds.push(node.dataset.kind ?? '');
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    // What the account stream delivers, and every HTTP call for the account's figures.
    const accountFrames: string[] = [];
    page.on('websocket', (socket) => {
      if (new URL(socket.url()).pathname === '/ws/account')
        socket.on('framereceived', (frame) => accountFrames.push(String(frame.payload)));
    });
    let infoCalls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === ROUTE_PATHS.info) infoCalls++;
    });
    await signInToTerminal(page);
    // The trader wants a sound with each trading notification.
    const saved = await page.evaluate(async (path) => {
      const csrf = document.cookie.match(/(?:^|; )csrf=([^;]+)/)?.[1] ?? '';
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) },
        body: JSON.stringify({ notification: { ringsOpen: true } }),
      });
      return ((await response.json()) as { success: boolean }).success;
    }, ROUTE_PATHS.savesettings);
    expect(saved).toBe(true);
    await page.reload();

    // The demo trader has no account yet: the terminal offers one.
    await page.getByTestId('trade-empty').waitFor({ timeout: 15_000 });
    await page.getByTestId('open-demo').click();
    const switcher = page.getByTestId('account-switcher');
    await switcher.waitFor({ timeout: 15_000 });
    expect(await switcher.getByTestId('account-type').getAttribute('data-type')).toBe('1');
    await expect.poll(() => page.getByTestId('figure-balance').getAttribute('data-value')).toBe('100000.00');
    expect(await page.getByTestId('trade-mode').getAttribute('data-mode')).toBe('2');

    // Crypto trades around the clock.
    await page.getByTestId('watch-search').fill('btc');
    await page.locator('[data-testid=watchlist] li[data-symbol=BTCUSDT] [data-testid=watch-row]').click();
    await expect.poll(() => page.getByTestId('chart-symbol').textContent()).toBe('BTCUSDT');
    expect(new URL(page.url()).searchParams.get('symbol')).toBe('BTCUSDT');
    await expect
      .poll(async () => Number(await page.getByTestId('trade-chart').getAttribute('data-bars')), {
        timeout: 15_000,
      })
      .toBeGreaterThan(50);
    expect(await page.getByTestId('ticket-volume').inputValue()).toBe('0.01');
    // Margin and commission of the order, from the server, before sending.
    await expect
      .poll(() => page.getByTestId('ticket-margin').getAttribute('data-value'), { timeout: 10_000 })
      .toMatch(/^\d+\.\d{2}$/);

    // Buy 0.01 at market: the ticket number comes back, the position lists with live profit.
    const bought = await submitTicket(page);
    if (!('ticket' in bought)) throw new Error(`buy refused: ${bought.error}`);
    expect(bought.kind).toBe('position');
    const ticket = bought.ticket;
    await page.locator('[data-testid=trade-toast][data-kind=opened]').waitFor({ timeout: 10_000 });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { beeps: number }).beeps))
      .toBeGreaterThan(0);
    const row = positionRow(page, ticket);
    await row.waitFor({ timeout: 10_000 });
    const profit = row.getByTestId('position-profit');
    // Once the account stream has pushed the position, its profit moves with the market without any
    // HTTP call for the account's figures (polling is only the fallback while the socket is down).
    await expect
      .poll(() =>
        accountFrames.some((f) => f.startsWith('{"type":"account"') && f.includes(`"order_id":${ticket},`)),
      )
      .toBe(true);
    const infoCallsBefore = infoCalls;
    const firstProfit = await profit.getAttribute('data-value');
    expect(firstProfit).toMatch(/^-?\d+\.\d{2}$/);
    await expect
      .poll(() => profit.getAttribute('data-value'), { timeout: 30_000, interval: 250 })
      .not.toBe(firstProfit);
    expect(infoCalls).toBe(infoCallsBefore);
    expect(await page.getByTestId('connection-warning').count()).toBe(0);
    expect(Number(await page.getByTestId('figure-margin').getAttribute('data-value'))).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('trade-chart').getAttribute('data-lines'))
      .toContain(`pos:${ticket}:entry=`);

    // Take-profit and stop-loss from the positions tab, on the right sides of the market.
    const { bid } = await quoteOf(page, 'BTCUSDT');
    const takeProfit = bid.plus(1000).toFixed(2);
    const stopLoss = bid.minus(1000).toFixed(2);
    await row.getByTestId('position-edit').click();
    const stops = page.getByTestId('stops-dialog');
    await stops.getByTestId('stops-tp').fill(stopLoss);
    await expect.poll(() => stops.getByRole('alert').count()).toBeGreaterThan(0);
    await stops.getByTestId('stops-tp').fill(takeProfit);
    await stops.getByTestId('stops-sl').fill(stopLoss);
    await stops.getByTestId('stops-save').click();
    await stops.waitFor({ state: 'detached', timeout: 10_000 });
    const en = (value: string) =>
      new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format(Number(value));
    await expect.poll(() => row.getByTestId('position-tp').textContent()).toBe(en(takeProfit));
    await expect.poll(() => row.getByTestId('position-sl').textContent()).toBe(en(stopLoss));
    await expect
      .poll(() => page.getByTestId('trade-chart').getAttribute('data-lines'))
      .toContain(`pos:${ticket}:tp=${takeProfit}`);

    // Dragging the stop-loss line down the chart moves the stop loss once confirmed.
    await dragLowestLine(page, 30);
    const drag = page.getByTestId('drag-dialog');
    await drag.waitFor({ timeout: 5000 });
    expect(await drag.locator('h2').textContent()).toBe('Move stop loss?');
    await drag.getByTestId('confirm-ok').click();
    await drag.waitFor({ state: 'detached', timeout: 10_000 });
    await expect.poll(() => row.getByTestId('position-sl').textContent()).not.toBe(en(stopLoss));
    const moved = Number((await row.getByTestId('position-sl').textContent())?.replace(/,/g, ''));
    expect(moved).toBeLessThan(Number(stopLoss));

    // A buy limit far below the market waits in the pending tab until it is deleted.
    const far = await placeBuyPending(page, 'limit', '-2000');
    await page.getByTestId('tab-orders').click();
    await orderRow(page, far).waitFor({ timeout: 10_000 });
    await orderRow(page, far).getByTestId('order-cancel').click();
    await orderRow(page, far).waitFor({ state: 'detached', timeout: 10_000 });
    await page.locator('[data-testid=trade-toast][data-kind=cancelled]').first().waitFor({ timeout: 10_000 });

    // A buy limit just under and a buy stop just over the ask: the moving market fills one of them.
    await page.getByTestId('ticket-volume').fill('0.02');
    const limit = await placeBuyPending(page, 'limit', '-8');
    const stop = await placeBuyPending(page, 'stop', '8');
    try {
      await page.locator('[data-testid=trade-toast][data-kind=filled]').first().waitFor({ timeout: 60_000 });
    } catch (error) {
      await page.screenshot({ path: '/tmp/shots-trade/e2e-fill-failure.png' });
      console.log(
        await page.locator('[data-testid=trade-toast]').evaluateAll((t) => t.map((x) => x.textContent)),
      );
      throw error;
    }
    for (const order of [limit, stop]) {
      const pending = orderRow(page, order);
      if ((await pending.count()) === 0) continue;
      await pending.getByTestId('order-cancel').click();
      await pending.waitFor({ state: 'detached', timeout: 10_000 });
    }
    await page.getByTestId('tab-positions').click();
    await expect
      .poll(() => page.locator('[data-testid=position-row]').count(), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);

    // Half of the filled position is closed; the other half stays open.
    const filled = page.locator(`[data-testid=position-row]:not([data-ticket="${ticket}"])`).first();
    const filledTicket = (await filled.getAttribute('data-ticket')) ?? '';
    await filled.getByTestId('position-close').click();
    const partial = page.getByTestId('close-dialog');
    expect(await partial.getByTestId('close-volume').inputValue()).toBe('0.02');
    await partial.getByTestId('close-volume-down').click();
    expect(await partial.getByTestId('close-confirm').textContent()).toBe('Close 0.01 lots');
    await partial.getByTestId('close-confirm').click();
    await partial.waitFor({ state: 'detached', timeout: 10_000 });
    await page
      .locator('[data-testid=trade-toast][data-kind=partlyClosed]')
      .first()
      .waitFor({ timeout: 10_000 });
    await expect.poll(() => positionRow(page, filledTicket).locator('td').nth(4).textContent()).toBe('0.01');

    // Close the first position at the market; its deal is in the history, closed by hand.
    await row.getByTestId('position-close').click();
    const closing = page.getByTestId('close-dialog');
    expect(await closing.getByTestId('close-volume').inputValue()).toBe('0.01');
    await closing.getByTestId('close-confirm').click();
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    await page.locator('[data-testid=trade-toast][data-kind=closed]').first().waitFor({ timeout: 10_000 });
    await page.getByTestId('tab-history').click();
    const deal = page.locator(`[data-testid=deal-row][data-position="${ticket}"]`);
    await deal.waitFor({ timeout: 10_000 });
    expect(await deal.getByTestId('deal-reason').getAttribute('data-reason')).toBe('1');
    expect(await deal.getByTestId('deal-reason').textContent()).toBe('Manual');
    expect(await page.getByTestId('full-history').getAttribute('href')).toBe('/en/personalCenter/history');

    // Close everything that is left.
    await page.getByTestId('tab-positions').click();
    await page.getByTestId('close-all').click();
    await page.getByTestId('confirm-dialog').getByTestId('confirm-ok').click();
    await expect.poll(() => page.locator('[data-testid=position-row]').count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('figure-margin').getAttribute('data-value')).toBe('0.00');

    // Every notification came once, whether the change arrived pushed or polled: one market buy,
    // one partial close; the two pending orders near the market may fill before they are listed.
    const toastKinds = () => page.evaluate(() => (window as unknown as { toastKinds: string[] }).toastKinds);
    // The close toasts wait for the deal history (reason and profit).
    await expect
      .poll(async () => (await toastKinds()).filter((k) => k === 'closed').length)
      .toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(1500);
    const kinds = await toastKinds();
    const count = (kind: string) => kinds.filter((k) => k === kind).length;
    expect(count('opened'), kinds.join()).toBe(1);
    expect(count('partlyClosed'), kinds.join()).toBe(1);
    expect(count('placed'), kinds.join()).toBeGreaterThanOrEqual(1);
    expect(count('placed'), kinds.join()).toBeLessThanOrEqual(3);
    expect(count('filled'), kinds.join()).toBeGreaterThanOrEqual(1);
    expect(count('filled'), kinds.join()).toBeLessThanOrEqual(2);
    expect(count('cancelled'), kinds.join()).toBeGreaterThanOrEqual(1);
    expect(count('cancelled'), kinds.join()).toBeLessThanOrEqual(2);
    expect(count('closed'), kinds.join()).toBeGreaterThanOrEqual(2);
    expect(count('closed'), kinds.join()).toBeLessThanOrEqual(3);
    await context.close();
  }, 180_000);

  it('lays the terminal out for a 375 px phone: quote, chart, trade and position tabs with a buy and sell bar', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    await signInToTerminal(page);
    const terminal = page.getByTestId('trade-terminal');
    await terminal.waitFor({ timeout: 15_000 });
    expect(await terminal.getAttribute('data-layout')).toBe('phone');
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.getByTestId('mobile-tab-quotes').click();
    await page.getByTestId('watch-search').fill('eth');
    await page.locator('[data-testid=watchlist] li[data-symbol=ETHUSDT] [data-testid=watch-row]').click();
    // Choosing a symbol shows its chart, with the buy and sell bar under it.
    await expect.poll(() => page.getByTestId('chart-symbol').textContent()).toBe('ETHUSDT');
    await page.getByTestId('action-bar').waitFor();
    await page.getByTestId('action-sell').click();
    const ticket = page.getByTestId('order-ticket');
    await ticket.waitFor();
    expect(await ticket.getAttribute('data-symbol')).toBe('ETHUSDT');
    expect(await page.getByTestId('ticket-side-sell').getAttribute('aria-checked')).toBe('true');
    const submit = await page.getByTestId('ticket-submit').boundingBox();
    expect(submit && submit.x + submit.width).toBeLessThanOrEqual(375);

    // The trader sells 0.01 ETHUSDT from the phone, finds the position, closes it and sees the deal.
    const sent = await submitTicket(page);
    if (!('ticket' in sent)) throw new Error(`the sell was refused: ${sent.error}`);
    expect(sent.kind).toBe('position');
    await page.getByTestId('mobile-tab-positions').click();
    await page.getByTestId('bottom-panel').waitFor();
    await page.getByTestId('tab-positions').click();
    const position = positionRow(page, sent.ticket);
    await position.waitFor({ timeout: 10_000 });
    await position.getByTestId('position-close').click();
    await page.getByTestId('close-dialog').getByTestId('close-confirm').click();
    await position.waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('tab-history').click();
    await page.locator(`[data-testid=deal-row][data-position="${sent.ticket}"]`).waitFor({ timeout: 10_000 });
    await context.close();
  }, 90_000);

  it('arrives rendered by the server with the trader’s data, hydrates without a mismatch and goes live', async () => {
    // The demo trader holds a BTCUSDT position (opened through the API), so the positions table,
    // whose times are in the reader's zone, is part of the server's render.
    const trader = await Trader.signIn(server.baseUrl, DEMO.email, DEMO.password);
    const accounts = await trader.api.post(ROUTE_PATHS.accountlist, {});
    const accountId = accounts.body.data[0]?.account_id ?? (await trader.createAccount(1, 2, 100));
    const sent = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
    expect(sent.body.success, sent.body.message).toBe(true);
    const ticket = sent.body.data.ticket;

    const context = await newContext(browser, { locale: 'en-US' });
    await context.addCookies(
      [...trader.api.cookies].map(([name, value]) => ({ name, value, url: server.baseUrl })),
    );
    // The first byte holds the terminal with the position, not a loading frame.
    const html = await (await context.request.get(`${server.baseUrl}/en/trade`)).text();
    expect(html).toContain('data-testid="trade-terminal"');
    expect(html).not.toContain('data-testid="trade-loading"');
    expect(html).toContain('data-testid="position-row"');

    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /hydrat|did not match|recoverable/i.test(message.text()))
        problems.push(message.text());
    });
    await page.goto(`${server.baseUrl}/en/trade`);
    // The market stream delivers, and the position's open time (left blank by the server, which
    // does not know the reader's zone) is filled in after hydration.
    await page.waitForFunction(
      () => performance.getEntriesByName('market-stream:first-quote').length > 0,
      undefined,
      { timeout: 15_000 },
    );
    const row = page.locator('[data-testid=position-row]').first();
    await expect.poll(() => row.textContent()).toContain(String(new Date().getFullYear()));
    expect(problems).toEqual([]);
    await page.locator(`[data-testid=position-row][data-ticket="${ticket}"]`).waitFor();
    // The hydrated terminal follows the account: a position closed elsewhere leaves its table.
    const closed = await trader.call(ROUTE_PATHS.positionclose, {
      account_id: accountId,
      order_id: ticket,
      volume: '0.01',
      idempotencyKey: randomUUID(),
    });
    expect(closed.body.success, closed.body.message).toBe(true);
    await page.locator(`[data-testid=position-row][data-ticket="${ticket}"]`).waitFor({ state: 'detached' });
    await context.close();
  }, 90_000);
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO, newContext, serverAndBrowser } from './support';

const running = serverAndBrowser();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the open page. */
async function axeFindings(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe-core is injected as a script, without types here
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: { impact: string }) => ['serious', 'critical'].includes(v.impact))
      .map(
        (v: { id: string; nodes: { target: string[] }[] }) =>
          `${v.id}: ${v.nodes.map((n) => n.target.join(' '))}`,
      );
  });
}

/** Signs the demo trader in to the terminal (no symbol in the address), opening a demo account if needed. */
async function openTerminal(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${running.server.baseUrl}/en/login?redirect=%2Fen%2Ftrade`);
  for (const [name, value] of Object.entries({ email: DEMO.email, password: DEMO.password }))
    await page.locator(`input[name=${name}]`).fill(value);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname === '/en/trade', { timeout: 15_000 });
  const empty = page.getByTestId('trade-empty');
  const chart = page.getByTestId('trade-chart').first();
  await empty.or(chart).first().waitFor({ timeout: 15_000 });
  if (await empty.isVisible()) {
    await page.getByTestId('open-demo').click();
    await page.getByTestId('account-switcher').waitFor({ timeout: 15_000 });
  }
  return page;
}

const panes = (page: Page) => page.getByTestId('chart-pane');
const pane = (page: Page, index: number) => page.locator(`[data-testid=chart-pane][data-pane="${index}"]`);

/** Each pane's symbol and timeframe, and which one is active, as the page shows them. */
async function shownLayout(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid=chart-pane] [data-testid=chart-panel]')].map(
      (panel) =>
        `${panel.dataset.symbol} ${panel.dataset.timeframe}${panel.getAttribute('aria-current') === 'true' ? ' *' : ''}`,
    ),
  );
}

/** Every pane has drawn its candles. */
async function chartsDrawn(page: Page, count: number) {
  await expect.poll(() => panes(page).count(), { timeout: 15_000 }).toBe(count);
  for (let i = 0; i < count; i++)
    await expect
      .poll(async () => Number(await pane(page, i).getByTestId('trade-chart').getAttribute('data-bars')), {
        timeout: 15_000,
      })
      .toBeGreaterThan(20);
}

const EXPECTED = ['EURUSD M15', 'GBPUSD M15', 'BTCUSDT H1 *', 'XAUUSD M15'];

describe('terminal chart layouts', () => {
  it('switches to four charts, sets their symbols, keeps them on the server across a reload and a second browser, and trades the active pane’s symbol', async () => {
    const first = await newContext(running.browser);
    const page = await openTerminal(first);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    // The switch is a radio group with names; arrow keys move the choice (1 → 2 → 4 charts).
    const group = page.getByRole('radiogroup', { name: 'Chart layout' });
    await group.waitFor();
    expect(await page.getByRole('radio', { name: '1 chart' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: '1 chart' }).focus();
    await page.keyboard.press('ArrowRight');
    await chartsDrawn(page, 2);
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: '4 charts' }).isChecked()).toBe(true);
    await chartsDrawn(page, 4);

    // The active pane is outlined and named as current; clicking another pane makes it active, and the
    // watchlist sets the active pane's symbol only.
    expect(await shownLayout(page)).toEqual(['EURUSD M15 *', 'XAUUSD M15', 'BTCUSDT M15', 'USDJPY M15']);
    const watch = (symbol: string) => page.locator(`li[data-symbol=${symbol}] [data-testid=watch-row]`);
    await pane(page, 1).getByTestId('chart-symbol').click();
    await expect.poll(() => pane(page, 1).getAttribute('data-active')).toBe('true');
    await watch('GBPUSD').click();
    await pane(page, 3).getByTestId('chart-symbol').click();
    await watch('XAUUSD').click();
    // The shared toolbar's timeframes act on the active pane.
    await pane(page, 2).click({ position: { x: 120, y: 120 } });
    const saved = page.waitForResponse((r) => {
      if (!r.url().endsWith('/chart/layoutsave')) return false;
      const body = JSON.parse(r.request().postData() ?? '{}');
      return body.layout?.active === 2 && body.layout?.panes?.[2]?.timeframe === 'H1';
    });
    await page.locator('.tr-layout-bar [data-tf=H1]').click();
    await expect.poll(() => shownLayout(page)).toEqual(EXPECTED);
    expect((await (await saved).json()).success).toBe(true);
    // The ticket, the watchlist and the address follow the active pane; a pane change is announced.
    expect(await page.getByTestId('order-ticket').getAttribute('data-symbol')).toBe('BTCUSDT');
    expect(await watch('BTCUSDT').getAttribute('aria-current')).toBe('true');
    expect(await page.getByTestId('layout-announcement').textContent()).toContain('BTCUSDT H1');
    expect(new URL(page.url()).searchParams.get('symbol')).toBe('BTCUSDT');
    // The four panes pass axe-core (names of the regions, the radio group, contrast of the outline's text).
    expect(await axeFindings(page)).toEqual([]);

    // Reload: the same layout.
    await page.reload();
    await chartsDrawn(page, 4);
    expect(await shownLayout(page)).toEqual(EXPECTED);

    // Another browser (its own cookies and storage): the same layout, from the server.
    const second = await newContext(running.browser);
    const other = await openTerminal(second);
    await chartsDrawn(other, 4);
    expect(await shownLayout(other)).toEqual(EXPECTED);
    expect(await other.getByRole('radio', { name: '4 charts' }).isChecked()).toBe(true);

    // A shortcut acts on the active pane's symbol: with one-click off, Shift+S fills the ticket for BTCUSDT.
    await other.getByTestId('order-ticket').waitFor();
    await pane(other, 2).getByTestId('chart-symbol').click();
    await other.keyboard.press('Shift+S');
    await expect.poll(() => other.getByTestId('ticket-side-sell').getAttribute('aria-checked')).toBe('true');
    expect(await other.getByTestId('order-ticket').getAttribute('data-symbol')).toBe('BTCUSDT');

    // One-click on (after its confirmation): Shift+B buys the active pane's symbol at once.
    await other.getByTestId('one-click').click();
    await other.getByTestId('one-click-dialog').waitFor();
    await other.getByTestId('confirm-ok').click();
    await other.getByTestId('one-click-dialog').waitFor({ state: 'detached' });
    await pane(other, 2).getByTestId('chart-symbol').click();
    const rows = other.getByTestId('position-row');
    const before = await rows.count();
    await other.keyboard.press('Shift+B');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(before + 1);
    expect(await other.locator('[data-testid=position-row][data-symbol=BTCUSDT]').count()).toBe(before + 1);
    // Another pane made active: the shortcut closes nothing there (no XAUUSD position), the BTCUSDT one stays.
    await pane(other, 3).getByTestId('chart-symbol').click();
    expect(await other.getByTestId('order-ticket').getAttribute('data-symbol')).toBe('XAUUSD');
    await other.keyboard.press('Shift+C');
    await pane(other, 2).getByTestId('chart-symbol').click();
    await other.keyboard.press('Shift+C');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(before);

    // Back to one chart: the active pane (BTCUSDT H1) stays in view, and the first browser sees it after a reload.
    const single = other.waitForResponse((r) => r.url().endsWith('/chart/layoutsave'));
    await other.getByTitle('1 chart').click();
    await single;
    await chartsDrawn(other, 0);
    expect(await other.getByTestId('chart-symbol').textContent()).toBe('BTCUSDT');
    await page.goto(`${running.server.baseUrl}/en/trade`);
    await expect
      .poll(() => page.getByTestId('chart-symbol').textContent(), { timeout: 15_000 })
      .toBe('BTCUSDT');
    expect(await page.getByTestId('chart-layout').getAttribute('data-kind')).toBe('1');
    expect(errors).toEqual([]);
    await first.close();
    await second.close();
  });

  it('shows the active pane alone on a 375 px phone, without the switch and without sideways scrolling', async () => {
    const desktop = await newContext(running.browser);
    const page = await openTerminal(desktop);
    await page.getByTitle('4 charts').click();
    await chartsDrawn(page, 4);
    await pane(page, 3).getByTestId('chart-symbol').click();
    const saved = page.waitForResponse((r) => r.url().endsWith('/chart/layoutsave'));
    await page.locator('li[data-symbol=BTCUSDT] [data-testid=watch-row]').click();
    await saved;
    await desktop.close();

    const phone = await newContext(running.browser, { mobile: true });
    const mobile = await openTerminal(phone);
    await expect
      .poll(() => mobile.getByTestId('chart-symbol').textContent(), { timeout: 15_000 })
      .toBe('BTCUSDT');
    expect(await mobile.getByTestId('trade-terminal').getAttribute('data-layout')).toBe('phone');
    expect(await mobile.getByTestId('layout-switch').count()).toBe(0);
    expect(await mobile.getByTestId('trade-chart').count()).toBe(1);
    const overflow = await mobile.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.close();
  });
});

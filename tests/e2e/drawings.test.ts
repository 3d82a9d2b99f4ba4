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
  await waitForChart(page);
}

async function waitForChart(page: Page) {
  await expect
    .poll(() => page.getByTestId('chart-symbol').textContent(), { timeout: 15_000 })
    .toBe('BTCUSDT');
  await expect
    .poll(async () => Number(await page.getByTestId('trade-chart').getAttribute('data-bars')), {
      timeout: 15_000,
    })
    .toBeGreaterThan(50);
}

const drawings = (page: Page) => page.getByTestId('drawing');

/** Picks a tool and clicks the chart at the given shares of the price pane. */
async function place(page: Page, tool: string, ...at: [number, number][]) {
  const button = page.locator(`[data-testid=drawing-toolbar] [data-tool=${tool}]`);
  await button.click();
  expect(await button.getAttribute('aria-pressed')).toBe('true');
  const catcher = page.getByTestId('drawing-catcher');
  const box = await catcher.boundingBox();
  if (!box) throw new Error('no drawing layer');
  for (const [x, y] of at) await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
  await catcher.waitFor({ state: 'detached' });
  expect(await button.getAttribute('aria-pressed')).toBe('false');
}

describe('drawing tools on the terminal chart', () => {
  it('places drawings anchored to time and price, keeps them on the server across a reload, deletes one and clears all', async () => {
    const context = await newContext(running.browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await openTerminal(page, running.server.baseUrl);
    const toolbar = page.getByRole('toolbar', { name: 'Drawing tools' });
    await toolbar.waitFor();
    expect(await toolbar.getByRole('button', { name: 'Fibonacci retracement' }).count()).toBe(1);

    await page
      .getByTestId('drawing-clear')
      .isEnabled()
      .then(async (on) => {
        if (on) await page.getByTestId('drawing-clear').click();
      });
    await place(page, 'hline', [0.5, 0.3]);
    await place(page, 'trend', [0.3, 0.7], [0.6, 0.4]);
    await place(page, 'fib', [0.2, 0.8], [0.45, 0.2]);
    await expect.poll(() => drawings(page).count()).toBe(3);
    expect(await page.locator('[data-testid=drawing][data-kind=fib] [data-level]').count()).toBe(7);
    const anchors = await drawings(page).evaluateAll((nodes) =>
      nodes.map((n) => n.getAttribute('data-points')),
    );

    // The server keeps them: after a reload they come back at the same times and prices.
    const saved = page.waitForResponse((r) => r.url().includes('/chart/drawingssave'));
    await place(page, 'rect', [0.65, 0.2], [0.8, 0.5]);
    await saved;
    await page.reload();
    await waitForChart(page);
    await expect.poll(() => drawings(page).count(), { timeout: 15_000 }).toBe(4);
    const after = await drawings(page).evaluateAll((nodes) =>
      nodes.map((n) => n.getAttribute('data-points')),
    );
    expect(after.slice(0, 3)).toEqual(anchors);

    // Drag the trend line's first end point: it moves, the second stays, and the change is saved.
    const trend = page.locator('[data-testid=drawing][data-kind=trend]');
    const layer = await page.getByTestId('drawing-layer').boundingBox();
    if (!layer) throw new Error('no drawing layer');
    // Three quarters along the line placed from (0.3, 0.7) to (0.6, 0.4), clear of the other drawings.
    await page.mouse.click(layer.x + layer.width * 0.525, layer.y + layer.height * 0.475);
    await expect.poll(() => trend.getAttribute('data-selected')).toBe('true');
    const [startHandle] = await trend.getByTestId('drawing-handle').all();
    const handleBox = await startHandle?.boundingBox();
    if (!handleBox) throw new Error('no handle');
    const before = ((await trend.getAttribute('data-points')) ?? '').split(' ');
    const moved = page.waitForResponse((r) => r.url().includes('/chart/drawingssave'));
    await page.mouse.move(handleBox.x + handleBox.width / 2, handleBox.y + handleBox.height / 2);
    await page.mouse.down();
    await page.mouse.move(handleBox.x + 60, handleBox.y - 40, { steps: 5 });
    await page.mouse.up();
    await moved;
    const afterDrag = ((await trend.getAttribute('data-points')) ?? '').split(' ');
    expect(afterDrag[0]).not.toBe(before[0]);
    expect(afterDrag[1]).toBe(before[1]);

    const anchorsAfterDrag = await drawings(page).evaluateAll((nodes) =>
      nodes.map((n) => n.getAttribute('data-points')),
    );

    // A new timeframe moves the bars, not the anchors.
    await page.getByRole('button', { name: 'M5', exact: true }).click();
    await expect
      .poll(async () =>
        (await drawings(page).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-points')))).slice(
          0,
          3,
        ),
      )
      .toEqual(anchorsAfterDrag.slice(0, 3));

    // Select the horizontal line with the mouse, delete it with the keyboard.
    const line = page.locator('[data-testid=drawing][data-kind=hline]');
    const hit = line.locator('.tr-draw-hit');
    const box = await hit.boundingBox();
    if (!box) throw new Error('no line');
    await page.mouse.click(box.x + box.width * 0.92, box.y + box.height / 2);
    await expect.poll(() => line.getAttribute('data-selected')).toBe('true');
    expect(await page.getByTestId('drawing-delete').isEnabled()).toBe(true);
    const deleted = page.waitForResponse((r) => r.url().includes('/chart/drawingssave'));
    await page.keyboard.press('Delete');
    await deleted;
    await expect.poll(() => drawings(page).count()).toBe(3);
    await page.reload();
    await waitForChart(page);
    await expect.poll(() => drawings(page).count(), { timeout: 15_000 }).toBe(3);
    expect(await line.count()).toBe(0);

    // Clear all.
    const cleared = page.waitForResponse((r) => r.url().includes('/chart/drawingssave'));
    await page.getByTestId('drawing-clear').click();
    await cleared;
    await expect.poll(() => drawings(page).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('trades from the keyboard: with one-click off a shortcut fills the ticket, with it on (after a confirmation) the order goes at once', async () => {
    const context = await newContext(running.browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await openTerminal(page, running.server.baseUrl);
    const oneClick = page.getByTestId('one-click');
    expect(await oneClick.getAttribute('aria-pressed')).toBe('false');
    const rows = page.getByTestId('position-row');
    // Leave any field, so that the keys go to the terminal.
    await page.getByTestId('chart-symbol').click();
    const before = await rows.count();

    // Off: Shift+S chooses sell in the ticket and sends nothing.
    await page.keyboard.press('Shift+S');
    await expect.poll(() => page.getByTestId('ticket-side-sell').getAttribute('aria-checked')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'ticket-submit',
    );
    expect(await rows.count()).toBe(before);

    // ? lists the shortcuts.
    await page.getByTestId('chart-symbol').click();
    await page.keyboard.press('Shift+?');
    const help = page.getByTestId('shortcuts-dialog');
    await help.waitFor();
    expect(await help.textContent()).toContain('Shift+B');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // Turning one-click on asks first and says what it means.
    await oneClick.click();
    const ask = page.getByTestId('one-click-dialog');
    await ask.waitFor();
    expect(await ask.textContent()).toContain('no confirmation step');
    await page.getByTestId('confirm-ok').click();
    await ask.waitFor({ state: 'detached' });
    expect(await oneClick.getAttribute('aria-pressed')).toBe('true');
    expect(await oneClick.textContent()).toContain('On');

    // On: Shift+B buys at once, Shift+C closes that position at once.
    await page.getByTestId('chart-symbol').click();
    await page.keyboard.press('Shift+B');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(before + 1);
    await page.keyboard.press('Shift+C');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(before);

    // The choice is kept for the next visit.
    await page.reload();
    await waitForChart(page);
    await expect.poll(() => page.getByTestId('one-click').getAttribute('aria-pressed')).toBe('true');
    expect(errors).toEqual([]);
    await context.close();
  });
});

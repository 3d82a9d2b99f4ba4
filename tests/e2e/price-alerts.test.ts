import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPushService } from '../../apps/server/test/push-service';
import { serverAndBrowser } from './support';
import { newTrader, openPage, signedIn } from './traders';

/**
 * Price alerts in the terminal against the real server (issue 21, item 18), with a hand-driven market
 * (FEED=off, /dev/feed/tick) and a local push service that decrypts what the server sends as a
 * browser would: a trader adds an alert from the chart's bell, sees it as a dashed line on the chart
 * and in the Alerts tab, changes its note, opens the dialog at a price with a right click on the chart, the bid crosses it, the toast appears within a second, the email and the
 * Web Push message arrive, and the alert shows as fired. Screenshots of the dialog and the list go to
 * SHOTS_DIR when it is set (1440 and 375 px, English and German, white and dark themes).
 */
const push = new TestPushService();
const running = serverAndBrowser({ FEED: 'off', PUSH_CA_FILE: push.caFile, PUSH_SERVICE_HOSTS: '127.0.0.1' });
const base = () => running.server.baseUrl;
beforeAll(() => push.start());
afterAll(() => push.stop());

const SYMBOL = 'XAUUSD';

/** One XAUUSD quote with a 0.30 spread, through the off-market filter as a feed's. */
async function quote(bid: string) {
  const answer = await fetch(`${base()}/dev/feed/tick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol: SYMBOL, bid, ask: (Number(bid) + 0.3).toFixed(2) }),
  });
  expect(answer.status).toBe(200);
}

/** The trader's mail from the developer mailbox, polled until `match` finds one. */
async function mailTo(
  to: string,
  match: (mail: { subject: string; text: string }) => boolean,
): Promise<{ subject: string; text: string; receivedAt: number }> {
  for (let i = 0; i < 100; i++) {
    const box = (await (await fetch(`${base()}/dev/mailbox.json?to=${encodeURIComponent(to)}`)).json()) as {
      mails: { subject: string; text: string; receivedAt: number }[];
    };
    const found = box.mails.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no matching mail to ${to}`);
}

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png` });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is (contrast included). */
async function axeFindings(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  // Colours as they settle: no fade-in of a dialog half-way through when axe measures.
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe-core is injected as a script, without types here
    const axe = (window as any).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    const out: string[] = [];
    for (const violation of result.violations)
      if (['serious', 'critical'].includes(violation.impact))
        for (const node of violation.nodes) out.push(`${violation.id} ${node.target.join(' ')}`);
    return out;
  });
}

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('price alerts in the terminal', () => {
  it('adds an alert from the chart, shows it, fires it within a second and delivers it by push and email', {
    timeout: 180_000,
  }, async () => {
    await quote('2000.00');
    const trader = await newTrader(base(), 'alerts');
    const csrf = { 'x-csrf-token': trader.api.cookies.get('csrf') ?? '' };
    const subscribed = await trader.api.post('/api/v1/usercenter/pushinsert', push.subscription('e2e'), csrf);
    expect(subscribed.body.success).toBe(true);

    const { context, page } = await signedIn(running.browser, base(), trader);
    await openPage(page, base(), `/en/trade?symbol=${SYMBOL}`);
    await page.getByTestId('open-demo').click();
    await page.locator('[data-testid=trade-terminal]').waitFor();
    await page.getByTestId('chart-symbol').filter({ hasText: SYMBOL }).waitFor();

    // The bell opens the dialog with the bid now; a level above it is a "rises to" alert.
    await page.getByTestId('alert-add').click();
    const dialog = page.getByTestId('alert-dialog');
    await dialog.waitFor();
    await expect(page.getByTestId('alert-price').inputValue()).resolves.toBe('2000.00');
    await page.getByTestId('alert-price').fill('2003.00');
    await expect(page.getByTestId('alert-condition-above').isChecked()).resolves.toBe(true);
    await page.getByTestId('alert-note').fill('Gold breakout');
    await shoot(page, 'dialog-en-1440-navy');
    expect(await axeFindings(page)).toEqual([]);
    await page.getByTestId('alert-create').click();
    await dialog.waitFor({ state: 'detached' });

    // On the chart as a dashed line, and in the Alerts tab.
    await page.locator('[data-testid=trade-chart][data-lines*="alert:"][data-lines*="=2003.00"]').waitFor();
    await page.getByTestId('tab-alerts').click();
    const row = page.locator('[data-testid=alert-row][data-state=active]');
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('2,003.00');
    await expect(page.getByTestId('alerts-count').textContent()).resolves.toContain('1');
    await shoot(page, 'list-en-1440-navy');
    expect(await axeFindings(page)).toEqual([]);

    // Edited from the list: a new note, the level kept.
    await page.getByTestId('alert-edit').click();
    await dialog.waitFor();
    await expect(page.getByTestId('alert-price').inputValue()).resolves.toBe('2003.00');
    await page.getByTestId('alert-note').fill('Gold breakout, take half');
    await page.getByTestId('alert-create').click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-testid=alert-row]', { hasText: 'take half' }).waitFor();

    // A right click on the chart opens the dialog at the price under the pointer.
    await page.getByTestId('trade-chart').click({ button: 'right', position: { x: 450, y: 30 } });
    await dialog.waitFor();
    const picked = Number(await page.getByTestId('alert-price').inputValue());
    expect(picked).toBeGreaterThan(2003);
    await expect(page.getByTestId('alert-condition-above').isChecked()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The bid crosses the level: the toast within a second, then the mail and the push message.
    await quote('2002.50');
    const crossed = Date.now();
    await quote('2003.20');
    await page.locator('[data-testid=trade-toast][data-kind=alert]').waitFor({ timeout: 1_000 });
    const toastMs = Date.now() - crossed;
    const toast = await page.locator('[data-testid=trade-toast][data-kind=alert]').textContent();
    expect(toast).toContain(SYMBOL);
    expect(toast).toContain('2,003.20');
    const mail = await mailTo(trader.email, (m) => m.subject.includes(SYMBOL));
    expect(mail.text).toContain('Gold breakout, take half');
    expect(mail.text).toContain('2003.20');
    const pushed = await push.next((p) => p.path.endsWith('/e2e'));
    expect(JSON.parse(pushed.payload)).toMatchObject({
      kind: 'alert',
      alert: { symbol: SYMBOL, price: '2003.20' },
    });
    console.info(
      `price alert: toast ${toastMs} ms, push ${pushed.receivedAt - crossed} ms, mail ${mail.receivedAt - crossed} ms after the crossing tick`,
    );

    // Marked fired in the list; its line leaves the chart.
    await page.locator('[data-testid=alert-row][data-state=fired]').waitFor();
    await page.waitForFunction(
      () =>
        !document.querySelector('[data-testid=trade-chart]')?.getAttribute('data-lines')?.includes('alert:'),
    );
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await context.close();

    // The dialog and the list on a phone and in German, in the white and dark themes: no overflow,
    // no serious axe finding (and screenshots with SHOTS_DIR).
    for (const [lang, mobile, theme] of [
      ['en', true, 'dark'],
      ['de', false, 'white'],
      ['de', true, 'white'],
      ['de', false, 'dark'],
    ] as const) {
      // The theme as the trader saves it (the portal writes its cookie from the stored settings).
      await trader.api.post('/api/v1/usercenter/savesettings', { theme }, csrf);
      const shots = await signedIn(running.browser, base(), trader, { mobile });
      await openPage(shots.page, base(), `/${lang}/trade?symbol=${SYMBOL}`);
      const width = mobile ? 375 : 1440;
      if (mobile) {
        await shots.page.getByTestId('mobile-tab-positions').click();
        await shots.page.getByTestId('tab-alerts').click();
      } else await shots.page.getByTestId('tab-alerts').click();
      await shots.page.getByTestId('alerts-list').waitFor();
      await shoot(shots.page, `list-${lang}-${width}-${theme}`);
      expect(await overflow(shots.page), `${lang} ${width}`).toBeLessThanOrEqual(0);
      expect(await axeFindings(shots.page), `${lang} ${width} ${theme}`).toEqual([]);
      if (mobile) await shots.page.getByTestId('mobile-tab-chart').click();
      await shots.page.getByTestId('alert-add').click();
      await shots.page.getByTestId('alert-dialog').waitFor();
      await shoot(shots.page, `dialog-${lang}-${width}-${theme}`);
      expect(await overflow(shots.page), `${lang} ${width} dialog`).toBeLessThanOrEqual(0);
      expect(await axeFindings(shots.page), `${lang} ${width} ${theme} dialog`).toEqual([]);
      await shots.context.close();
    }
  });
});

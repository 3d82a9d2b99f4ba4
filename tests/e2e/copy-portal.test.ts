import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ADMIN_COPY_PATHS } from '@broker/contracts/admin/copy-paths';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { StaffClient } from '../../apps/server/test/staff';
import { ADMIN_PASSWORD, newContext, serverAndBrowser } from './support';
import { openPage, newTrader as registerTrader, signedIn as signedInAs, type TTrader } from './traders';

/**
 * The portal's copy-trading screens against the real server (issue 18): a leader applies on the
 * leader dashboard and staff approve it; the leader trades through the API; a follower finds the
 * leader, follows through the dialog with the what-if shown, sees the copy with its copied position in
 * My copies, reads the parity report, pauses, resumes and stops, and sees what came back.
 */
const running = serverAndBrowser();
const base = () => running.server.baseUrl;
const en = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../packages/i18n/locales/en.json'), 'utf8'),
) as Record<string, string>;
/** An English text with its plain `{name}` values filled in. */
const text = (key: string, values: Record<string, string | number> = {}) =>
  (en[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
const newTrader = (label: string) => registerTrader(base(), label);
const signedIn = (trader: TTrader, options: { mobile?: boolean } = {}) =>
  signedInAs(running.browser, base(), trader, options);
const open = (page: Page, path: string) => openPage(page, base(), path);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical findings (contrast included) on what the page shows now, in the navy,
 * dark and white themes, as the accessibility file checks the other pages.
 */
async function axeFindings(page: Page, label: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const lines: string[] = [];
  for (const theme of ['navy', 'dark', 'white']) {
    // The theme's colours change with transitions: without them axe reads the final colours at once.
    await page.evaluate((value) => {
      if (!document.getElementById('no-transitions')) {
        const style = document.createElement('style');
        style.id = 'no-transitions';
        style.textContent = '*, *::before, *::after { transition: none !important; }';
        document.head.append(style);
      }
      document.documentElement.dataset.theme = value;
    }, theme);
    const found = await page.evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: axe-core is injected as a script, without types here
      const axe = (window as any).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      const out: string[] = [];
      for (const violation of result.violations) {
        if (!['serious', 'critical'].includes(violation.impact)) continue;
        for (const node of violation.nodes) {
          const data = node.any[0]?.data;
          const detail = data?.fgColor ? ` ${data.fgColor} on ${data.bgColor} = ${data.contrastRatio}:1` : '';
          out.push(`${violation.id} ${node.target.join(' ')}${detail}`);
        }
      }
      return out;
    });
    lines.push(...found.map((line) => `${label} [${theme}] ${line}`));
  }
  await page.evaluate(() => {
    document.documentElement.dataset.theme = 'navy';
  });
  return lines;
}

const noOverflow = (page: Page) =>
  expect(page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).resolves.toBe(0);

describe('copy trading in the portal', () => {
  it('a leader applies and trades; a follower follows with the what-if, reads the parity report, moves money, changes the settings, pauses, resumes and stops', async () => {
    // 1. The leader applies on the dashboard with a demo account; staff approve it.
    const leader = await newTrader('leader');
    const leaderAccount = await leader.createAccount(1, 2, 100);
    const lead = await signedIn(leader);
    await open(lead.page, '/en/copyTrading/lead');
    await lead.page.getByTestId('lead-apply').waitFor();
    await lead.page.getByTestId('apply-account').selectOption(String(leaderAccount));
    await lead.page.getByTestId('terms-fee').fill('12.5');
    await lead.page.getByTestId('terms-min').fill('100');
    await lead.page.getByTestId('terms-delay').fill('0');
    await lead.page.getByTestId('terms-bio').fill('Crypto swing trades, small size.');
    await lead.page.getByTestId('apply-submit').click();
    const card = lead.page.locator(`[data-testid=lead-card][data-leader="${leaderAccount}"]`);
    await expect.poll(() => card.getAttribute('data-status')).toBe('pending');
    const staff = await new StaffClient<keyof typeof ADMIN_COPY_PATHS>(
      base(),
      (name) => ADMIN_COPY_PATHS[name],
    ).signIn('admin', ADMIN_PASSWORD);
    await staff.data('admincopyreview', { leader_id: leaderAccount, approve: true });
    await lead.page.reload();
    await expect.poll(() => card.getAttribute('data-status')).toBe('approved');
    await expect(card.getByTestId('lead-status').textContent()).resolves.toContain(
      text('copy.leaderState.approved'),
    );
    const findings = await axeFindings(lead.page, 'leader dashboard');

    // 2. The leader trades through the API: a position the follower will copy when it starts.
    await expect
      .poll(
        async () =>
          (await leader.send(leaderAccount, { symbol: 'BTCUSDT', side: 'buy', volume: '0.02' })).body.success,
        { timeout: 15_000 },
      )
      .toBe(true);

    // 3. The follower finds the leader, opens the dialog from its page and sees the what-if.
    const follower = await newTrader('follower');
    const followerAccount = await follower.createAccount(1, 2, 100);
    const { context, page } = await signedIn(follower);
    await open(page, '/en/copyTrading');
    const leaderCard = page.locator(`[data-testid=leader-card][data-leader="${leaderAccount}"]`);
    await leaderCard.getByTestId('leader-link').click();
    await page.getByTestId('copy-leader-page').waitFor();
    await expect(page.getByTestId('profile-fee').textContent()).resolves.toBe('12.50%');
    await page.getByTestId('leader-copy').click();
    await page.getByTestId('follow-form').waitFor();
    await expect(page.getByTestId('follow-account').inputValue()).resolves.toBe(String(followerAccount));
    // Below the leader's minimum: refused before anything is sent.
    await page.getByTestId('follow-amount').fill('50');
    await expect(page.getByTestId('follow-amount-error').textContent()).resolves.toBe(
      text('copy.problem.belowMin', { min: '100.00' }),
    );
    await page.getByTestId('follow-amount').fill('1000');
    await page.getByTestId('mode-ratio').check();
    await page.getByTestId('follow-value').fill('0.5');
    await page.getByTestId('control-stop-loss').fill('20');
    await page.getByTestId('control-copy-existing').check();
    await page.locator('[data-testid=whatif][data-state=ready]').waitFor();
    await expect(page.getByTestId('whatif-return').textContent()).resolves.toMatch(/%$/);
    await expect(page.getByTestId('whatif-copied').textContent()).resolves.toMatch(/^\d+ of \d+$/);
    await expect(page.getByTestId('whatif-stop').textContent()).resolves.not.toBe('');
    findings.push(...(await axeFindings(page, 'follow dialog')));
    await page.getByTestId('follow-submit').click();

    // 4. My copies: the copy with the leader's position copied at once (0.02 × 0.5 = 0.01 lot).
    await page.waitForURL('**/en/copyTrading/mine?started=*');
    await expect(page.getByTestId('mine-notice').textContent()).resolves.toContain(text('copy.mine.started'));
    const copy = page.getByTestId('copy-card').first();
    await expect.poll(() => copy.getAttribute('data-status')).toBe('active');
    await expect(copy.getByTestId('copy-allocated').textContent()).resolves.toBe('1,000.00 USD');
    await expect(copy.getByTestId('copy-mode').textContent()).resolves.toBe(
      `${text('copy.mode.ratio')} · 0.5×`,
    );
    await expect.poll(() => copy.getByTestId('copy-open').textContent()).toBe('1');
    // The leader's dashboard lists the follower (masked) with the copy's mode.
    await lead.page.reload();
    const followerRow = lead.page.getByTestId('lead-follower').first();
    await expect(followerRow.textContent()).resolves.toContain(text('copy.mode.ratio'));

    // 5. The parity report: the leader's trade beside the copy.
    await copy.getByTestId('copy-parity').click();
    const row = copy.getByTestId('parity-row').first();
    await expect.poll(() => row.getAttribute('data-status')).toBe('open');
    await expect(row.textContent()).resolves.toContain('BTCUSDT');
    await expect(row.textContent()).resolves.toContain('0.02 lots');
    await expect(row.textContent()).resolves.toContain('0.01 lots');
    findings.push(...(await axeFindings(page, 'my copies')));

    // 6. Pause, resume.
    await copy.getByTestId('copy-toggle').click();
    await expect.poll(() => copy.getAttribute('data-status')).toBe('paused');
    await expect(copy.getByTestId('copy-status').textContent()).resolves.toContain(text('copy.state.paused'));
    await copy.getByTestId('copy-toggle').click();
    await expect.poll(() => copy.getAttribute('data-status')).toBe('active');

    // 7. Money in and out, and the settings.
    await copy.getByTestId('copy-funds').click();
    await page.getByTestId('funds-amount').fill('100');
    await page.getByTestId('funds-submit').click();
    await page.getByTestId('funds-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => copy.getByTestId('copy-allocated').textContent()).toBe('1,100.00 USD');
    await copy.getByTestId('copy-funds').click();
    await page.getByTestId('funds-withdraw').check();
    await page.getByTestId('funds-amount').fill('50');
    await page.getByTestId('funds-submit').click();
    await page.getByTestId('funds-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => copy.getByTestId('copy-allocated').textContent()).toBe('1,050.00 USD');
    await copy.getByTestId('copy-edit').click();
    await page.getByTestId('mode-fixed_lot').check();
    await page.getByTestId('follow-value').fill('0.01');
    await page.getByTestId('control-max-positions').fill('0');
    await page.getByTestId('edit-submit').click();
    await expect(page.getByTestId('control-max-positions-error').textContent()).resolves.toBe(
      text('copy.problem.range', { min: 1, max: 500 }),
    );
    await page.getByTestId('control-max-positions').fill('3');
    await page.getByTestId('edit-submit').click();
    await page.getByTestId('edit-dialog').waitFor({ state: 'detached' });
    await expect
      .poll(() => copy.getByTestId('copy-mode').textContent())
      .toBe(`${text('copy.mode.fixed_lot')} · 0.01 ${text('copy.unit.lots')}`);

    // 8. Stop, closing the copies: the money that came back and the fee settled.
    await copy.getByTestId('copy-stop').click();
    await page.getByTestId('stop-close').check();
    await page.getByTestId('stop-confirm').click();
    await page.getByTestId('stop-result').waitFor();
    await expect(page.getByTestId('stop-returned').textContent()).resolves.toMatch(/^[\d,]+\.\d\d USD$/);
    await expect(page.getByTestId('stop-fee').textContent()).resolves.toMatch(/^[\d,]+\.\d\d USD$/);
    await page.getByTestId('stop-ok').click();
    await page.getByTestId('mine-empty').waitFor();
    await page.getByTestId('mine-include-stopped').check();
    const stopped = page.getByTestId('copy-card').first();
    await expect.poll(() => stopped.getAttribute('data-status')).toBe('stopped');
    await expect(stopped.getByTestId('copy-stop-reason').textContent()).resolves.toBe(
      text('copy.stopReason.client_close'),
    );

    // The leader's own page offers to manage it, not to copy it.
    await open(lead.page, `/en/copyTrading/${leaderAccount}`);
    await lead.page.getByTestId('profile-terms').waitFor();
    await lead.page.getByTestId('leader-own').waitFor();
    expect(await lead.page.getByTestId('leader-copy').count()).toBe(0);
    findings.push(...(await axeFindings(lead.page, 'leader page')));
    await open(lead.page, '/en/copyTrading');
    await lead.page.getByTestId('leader-list').waitFor();
    findings.push(...(await axeFindings(lead.page, 'discovery')));
    expect(findings, findings.join('\n')).toEqual([]);
    await lead.context.close();
    await context.close();
  }, 120_000);

  it('shows the copy-trading pages on a 375 px phone without overflow, public ones to visitors', async () => {
    const context = await newContext(running.browser, { mobile: true });
    await context.addInitScript(() => localStorage.setItem('download-prompt-dismissed', '1'));
    const page = await context.newPage();
    await open(page, '/de/copyTrading');
    await page.locator('[data-testid=leader-list], [data-testid=leaders-empty]').first().waitFor();
    await noOverflow(page);
    // The sort and the filters are kept in the address.
    await page.getByTestId('filter-sort').selectOption('risk');
    await page.getByTestId('filter-risk').selectOption('10');
    await page.waitForURL(/\?sort=risk&maxRisk=10$/);
    await expect(page.getByTestId('filter-sort').inputValue()).resolves.toBe('risk');
    await page.locator('[data-testid=leader-list], [data-testid=leaders-empty]').first().waitFor();
    // A visitor's Copy button goes to sign-in and back to the leader with the dialog asked for.
    const first = page.getByTestId('leader-card').first();
    if (await first.count()) {
      await first.getByTestId('leader-link').click();
      await page.getByTestId('copy-leader-page').waitFor();
      await noOverflow(page);
      const href = await page.getByTestId('leader-copy').getAttribute('href');
      expect(href).toMatch(/^\/de\/login\?redirect=%2Fde%2FcopyTrading%2F\d+%3Ffollow%3D1$/);
    }
    // Signed-in pages send a visitor to sign-in.
    await page.goto(`${base()}/de/copyTrading/mine`);
    await page.waitForURL('**/de/login?redirect=*');
    await context.close();
  });
});

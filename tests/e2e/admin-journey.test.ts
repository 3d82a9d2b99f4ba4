import { randomUUID } from 'node:crypto';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../apps/server/test/helpers';
import { Trader } from '../../apps/server/test/trader';
import { serverAndBrowser, staffCall, staffPage } from './support';

/**
 * The broker scenario across areas: a role and a staff member, a restricted account that
 * refuses the trader's next order, a wider spread in the portal's quotes, a staff member refused a
 * call outside their role — and every one of those changes in the operation history, chain intact.
 * Each area's own browser test drives its page in detail; this one checks they add up.
 */
const running = serverAndBrowser();

async function spreadOf(symbol: string): Promise<number> {
  const answer = await new ApiClient(running.server.baseUrl).post(ROUTE_PATHS.currencydetail, { symbol });
  return answer.body.data.quote.spread as number;
}

describe('a broker’s changes add up, and the operation history shows them all', () => {
  it('role and staff, restriction, spread, a refused call — each in the hash-chained history', async () => {
    const trader = await Trader.signIn(running.server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const { context, page } = await staffPage(running.browser, running.server.baseUrl);

    // A role that may look at customers but not restrict them, and a staff member in it.
    const role = await staffCall(page, ROUTE_PATHS.adminrolesave, {
      name: 'Desk viewer',
      description: 'Reads customers',
      parentId: null,
      permissions: ['users.view'],
    });
    expect(role.body.success, role.body.message).toBe(true);
    const staff = await staffCall(page, ROUTE_PATHS.adminstaffcreate, {
      username: 'desk1',
      displayName: 'Desk One',
      password: 'Desk-Password-2026',
      roleIds: [role.body.data.id],
    });
    expect(staff.body.success, staff.body.message).toBe(true);

    // The administrator restricts opening on the trader's account: the next order is refused.
    const restricted = await staffCall(page, ROUTE_PATHS.admincustomerrestrict, {
      userId: trader.userId,
      accountId,
      restrictions: {
        noOpen: true,
        noClose: false,
        noTakeProfit: false,
        noStopLoss: false,
        noWithdraw: false,
      },
      idempotencyKey: randomUUID(),
    });
    expect(restricted.body.success, restricted.body.message).toBe(true);
    const refused = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
    expect(refused.body.errorCode).toBe(-3008);
    expect(refused.body.message).toMatch(/restrict/i);

    // A wider BTCUSDT spread reaches the portal's quotes within a second.
    const before = await spreadOf('BTCUSDT');
    const instruments = await staffCall(page, ROUTE_PATHS.adminmarketinstruments);
    const btc = instruments.body.data.items.find((i: { symbol: string }) => i.symbol === 'BTCUSDT');
    const started = Date.now();
    const saved = await staffCall(page, ROUTE_PATHS.adminmarketinstrumentsave, {
      symbol: 'BTCUSDT',
      version: btc.version,
      config: { ...btc.config, markupPoints: btc.config.markupPoints + 5000 },
    });
    expect(saved.body.success, saved.body.message).toBe(true);
    await expect
      .poll(() => spreadOf('BTCUSDT'), { timeout: 1000, interval: 50 })
      .toBeGreaterThanOrEqual(before + 4000);
    expect(Date.now() - started).toBeLessThan(2000);

    // The new staff member sees customers but the server refuses the restriction call (403).
    const desk = await staffPage(running.browser, running.server.baseUrl, 'desk1', 'Desk-Password-2026');
    const forbidden = await staffCall(desk.page, ROUTE_PATHS.admincustomerrestrict, {
      userId: trader.userId,
      accountId,
      restrictions: {
        noOpen: false,
        noClose: false,
        noTakeProfit: false,
        noStopLoss: false,
        noWithdraw: false,
      },
      idempotencyKey: randomUUID(),
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errorCode).toBe(-1009);
    await desk.context.close();

    // Every change is in the operation history, and the chain is intact.
    await page.goto(`${running.server.baseUrl}/admin/operations`);
    await expect
      .poll(() => page.locator('[data-testid=chain-intact]').textContent(), { timeout: 10_000 })
      .toMatch(/^Chain intact \(\d+ entries\)$/);
    for (const action of [
      'access.role.create',
      'access.staff.create',
      'customers.account.restrict',
      'market.instrumentUpdate',
    ]) {
      await page.locator('[data-testid=filter-action]').fill(action);
      await page.locator('[data-testid=filter-apply]').click();
      // The filtered answer is on screen: the address holds the filter and the table is not loading.
      await expect.poll(() => new URL(page.url()).searchParams.get('action')).toBe(action);
      await expect
        .poll(() => page.locator('[data-testid=operations-table]').getAttribute('data-loading'))
        .toBe('false');
      // Every row on screen is that action, and there is at least one, made by the administrator.
      await expect
        .poll(() => page.locator('[data-testid=operations-row] code.audit-code').allTextContents(), {
          timeout: 10_000,
        })
        .toEqual(expect.arrayContaining([action]));
      const shown = await page.locator('[data-testid=operations-row] code.audit-code').allTextContents();
      expect(new Set(shown)).toEqual(new Set([action]));
      expect(await page.locator('[data-testid=operations-row]').first().textContent()).toContain('admin');
    }
    await context.close();
  }, 120_000);
});

import { CHART_LAYOUT_PATHS } from '@broker/contracts/chart-layout-paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';
import { Trader } from '../trader';

// Issue 21, item 14: the terminal is rendered on the server with the signed-in trader's own data
// (accounts, figures, catalogue, saved layout), read through the gateway as that trader, so its
// first screen comes with the page. Needs `npm run build`.
let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const csrf = (trader: Trader) => ({ 'x-csrf-token': trader.api.cookies.get('csrf') ?? '' });

async function page(client: ApiClient, path = '/en/trade') {
  const answer = await client.get(path, { 'accept-encoding': 'identity' });
  return { status: answer.status, location: answer.headers.get('location'), html: await answer.text() };
}

/** The loader data the page hands the browser for hydration. */
function hydration(html: string): Record<string, unknown> {
  const match = /window\.__staticRouterHydrationData = JSON\.parse\((".*?")\);<\/script>/s.exec(html);
  expect(match, 'hydration data in the page').toBeTruthy();
  return JSON.parse(JSON.parse(match?.[1] ?? '""')).loaderData;
}

function terminalBoot(html: string) {
  const entry = Object.values(hydration(html)).find(
    (value) => value && typeof value === 'object' && 'terminal' in value,
  ) as { terminal: Record<string, unknown> | null } | undefined;
  return entry?.terminal ?? null;
}

describe('the terminal rendered on the server', () => {
  it('comes with the trader’s account, figures, watchlist and saved chart in the first byte', async () => {
    const trader = await Trader.signInStranger(server);
    const accountId = await trader.createAccount(1, 2, 100);
    const saved = await trader.api.post(
      CHART_LAYOUT_PATHS.chartlayoutsave,
      { layout: { kind: 1, panes: [{ symbol: 'XAUUSD', timeframe: 'H1' }], active: 0 } },
      csrf(trader),
    );
    expect(saved.body.success).toBe(true);

    const { status, html } = await page(trader.api);
    expect(status).toBe(200);
    expect(html).toContain('data-testid="trade-terminal"');
    expect(html).not.toContain('data-testid="trade-loading"');
    // The saved layout's symbol heads the chart; the account bar and the watchlist are filled.
    expect(html).toMatch(/<h1 data-testid="chart-symbol">XAUUSD<\/h1>/);
    expect(html).toContain('data-testid="account-figures"');
    expect((html.match(/data-testid="watch-row"/g) ?? []).length).toBeGreaterThan(10);
    expect(html).toContain('Euro / US Dollar');

    const boot = terminalBoot(html) as {
      trading: { accounts: { account_id: number }[]; info: { account_id: number } };
      layout: unknown;
      catalogue: { accountId: number };
    };
    expect(boot.trading.accounts.map((a) => a.account_id)).toEqual([accountId]);
    expect(boot.trading.info.account_id).toBe(accountId);
    expect(boot.catalogue.accountId).toBe(accountId);
    expect(boot.layout).toEqual({ kind: 1, panes: [{ symbol: 'XAUUSD', timeframe: 'H1' }], active: 0 });
  });

  it('renders the account the account cookie names, and the default chart without a saved layout', async () => {
    const trader = await Trader.signInStranger(server);
    const demo = await trader.createAccount(1, 2, 100);
    const second = await trader.createAccount(1, 2, 200);
    trader.api.cookies.set('account', `${second}:1`);
    const { html } = await page(trader.api);
    const boot = terminalBoot(html) as {
      trading: { info: { account_id: number }; accounts: { account_id: number }[] };
      layout: unknown;
    };
    expect(boot.trading.accounts.map((a) => a.account_id).sort()).toEqual([demo, second].sort());
    expect(boot.trading.info.account_id).toBe(second);
    expect(boot.layout).toBeNull();
    expect(html).toMatch(/<h1 data-testid="chart-symbol">EURUSD<\/h1>/);
  });

  it('holds only the visitor’s own data: a trader without an account gets "open an account"', async () => {
    const owner = await Trader.signInStranger(server);
    const ownerAccount = await owner.createAccount(1, 2, 100);
    const stranger = await Trader.signInStranger(server);
    const { status, html } = await page(stranger.api);
    expect(status).toBe(200);
    expect(html).toContain('data-testid="trade-empty"');
    expect(html).not.toContain('data-testid="trade-loading"');
    const boot = terminalBoot(html) as { trading: { accounts: unknown[]; info: unknown } };
    expect(boot.trading.accounts).toEqual([]);
    expect(boot.trading.info).toBeNull();
    expect(html).not.toContain(`"account_id":${ownerAccount}`);
    expect(html).not.toContain(`#${ownerAccount}`);
  });

  it('sends an anonymous visitor to sign in, with nothing of the terminal', async () => {
    const visitor = new ApiClient(server.baseUrl);
    const { status, location, html } = await page(visitor);
    expect(status).toBe(302);
    expect(location).toBe('/en/login?redirect=%2Fen%2Ftrade');
    expect(html).toBe('');
  });

  it('sends a visitor with a stale session cookie to sign in, like any visitor', async () => {
    const visitor = new ApiClient(server.baseUrl);
    visitor.cookies.set('token', 'f'.repeat(32));
    const { status, location } = await page(visitor);
    expect(status).toBe(302);
    expect(location).toBe('/en/login?redirect=%2Fen%2Ftrade');
  });
});

import { MARKET_PATHS } from '@broker/contracts/admin/market-paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTick, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { StaffClient } from '../staff';
import { Trader } from '../trader';

type TRoute = keyof typeof MARKET_PATHS;

let server: TTestServer;

const prices = () => {
  pushTick(server, 'BTCUSDT', 67000, 67025);
  pushTick(server, 'ETHUSDT', 3400, 3401.5);
};

beforeAll(async () => {
  // A new database: the engine starts before the seed creates the broker, as on a first `npm start`.
  server = await startTestServer({ FEED: 'off' });
  prices();
});
afterAll(() => server?.close());

/**
 * An account opened before the broker ever saved its market configuration must still trade the
 * broker's terms: it starts in the broker's default group, so a symbol the broker disables later is
 * disabled for it too, even while it holds a position.
 */
describe('the first accounts of a new broker', () => {
  it('start in the default group and follow the terms the broker saves afterwards', async () => {
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const db = server.app.services.database.db;
    const row = await db
      .selectFrom('trading_accounts')
      .innerJoin('account_groups', 'account_groups.id', 'trading_accounts.group_id')
      .select(['account_groups.is_default', 'account_groups.name'])
      .where('trading_accounts.id', '=', accountId)
      .executeTakeFirst();
    expect(row).toEqual({ is_default: true, name: 'Standard' });

    // A position keeps the account from changing groups: the terms must reach it as it is.
    const opened = await trader.send(accountId, { symbol: 'ETHUSDT', side: 'buy', volume: '0.10' });
    expect(opened.body.success, opened.body.message).toBe(true);

    const staff = await new StaffClient(server.baseUrl, (route: TRoute) => MARKET_PATHS[route]).signIn(
      'admin',
      TEST_ADMIN_PASSWORD,
    );
    const { items } = await staff.data('adminmarketinstruments');
    const eth = items.find((i: { symbol: string }) => i.symbol === 'ETHUSDT');
    const btc = items.find((i: { symbol: string }) => i.symbol === 'BTCUSDT');
    const disabled = await staff.call('adminmarketinstrumentsave', {
      symbol: 'ETHUSDT',
      version: eth.version,
      config: { ...eth.config, enabled: false },
    });
    expect(disabled.body.success, disabled.body.message).toBe(true);
    const limited = await staff.call('adminmarketinstrumentsave', {
      symbol: 'BTCUSDT',
      version: btc.version,
      config: { ...btc.config, maxVolume: '5' },
    });
    expect(limited.body.success, limited.body.message).toBe(true);
    prices();

    const refused = await trader.send(accountId, { symbol: 'ETHUSDT', side: 'buy', volume: '0.10' });
    expect(refused.body.errorCode).toBe(-3003);
    const tooLarge = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '6' });
    expect(tooLarge.body.errorCode).toBe(-3010);
    const fits = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(fits.body.success, fits.body.message).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import { MARKET_PATHS } from '@broker/contracts/admin/market-paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  DEFAULT_ACCESS_SETTINGS,
  ensureAccessSettings,
  ensureAdministrator,
} from '../../src/modules/access/staff';
import { hashPassword } from '../../src/modules/identity/passwords';
import { ensureInstruments } from '../../src/modules/market/instruments-store';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { moveAccountToGroup } from '../../src/modules/trading/terms-sync';
import { ApiClient, pushTick, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { StaffClient } from '../staff';
import { Trader } from '../trader';

type TRoute = keyof typeof MARKET_PATHS;

let server: TTestServer;
let staff: TStaff;
let tenantId: string;

/** Pushes a quote through the market service as the feed would (FEED=off: the test sets prices). */
const tick = (symbol: 'BTCUSDT' | 'ETHUSDT', bid: number, ask: number) => pushTick(server, symbol, bid, ask);
const prices = () => {
  tick('BTCUSDT', 67000, 67025);
  tick('ETHUSDT', 3400, 3401.5);
};

type TStaff = StaffClient<TRoute>;
/** A staff member of one broker (Hostspecific picks the broker). */
const staffOf = (broker?: string): TStaff =>
  new StaffClient(server.baseUrl, (route: TRoute) => MARKET_PATHS[route], broker);

// biome-ignore lint/suspicious/noExplicitAny: answers are read as the contract describes them
type TInstrument = any;
async function instrument(client: TStaff, symbol: string): Promise<TInstrument> {
  const { items } = await client.data('adminmarketinstruments');
  return items.find((i: { symbol: string }) => i.symbol === symbol);
}
async function save(client: TStaff, symbol: string, change: Record<string, unknown>) {
  const current = await instrument(client, symbol);
  return client.call('adminmarketinstrumentsave', {
    symbol,
    version: current.version,
    config: { ...current.config, ...change },
  });
}
async function counts(symbol: string) {
  const db = server.app.services.database.db;
  const history = await db
    .selectFrom('market_config_history')
    .select(db.fn.countAll<number>().as('n'))
    .where('symbol', '=', symbol)
    .executeTakeFirstOrThrow();
  const audit = await db
    .selectFrom('audit_events')
    .select(db.fn.countAll<number>().as('n'))
    .where('action', 'like', 'market.%')
    .executeTakeFirstOrThrow();
  return { history: Number(history.n), audit: Number(audit.n) };
}

beforeAll(async () => {
  server = await startTestServer({ FEED: 'off' });
  prices();
  staff = await staffOf().signIn('admin', TEST_ADMIN_PASSWORD);
  tenantId = (await server.app.services.resolveTenant({ host: undefined, hostspecific: undefined })).id;
});
afterAll(() => server?.close());

describe('market configuration: instruments', () => {
  it('lists every instrument of the broker with its terms, and the live quotes', async () => {
    const { items } = await staff.data('adminmarketinstruments');
    expect(items.length).toBeGreaterThanOrEqual(50);
    const btc = items.find((i: TInstrument) => i.symbol === 'BTCUSDT');
    expect(btc).toMatchObject({
      category: 'crypto',
      digits: 2,
      config: {
        enabled: true,
        closeOnly: false,
        shortAllowed: true,
        markupPoints: 0,
        minVolume: '0.01',
        volumeStep: '0.01',
        maxLeverage: null,
        leverageTiers: [],
        sessions: [{ from: 0, to: 10080 }],
      },
      groups: [],
    });
    expect(btc.version).toMatch(/^\d{4}-\d{2}-\d{2} /);
    expect(btc.lastQuote).toMatchObject({ bid: '67000.00', ask: '67025.00', spread: 2500 });
    prices();
    const quotes = await staff.data('adminmarketquotes');
    expect(quotes.items.find((q: { symbol: string }) => q.symbol === 'BTCUSDT')).toMatchObject({
      bid: '67000.00',
      ask: '67025.00',
      spread: 2500,
      status: 'open',
    });
  });

  it('refuses terms that break a rule with -6013 on the fields, and changes nothing', async () => {
    const before = await instrument(staff, 'ETHUSDT');
    const was = await counts('ETHUSDT');
    const refusals: [Record<string, unknown>, string][] = [
      [{ minVolume: '0.15', volumeStep: '0.1' }, 'minVolume'],
      [{ minVolume: '5', maxVolume: '1' }, 'maxVolume'],
      [{ volumeStep: '0' }, 'volumeStep'],
      [{ minVolume: '0.001' }, 'minVolume'],
      [{ maxLeverage: 5000 }, 'maxLeverage'],
      [{ markupPoints: -1 }, 'markupPoints'],
      [{ commissionPerLot: '-2' }, 'commissionPerLot'],
      [{ swapLong: '1.234' }, 'swapLong'],
      [{ sessions: [] }, 'sessions'],
      [
        {
          sessions: [
            { from: 0, to: 600 },
            { from: 300, to: 900 },
          ],
        },
        'sessions',
      ],
      [{ sessions: [{ from: 100, to: 50 }] }, 'sessions'],
      [{ leverageTiers: [{ upToLots: '5', maxLeverage: 900 }] }, 'leverageTiers.0.maxLeverage'],
      [
        {
          leverageTiers: [
            { upToLots: '5', maxLeverage: 10 },
            { upToLots: '2', maxLeverage: 5 },
          ],
        },
        'leverageTiers.1.upToLots',
      ],
    ];
    for (const [change, field] of refusals) {
      const answer = await save(staff, 'ETHUSDT', change);
      expect(answer.body.errorCode, JSON.stringify(change)).toBe(-6013);
      expect(Object.keys(answer.body.fields ?? {}), JSON.stringify(change)).toContain(field);
      expect(answer.body.message).toMatch(/do not fit together/);
    }
    // A malformed call (wrong types) is refused before the rules.
    const malformed = await staff.call('adminmarketinstrumentsave', {
      symbol: 'ETHUSDT',
      version: before.version,
      config: { ...before.config, markupPoints: 'ten' },
    });
    expect(malformed.body.errorCode).toBe(-9001);
    const after = await instrument(staff, 'ETHUSDT');
    expect(after.version).toBe(before.version);
    expect(after.config).toEqual(before.config);
    expect(await counts('ETHUSDT')).toEqual(was);
  });

  it('saves terms with a history row and an audit event, and refuses a stale version', async () => {
    const before = await instrument(staff, 'ETHUSDT');
    const was = await counts('ETHUSDT');
    const change = {
      swapLong: '-12.50',
      swapShort: '3',
      commissionPerLot: '3.5',
      stopsLevelPoints: 50,
      maxLeverage: 20,
      leverageTiers: [
        { upToLots: '5', maxLeverage: 20 },
        { upToLots: '50', maxLeverage: 5 },
      ],
      // Weekdays only, around the clock.
      sessions: [{ from: 1440, to: 6 * 1440 }],
      minVolume: '0.10',
      volumeStep: '0.05',
      maxVolume: '250',
    };
    const saved = await staff.call('adminmarketinstrumentsave', {
      symbol: 'ETHUSDT',
      version: before.version,
      config: { ...before.config, ...change },
    });
    expect(saved.body.success, saved.body.message).toBe(true);
    expect(saved.body.data.changed).toBe(true);
    expect(saved.body.data.item.config).toMatchObject({
      swapLong: '-12.5',
      swapShort: '3',
      commissionPerLot: '3.5',
      minVolume: '0.1',
      volumeStep: '0.05',
      maxVolume: '250',
      maxLeverage: 20,
    });
    expect(saved.body.data.item.version).not.toBe(before.version);
    expect(await counts('ETHUSDT')).toEqual({ history: was.history + 1, audit: was.audit + 1 });

    const db = server.app.services.database.db;
    const row = await db
      .selectFrom('market_config_history')
      .selectAll()
      .where('symbol', '=', 'ETHUSDT')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: tenantId, scope: 'instrument', group_id: null });
    expect(row.staff_id).toBeTruthy();
    expect((row.before as { swapLong: string }).swapLong).toBe(before.config.swapLong);
    expect((row.after as { swapLong: string }).swapLong).toBe('-12.5');
    const audit = await db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'market.instrumentUpdate')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ tenant_id: tenantId, actor_kind: 'staff', target: 'ETHUSDT' });
    expect((audit.details as { changes: string[] }).changes).toEqual(
      expect.arrayContaining(['swapLong', 'commissionPerLot', 'sessions', 'leverageTiers']),
    );
    // The audit entry carries the changed values themselves, before and after.
    const values = audit.details as { before: Record<string, unknown>; after: Record<string, unknown> };
    expect(values.before.swapLong).toBe(before.config.swapLong);
    expect(values.after.swapLong).toBe('-12.5');
    expect(Object.keys(values.after).sort()).toEqual(
      [...(audit.details as { changes: string[] }).changes].sort(),
    );

    // Someone else's save came first: the old version is refused and nothing changes.
    const stale = await staff.call('adminmarketinstrumentsave', {
      symbol: 'ETHUSDT',
      version: before.version,
      config: { ...before.config, markupPoints: 7 },
    });
    expect(stale.body.errorCode).toBe(-6017);
    expect(stale.status).toBe(409);
    expect((await instrument(staff, 'ETHUSDT')).config.markupPoints).toBe(0);

    // Saving the same terms again changes nothing and writes no history.
    const current = await instrument(staff, 'ETHUSDT');
    const same = await staff.data('adminmarketinstrumentsave', {
      symbol: 'ETHUSDT',
      version: current.version,
      config: { ...current.config, swapLong: '-12.50' },
    });
    expect(same.changed).toBe(false);
    expect(await counts('ETHUSDT')).toEqual({ history: was.history + 1, audit: was.audit + 1 });

    // Unknown symbol.
    const unknown = await staff.call('adminmarketinstrumentsave', {
      symbol: 'NOPE1',
      version: current.version,
      config: current.config,
    });
    expect(unknown.body.errorCode).toBe(-6009);
  });

  it('shows the history filtered by symbol, group and time, page by page', async () => {
    const eth = await staff.data('adminmarkethistory', { symbol: 'ETHUSDT' });
    expect(eth.total).toBeGreaterThanOrEqual(1);
    expect(eth.items[0]).toMatchObject({
      scope: 'instrument',
      symbol: 'ETHUSDT',
      staffName: expect.any(String),
    });
    expect(eth.items[0].after.swapLong).toBe('-12.5');
    const future = await staff.data('adminmarkethistory', { from: Date.now() + 60_000 });
    expect(future.total).toBe(0);
    const past = await staff.data('adminmarkethistory', { to: Date.now() - 3_600_000 });
    expect(past.total).toBe(0);
    for (const markup of [1, 2, 3])
      expect((await save(staff, 'XAUUSD', { markupPoints: markup })).body.success).toBe(true);
    const page1 = await staff.data('adminmarkethistory', { symbol: 'XAUUSD', pageSize: 2 });
    const page2 = await staff.data('adminmarkethistory', { symbol: 'XAUUSD', pageSize: 2, page: 2 });
    expect(page1.total).toBe(3);
    expect(page1.items.map((i: { after: { markupPoints: number } }) => i.after.markupPoints)).toEqual([3, 2]);
    expect(page2.items.map((i: { after: { markupPoints: number } }) => i.after.markupPoints)).toEqual([1]);
    const bad = await staff.call('adminmarkethistory', { pageSize: 1000 });
    expect(bad.body.errorCode).toBe(-9001);
  });
});

describe('market configuration: account groups', () => {
  // biome-ignore lint/suspicious/noExplicitAny: answers are read as the contract describes them
  const groups = async (): Promise<any[]> => (await staff.data('adminmarketgrouplist')).items;

  it('creates, renames and deletes groups; keeps the default and groups with accounts', async () => {
    const initial = await groups();
    const standard = initial.find((g) => g.isDefault);
    expect(standard).toMatchObject({ name: 'Standard', isDefault: true });

    const created = await staff.data('adminmarketgroupsave', { name: 'VIP', description: 'Large clients' });
    expect(created.item).toMatchObject({
      name: 'VIP',
      description: 'Large clients',
      isDefault: false,
      accounts: 0,
    });
    const duplicate = await staff.call('adminmarketgroupsave', { name: 'vip' });
    expect(duplicate.body.errorCode).toBe(-6013);
    expect(Object.keys(duplicate.body.fields ?? {})).toEqual(['name']);
    expect(duplicate.body.fields?.name).toBe('This name is already taken.');
    const empty = await staff.call('adminmarketgroupsave', { name: '  ' });
    expect(empty.body.errorCode).toBe(-9001);

    const renamed = await staff.data('adminmarketgroupsave', {
      id: created.item.id,
      name: 'VIP Gold',
      description: 'Over 100k',
      version: created.item.version,
    });
    expect(renamed.item.name).toBe('VIP Gold');
    const stale = await staff.call('adminmarketgroupsave', {
      id: created.item.id,
      name: 'VIP Silver',
      version: created.item.version,
    });
    expect(stale.body.errorCode).toBe(-6017);

    const refuseDefault = await staff.call('adminmarketgroupdelete', {
      id: standard.id,
      version: standard.version,
    });
    expect(refuseDefault.body.errorCode).toBe(-6013);
    expect(Object.keys(refuseDefault.body.fields ?? {})).toEqual(['id']);

    // A group with an account cannot go.
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const db = server.app.services.database.db;
    await db
      .updateTable('trading_accounts')
      .set({ group_id: created.item.id })
      .where('id', '=', String(accountId))
      .execute();
    const withAccount = (await groups()).find((g) => g.id === created.item.id);
    expect(withAccount.accounts).toBe(1);
    const refused = await staff.call('adminmarketgroupdelete', {
      id: withAccount.id,
      version: withAccount.version,
    });
    expect(refused.body.errorCode).toBe(-6013);
    await db
      .updateTable('trading_accounts')
      .set({ group_id: standard.id })
      .where('id', '=', String(accountId))
      .execute();

    const gone = (await groups()).find((g) => g.id === created.item.id);
    await staff.data('adminmarketgroupdelete', { id: gone.id, version: gone.version });
    expect((await groups()).some((g) => g.id === created.item.id)).toBe(false);
    const history = await staff.data('adminmarkethistory', { groupId: created.item.id });
    expect(history.items.map((i: { scope: string; after: unknown }) => i.after === null)).toEqual([
      true,
      false,
      false,
    ]);
    expect(history.items[0].groupName).toBe('VIP Gold');
    expect(
      await db.selectFrom('audit_events').select('action').where('target', '=', created.item.id).execute(),
    ).toHaveLength(3);
  });

  it('moves the default to another group', async () => {
    const other = await staff.data('adminmarketgroupsave', { name: 'Retail B' });
    await staff.data('adminmarketgroupdefault', { id: other.item.id });
    const list = await groups();
    expect(list.filter((g) => g.isDefault).map((g) => g.id)).toEqual([other.item.id]);
    const back = list.find((g) => g.name === 'Standard');
    await staff.data('adminmarketgroupdefault', { id: back.id });
    expect((await groups()).find((g) => g.isDefault).name).toBe('Standard');
  });

  it('stores per-group overrides of an instrument, refuses ones that clash, and lists them', async () => {
    const group = (await staff.data('adminmarketgroupsave', { name: 'Pro' })).item;
    const was = await counts('XAUUSD');
    const clash = await staff.call('adminmarketgrouptermssave', {
      groupId: group.id,
      symbol: 'XAUUSD',
      overrides: { volumeStep: '0.03' },
      version: null,
    });
    expect(clash.body.errorCode).toBe(-6013);
    expect(Object.keys(clash.body.fields ?? {})).toEqual(['volumeStep']);
    const markup = await staff.call('adminmarketgrouptermssave', {
      groupId: group.id,
      symbol: 'XAUUSD',
      overrides: { markupPoints: 5 },
      version: null,
    });
    expect(markup.body.errorCode).toBe(-9001);
    expect(await counts('XAUUSD')).toEqual(was);

    const saved = await staff.data('adminmarketgrouptermssave', {
      groupId: group.id,
      symbol: 'XAUUSD',
      overrides: { maxVolume: '5.00', swapLong: '-1', closeOnly: true },
      version: null,
    });
    expect(saved).toMatchObject({
      changed: true,
      overrides: { maxVolume: '5', swapLong: '-1', closeOnly: true },
    });
    const again = await staff.call('adminmarketgrouptermssave', {
      groupId: group.id,
      symbol: 'XAUUSD',
      overrides: { maxVolume: '6' },
      version: null,
    });
    expect(again.body.errorCode).toBe(-6017);
    const terms = await staff.data('adminmarketgroupterms', { groupId: group.id });
    expect(terms.items).toEqual([{ symbol: 'XAUUSD', overrides: saved.overrides, version: saved.version }]);
    expect((await instrument(staff, 'XAUUSD')).groups).toEqual([
      { groupId: group.id, groupName: 'Pro', overrides: saved.overrides },
    ]);
    // The instrument's own change may not break the group's overrides.
    const breaking = await save(staff, 'XAUUSD', { minVolume: '10', maxVolume: '100' });
    expect(breaking.body.errorCode).toBe(-6013);
    expect(Object.keys(breaking.body.fields ?? {})).toEqual(['maxVolume']);
    // The message names the group whose overrides the change would break.
    expect(breaking.body.messageKey).toBe('errors.-6013.groupClash');
    expect(breaking.body.message).toContain('“Pro”');

    const history = await staff.data('adminmarkethistory', { groupId: group.id, scope: 'group_terms' });
    expect(history.items[0]).toMatchObject({
      symbol: 'XAUUSD',
      groupName: 'Pro',
      before: {},
      after: saved.overrides,
    });

    // An empty set removes the overrides.
    const cleared = await staff.data('adminmarketgrouptermssave', {
      groupId: group.id,
      symbol: 'XAUUSD',
      overrides: {},
      version: saved.version,
    });
    expect(cleared).toMatchObject({ changed: true, overrides: {}, version: null });
    expect((await staff.data('adminmarketgroupterms', { groupId: group.id })).items).toEqual([]);
  });
});

describe('market configuration: permissions', () => {
  it('lets a viewer read everything and change nothing', async () => {
    const db = server.app.services.database.db;
    const roleId = randomUUID();
    const staffId = randomUUID();
    await db
      .insertInto('roles')
      .values({
        id: roleId,
        tenant_id: tenantId,
        name: 'Market viewer',
        parent_id: null,
        permissions: ['market.view'],
      })
      .execute();
    await db
      .insertInto('staff')
      .values({
        id: staffId,
        tenant_id: tenantId,
        username: 'viewer',
        password_hash: await hashPassword('Viewer-Password-2026'),
        display_name: 'Viewer',
      })
      .execute();
    await db.insertInto('staff_roles').values({ staff_id: staffId, role_id: roleId }).execute();
    const viewer = staffOf();
    const login = await viewer.api.post('/api/v1/admin/auth/login', {
      username: 'viewer',
      password: 'Viewer-Password-2026',
    });
    expect(login.body.success, login.body.message).toBe(true);
    viewer.csrf = login.body.data.csrfToken;

    const eth = await instrument(viewer, 'ETHUSDT');
    expect(eth.symbol).toBe('ETHUSDT');
    const groupList = (await viewer.data('adminmarketgrouplist')).items;
    expect((await viewer.data('adminmarketgroupterms', { groupId: groupList[0].id })).group.id).toBe(
      groupList[0].id,
    );
    expect((await viewer.data('adminmarkethistory')).total).toBeGreaterThan(0);

    const refusals = [
      await viewer.call('adminmarketinstrumentsave', {
        symbol: 'ETHUSDT',
        version: eth.version,
        config: eth.config,
      }),
      await viewer.call('adminmarketgroupsave', { name: 'Sneaky' }),
      await viewer.call('adminmarketgroupdefault', { id: groupList[0].id }),
      await viewer.call('adminmarketgrouptermssave', {
        groupId: groupList[0].id,
        symbol: 'ETHUSDT',
        overrides: { enabled: false },
        version: null,
      }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(403);
      expect(refusal.body.errorCode).toBe(-1009);
    }
    expect((await instrument(staff, 'ETHUSDT')).version).toBe(eth.version);
  });
});

describe('market configuration: tenant isolation', () => {
  it("keeps another broker's staff away from this broker's instruments and groups", async () => {
    const db = server.app.services.database.db;
    const other = await createTenant({ db, slug: 'brokerb', name: 'Broker B', hosts: ['brokerb.example'] });
    await ensureInstruments({ db, tenantId: other.id });
    // As the seed does for the first broker: its administrator signs in without two-factor.
    await ensureAccessSettings({
      db,
      tenantId: other.id,
      settings: { ...DEFAULT_ACCESS_SETTINGS, moneyTwoFactor: false },
    });
    await ensureAdministrator({
      db,
      tenantId: other.id,
      username: 'admin',
      password: 'Broker-B-Password-2026',
    });
    const staffB = await staffOf('brokerb').signIn('admin', 'Broker-B-Password-2026');

    const ours = await groups();
    const vip = ours.find((g) => g.name === 'Pro');
    expect((await staffB.call('adminmarketgroupterms', { groupId: vip.id })).body.errorCode).toBe(-6009);
    expect(
      (await staffB.call('adminmarketgroupsave', { id: vip.id, name: 'Taken over', version: vip.version }))
        .body.errorCode,
    ).toBe(-6009);
    expect(
      (await staffB.call('adminmarketgroupdelete', { id: vip.id, version: vip.version })).body.errorCode,
    ).toBe(-6009);
    expect((await staffB.call('adminmarketgroupdefault', { id: vip.id })).body.errorCode).toBe(-6009);
    expect(
      (
        await staffB.call('adminmarketgrouptermssave', {
          groupId: vip.id,
          symbol: 'BTCUSDT',
          overrides: { enabled: false },
          version: null,
        })
      ).body.errorCode,
    ).toBe(-6009);
    // B's own groups and history do not show ours.
    const groupsB = (await staffB.data('adminmarketgrouplist')).items;
    expect(groupsB.map((g: { name: string }) => g.name)).toEqual(['Standard']);
    expect((await staffB.data('adminmarkethistory')).total).toBe(0);

    // B changes its own BTCUSDT; ours stays as it was.
    const oursBefore = await instrument(staff, 'BTCUSDT');
    const saved = await save(staffB, 'BTCUSDT', { enabled: false, markupPoints: 999 });
    expect(saved.body.success).toBe(true);
    expect((await instrument(staff, 'BTCUSDT')).config).toEqual(oursBefore.config);
    // B cannot use our version token to write our row: it only reaches its own.
    const cross = await staffB.call('adminmarketinstrumentsave', {
      symbol: 'BTCUSDT',
      version: oursBefore.version,
      config: { ...oursBefore.config, markupPoints: 1 },
    });
    expect(cross.body.errorCode).toBe(-6017);
    expect((await instrument(staff, 'BTCUSDT')).version).toBe(oursBefore.version);
    // Our session is no session at B.
    const borrowed = await staff.api.post(
      MARKET_PATHS.adminmarketinstruments,
      { Hostspecific: 'brokerb' },
      { 'x-csrf-token': staff.csrf },
    );
    expect(borrowed.body.errorCode).toBe(-1001);
    // Put B back so the live tests below see only our terms.
    expect((await save(staffB, 'BTCUSDT', { enabled: true, markupPoints: 0 })).body.success).toBe(true);
  });

  // biome-ignore lint/suspicious/noExplicitAny: answers are read as the contract describes them
  async function groups(): Promise<any[]> {
    return (await staff.data('adminmarketgrouplist')).items;
  }
});

/*
 * Live effect: these depend on the lead's applyMarketConfig (engine and quote stream following the
 * saved configuration), which resolves once the new terms are live.
 */
describe('market configuration: live in the engine and the portal', () => {
  const portalQuote = async (symbol: string, broker?: string) => {
    const answer = await new ApiClient(server.baseUrl).post('/api/v1/quote/currencydetail', {
      symbol,
      ...(broker ? { Hostspecific: broker } : {}),
    });
    return answer.body.data.quote as { bid: string; ask: string; spread: number };
  };

  it("widens the portal's BTCUSDT spread by the markup within a second (REST and stream)", async () => {
    prices();
    expect((await portalQuote('BTCUSDT')).spread).toBe(2500);
    const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/ws/market`);
    const spreads: number[] = [];
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { type: string; data: unknown };
      const flat = message.type === 'batch' ? (message.data as { type: string; data: unknown }[]) : [message];
      for (const m of flat)
        if (m.type === 'quote') spreads.push((m.data as { spread: number; symbol: string }).spread);
    });
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(JSON.stringify({ op: 'subscribe', channel: 'quote', symbols: ['BTCUSDT'] }));

    const saved = await save(staff, 'BTCUSDT', { markupPoints: 10_000 });
    expect(saved.body.success).toBe(true);
    expect(saved.body.data.applied).toBe(true);
    const start = Date.now();
    let widened = 0;
    while (Date.now() - start < 1_000) {
      prices();
      widened = (await portalQuote('BTCUSDT')).spread;
      if (widened === 12_500 && spreads.at(-1) === 12_500) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(widened).toBe(12_500);
    expect(spreads.at(-1)).toBe(12_500);
    expect(Date.now() - start).toBeLessThan(1_000);
    // Another broker's clients keep the feed's spread.
    expect((await portalQuote('BTCUSDT', 'brokerb')).spread).toBe(2500);
    socket.close();

    expect((await save(staff, 'BTCUSDT', { markupPoints: 0 })).body.success).toBe(true);
    prices();
    expect((await portalQuote('BTCUSDT')).spread).toBe(2500);
  });

  it('refuses orders on a disabled symbol (-3003), and opening but not closing on a close-only one (-3002)', async () => {
    prices();
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const opened = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(opened.body.success, opened.body.message).toBe(true);

    expect((await save(staff, 'BTCUSDT', { closeOnly: true })).body.success).toBe(true);
    prices();
    const refused = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(refused.body.errorCode).toBe(-3002);
    // The spec's code, with a message that says which of its two cases this is.
    expect(refused.body.messageKey).toBe('errors.-3002.closeOnly');
    const closed = await trader.call('/api/v1/order/close', {
      account_id: accountId,
      order_id: opened.body.data.ticket,
      idempotencyKey: randomUUID(),
    });
    expect(closed.body.success, closed.body.message).toBe(true);
    expect(closed.body.data.closed).toBe(1);

    expect((await save(staff, 'BTCUSDT', { closeOnly: false, shortAllowed: false })).body.success).toBe(true);
    prices();
    const short = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'sell', volume: '0.10' });
    expect(short.body.errorCode).toBe(-3002);
    expect(short.body.messageKey).toBe('errors.-3002.noShort');
    expect(short.body.message).toBe('Short selling is not allowed on this symbol.');
    const long = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(long.body.success, long.body.message).toBe(true);

    expect((await save(staff, 'BTCUSDT', { shortAllowed: true, enabled: false })).body.success).toBe(true);
    prices();
    const disabled = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(disabled.body.errorCode).toBe(-3003);

    expect((await save(staff, 'BTCUSDT', { enabled: true })).body.success).toBe(true);
    prices();
    const again = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(again.body.success, again.body.message).toBe(true);
  });

  it("applies a group's maxVolume override to an account of that group", async () => {
    prices();
    const group = (await staff.data('adminmarketgroupsave', { name: 'Small lots' })).item;
    await staff.data('adminmarketgrouptermssave', {
      groupId: group.id,
      symbol: 'BTCUSDT',
      overrides: { maxVolume: '0.05' },
      version: null,
    });
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    await moveAccountToGroup(server.app.services.engine, { tenantId, accountId, groupId: group.id });
    prices();
    const tooLarge = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(tooLarge.body.errorCode).toBe(-3010);
    const fits = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.05' });
    expect(fits.body.success, fits.body.message).toBe(true);
    // The terminal's ticket reads the same limits: the catalogue as this account's group trades it.
    const specOf = async (account?: number) =>
      (await trader.call('/api/v1/quote/symbols', account ? { account_id: account } : {})).body.data.find(
        (s: { symbol: string }) => s.symbol === 'BTCUSDT',
      );
    expect((await specOf(accountId)).maxVolume).toBe('0.05');
    expect((await specOf()).maxVolume).not.toBe('0.05');
    const stranger = await Trader.signInStranger(server);
    const notTheirs = await stranger.call('/api/v1/quote/symbols', { account_id: accountId });
    expect(notTheirs.body.errorCode).toBe(-3006);
    // An account of the default group still trades the instrument's own maximum.
    const other = await trader.createAccount(1, 2, 100);
    const large = await trader.send(other, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(large.body.success, large.body.message).toBe(true);
  });
});

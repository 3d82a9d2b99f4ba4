import { randomUUID } from 'node:crypto';
import { ALERT_LIMITS, ALERT_PATHS } from '@broker/contracts/alert-paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../helpers';
import { TestPushService } from '../push-service';
import { Trader } from '../trader';

/**
 * Price alerts (issue 21, item 18) against the real server with a hand-driven market: create, list,
 * change and delete; the 50 active alerts hold under 200 creates at once; another trader's alert is
 * not found; a tick that crosses the level fires the alert once, marks it fired, and delivers it by
 * email (the built-in SMTP catcher) and by Web Push (a local push service that decrypts the message
 * as a browser would).
 */
let server: TTestServer;
let push: TestPushService;
beforeAll(async () => {
  push = await new TestPushService().start();
  server = await startTestServer({ FEED: 'off', PUSH_CA_FILE: push.caFile, PUSH_SERVICE_HOSTS: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await push.stop();
});

const SYMBOL = 'XAUUSD';
const csrf = (trader: Trader) => ({ 'x-csrf-token': trader.api.cookies.get('csrf') ?? '' });
const key = () => `alert-${randomUUID()}`;

let lastTime = 0;
/** One quote through the market service at the real time, as the feed gives it (a 0.30 spread). */
function tick(bid: string) {
  const digits = server.app.services.market.spec(SYMBOL)?.digits ?? 2;
  const points = Math.round(Number(bid) * 10 ** digits);
  lastTime = Math.max(lastTime + 1, Date.now());
  server.app.services.market.onTick({ symbol: SYMBOL, time: lastTime, bid: points, ask: points + 30 });
}

/** Waits (polling, never a fixed sleep) until `read` answers something truthy. */
async function eventually<T>(read: () => T | Promise<T>, timeoutMs = 5_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function create(trader: Trader, input: Record<string, unknown>) {
  return trader.api.post(
    ALERT_PATHS.alertcreate,
    { symbol: SYMBOL, idempotencyKey: key(), ...input },
    csrf(trader),
  );
}

describe('price alerts', () => {
  beforeAll(() => tick('2000.00'));

  it('creates, lists, changes, re-arms and deletes an alert, with translated refusals', async () => {
    const trader = await Trader.signInStranger(server);
    const made = await create(trader, { condition: 'above', price: '2010.50', note: 'Breakout' });
    expect(made.body.success).toBe(true);
    expect(made.body.data).toMatchObject({
      symbol: SYMBOL,
      condition: 'above',
      price: '2010.50',
      triggerPrice: '2010.50',
      note: 'Breakout',
      state: 'active',
      oneShot: true,
    });
    const move = await create(trader, { condition: 'moveDown', percent: '1.5' });
    expect(move.body.data).toMatchObject({ basePrice: '2000.00', percent: '1.5', triggerPrice: '1970.00' });

    const list = await trader.api.post(ALERT_PATHS.alertlist, {});
    expect(list.body.data.active).toBe(2);
    expect(list.body.data.limit).toBe(ALERT_LIMITS.activePerUser);
    expect(list.body.data.items.map((a: { id: string }) => a.id).sort()).toEqual(
      [made.body.data.id, move.body.data.id].sort(),
    );

    const changed = await trader.api.post(
      ALERT_PATHS.alertupdate,
      { id: made.body.data.id, price: '2020', note: 'Higher' },
      csrf(trader),
    );
    expect(changed.body.data).toMatchObject({ price: '2020.00', triggerPrice: '2020.00', note: 'Higher' });

    // The same key again is the same alert, not a second one.
    const idempotencyKey = key();
    const first = await create(trader, { condition: 'below', price: '1990', idempotencyKey });
    const again = await create(trader, { condition: 'below', price: '1990', idempotencyKey });
    expect(again.body.data.id).toBe(first.body.data.id);
    const conflict = await create(trader, { condition: 'below', price: '1980', idempotencyKey });
    expect(conflict.body.errorCode).toBe(-3013);

    // Refusals: each with its code and a translated message.
    const reached = await create(trader, { condition: 'above', price: '1999' });
    expect(reached.body.errorCode).toBe(-5403);
    expect(reached.body.message).toContain('2000.00');
    const decimals = await create(trader, { condition: 'below', price: '1999.123' });
    expect(decimals.body.errorCode).toBe(-5404);
    expect(Object.keys(decimals.body.fields ?? {})).toEqual(['price']);
    const missing = await create(trader, { condition: 'moveUp', price: '2100' });
    expect(missing.body.errorCode).toBe(-9001);
    const unknown = await create(trader, { symbol: 'NOPE', condition: 'above', price: '1' });
    expect(unknown.body.errorCode).toBe(-3003);
    const past = await create(trader, { condition: 'above', price: '2100', expiresAt: Date.now() - 1000 });
    expect(past.body.errorCode).toBe(-5405);
    const german = await trader.api.post(
      ALERT_PATHS.alertcreate,
      { symbol: SYMBOL, condition: 'above', price: '1999', idempotencyKey: key() },
      { ...csrf(trader), languagecode: 'de' },
    );
    expect(german.body.errorCode).toBe(-5403);
    expect(german.body.message).not.toBe(reached.body.message);

    const deleted = await trader.api.post(ALERT_PATHS.alertdelete, { id: made.body.data.id }, csrf(trader));
    expect(deleted.body.data).toEqual({ deleted: true });
    const gone = await trader.api.post(ALERT_PATHS.alertdelete, { id: made.body.data.id }, csrf(trader));
    expect(gone.body.errorCode).toBe(-5402);
    expect(server.app.services.alerts.size).toBeGreaterThan(0);
  });

  it('keeps 50 active alerts per trader under 200 creates at once', async () => {
    const trader = await Trader.signInStranger(server);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => create(trader, { condition: 'above', price: `${2100 + i}` })),
    );
    const codes = answers.map((a) => (a.body.success ? 0 : a.body.errorCode));
    expect(codes.filter((c) => c === 0)).toHaveLength(ALERT_LIMITS.activePerUser);
    // The rest: the alert limit, or the route's own rate limit (120 a minute) before it.
    expect(codes.filter((c) => c !== 0 && c !== -5401 && c !== -9003)).toEqual([]);
    expect(codes.filter((c) => c === -5401).length).toBeGreaterThanOrEqual(70);
    const list = await trader.api.post(ALERT_PATHS.alertlist, {});
    expect(list.body.data.active).toBe(ALERT_LIMITS.activePerUser);
  });

  it("does not show, change or delete another trader's alert", async () => {
    const owner = await Trader.signInStranger(server);
    const other = await Trader.signInStranger(server);
    const made = await create(owner, { condition: 'below', price: '1900' });
    const { id } = made.body.data;
    expect((await other.api.post(ALERT_PATHS.alertlist, {})).body.data.items).toEqual([]);
    for (const path of [ALERT_PATHS.alertdelete, ALERT_PATHS.alertupdate, ALERT_PATHS.alertrearm]) {
      const answer = await other.api.post(path, { id, note: 'mine now' }, csrf(other));
      expect(answer.body.errorCode, path).toBe(-5402);
    }
    expect((await owner.api.post(ALERT_PATHS.alertlist, {})).body.data.items[0].note).toBe('');
  });

  it('fires once when a tick crosses the level: marked fired, by email and by Web Push', async () => {
    const trader = await Trader.signInStranger(server);
    const emailOf = await server.app.services.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', trader.userId)
      .executeTakeFirstOrThrow();
    expect(emailOf.email).toBeTruthy();
    const subscribed = await trader.api.post(
      '/api/v1/usercenter/pushinsert',
      push.subscription(trader.userId),
      csrf(trader),
    );
    expect(subscribed.body.success).toBe(true);

    tick('2000.00');
    const made = await create(trader, { condition: 'above', price: '2003.00', note: 'Take profit zone' });
    const { id } = made.body.data;
    tick('2002.99');
    tick('2001.50');
    const fires = () => server.app.services.mailCatcher?.list(emailOf.email ?? '') ?? [];
    expect(fires()).toEqual([]);

    const crossedAt = Date.now();
    tick('2003.40');
    const mail = await eventually(() => fires()[0]);
    const pushed = await push.next((p) => p.path.endsWith(trader.userId));
    expect(mail.subject).toContain(SYMBOL);
    expect(mail.text).toContain('2003.40');
    expect(mail.text).toContain('Take profit zone');
    const message = JSON.parse(pushed.payload);
    expect(message).toMatchObject({ kind: 'alert', alert: { id, symbol: SYMBOL, price: '2003.40' } });
    expect(message.url).toBe(`/en/trade?symbol=${SYMBOL}`);
    expect(pushed.vapid.aud).toBe(`https://127.0.0.1:${push.port}`);
    expect(pushed.urgency).toBe('high');
    console.info(
      `alert delivered: mail ${mail.receivedAt - crossedAt} ms, push ${pushed.receivedAt - crossedAt} ms after the tick`,
    );

    const fired = await eventually(async () => {
      const list = await trader.api.post(ALERT_PATHS.alertlist, {});
      return list.body.data.items.find(
        (a: { id: string; state: string }) => a.id === id && a.state === 'fired',
      );
    });
    expect(fired).toMatchObject({ firedPrice: '2003.40', fireCount: 1 });

    // Further ticks beyond the level deliver nothing more.
    tick('2004.00');
    tick('2001.00');
    tick('2005.00');
    const marker = await create(trader, { condition: 'above', price: '2005.50' });
    tick('2005.60');
    await eventually(() => fires().length === 2);
    expect(fires().filter((m) => m.text.includes('2003.00'))).toHaveLength(1);
    expect(push.received.filter((p) => p.payload.includes(id))).toHaveLength(1);
    expect(marker.body.success).toBe(true);

    // Re-armed, it watches again (a level must still be ahead of the bid).
    const rearmed = await trader.api.post(ALERT_PATHS.alertrearm, { id }, csrf(trader));
    expect(rearmed.body.errorCode).toBe(-5403);
  });

  it('keeps a repeating alert active, delivers it once per cooldown, and expires alerts', async () => {
    const trader = await Trader.signInStranger(server);
    await trader.api.post(
      '/api/v1/usercenter/pushinsert',
      push.subscription(`repeat-${trader.userId}`),
      csrf(trader),
    );
    tick('2000.00');
    const repeating = await create(trader, { condition: 'above', price: '2001.00', oneShot: false });
    const { id } = repeating.body.data;
    tick('2001.10');
    await push.next((p) => p.payload.includes(id));
    // Back below the level (re-armed) and up again within the minute: nothing more is delivered.
    tick('2000.50');
    tick('2001.20');
    const marker = await create(trader, { condition: 'above', price: '2001.50' });
    tick('2001.60');
    await push.next((p) => p.payload.includes(marker.body.data.id));
    expect(push.received.filter((p) => p.payload.includes(id))).toHaveLength(1);
    const list = await trader.api.post(ALERT_PATHS.alertlist, {});
    expect(list.body.data.items.find((a: { id: string }) => a.id === id)).toMatchObject({
      state: 'active',
      fireCount: 1,
      firedPrice: '2001.10',
    });

    const expiresAt = Date.now() + 300;
    const soon = await create(trader, { condition: 'below', price: '1900.00', expiresAt });
    expect(soon.body.data.expiresAt).toBe(expiresAt);
    await eventually(() => Date.now() > expiresAt);
    await server.app.services.alerts.sweepExpired();
    const after = await trader.api.post(ALERT_PATHS.alertlist, {});
    expect(after.body.data.items.find((a: { id: string }) => a.id === soon.body.data.id).state).toBe(
      'expired',
    );
    // Re-armed, it watches again with no expiry.
    const rearmed = await trader.api.post(ALERT_PATHS.alertrearm, { id: soon.body.data.id }, csrf(trader));
    expect(rearmed.body.data).toMatchObject({ state: 'active', expiresAt: null });
  });

  it('leaves out the channels the trader switched off', async () => {
    const trader = await Trader.signInStranger(server);
    const saved = await trader.api.post(
      '/api/v1/usercenter/savesettings',
      { notification: { alertEmail: false } },
      csrf(trader),
    );
    expect(saved.body.data.notification).toMatchObject({ alertEmail: false, alertPush: true });
    await trader.api.post(
      '/api/v1/usercenter/pushinsert',
      push.subscription(`quiet-${trader.userId}`),
      csrf(trader),
    );
    tick('2000.00');
    const made = await create(trader, { condition: 'below', price: '1999.00' });
    tick('1998.90');
    await push.next((p) => p.payload.includes(made.body.data.id));
    const { email } = await server.app.services.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', trader.userId)
      .executeTakeFirstOrThrow();
    expect(server.app.services.mailCatcher?.list(email ?? '')).toEqual([]);
  });
});

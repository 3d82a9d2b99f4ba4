import { randomUUID } from 'node:crypto';
import { WEB_OAUTH_CLIENT } from '@broker/contracts/oauth';
import { AppErrorCode } from '@broker/domain/result-codes';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from '../../src/modules/identity/captcha';
import { CODE_GUESSES_PER_TARGET_PER_DAY, CODE_MAX_ATTEMPTS } from '../../src/modules/identity/codes';
import { MAX_FAILED_ATTEMPTS } from '../../src/modules/identity/lockout';
import { hashPassword } from '../../src/modules/identity/passwords';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';
import { createStaffWithRole } from '../staff';
import { Trader } from '../trader';

/**
 * Every counted attempt holds under a burst of parallel requests (issue 15, findings 1, 2, 4, 7):
 * the attacker of these tests sends 200 requests at once, each from an address of its own through
 * the trusted proxy, so per-address limits do not hide what the per-account counters do.
 */
let server: TTestServer;
let tenantId: string;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
  tenantId = (
    await db().selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => server.close());

const db = () => server.app.services.database.db;
const PARALLEL = 200;
/** A different forged-but-trusted client address per request. */
const from = (i: number) => ({ 'x-forwarded-for': `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}` });
const tally = (codes: number[]) => {
  const counts = new Map<number, number>();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  return counts;
};
const auditCount = async (action: string, actorId: string) =>
  Number(
    (
      await db()
        .selectFrom('audit_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('action', '=', action)
        .where('actor_id', '=', actorId)
        .executeTakeFirstOrThrow()
    ).n,
  );

async function newTrader(password = 'Parallel2026!') {
  const id = randomUUID();
  const email = `parallel.${id}@example.com`;
  await db()
    .insertInto('users')
    .values({
      id,
      tenant_id: tenantId,
      email,
      password_hash: await hashPassword(password),
      display_name: 'Parallel',
      country_code: null,
      locked_until: null,
    })
    .execute();
  return { id, email, password };
}

describe('sign-in lockout under parallel guesses', () => {
  it('checks exactly five of 200 parallel wrong trader passwords, then locks out the right one too', async () => {
    const trader = await newTrader();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        new ApiClient(server.baseUrl).post(
          '/api/v1/usercenter/login',
          { email: trader.email, password: `wrong-${i}` },
          from(i),
        ),
      ),
    );
    const counts = tally(answers.map((a) => a.body.errorCode));
    // Four answer "wrong password"; the fifth locks (-1008) like every one refused unchecked.
    expect(counts.get(AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG)).toBe(MAX_FAILED_ATTEMPTS - 1);
    expect(counts.get(AppErrorCode.LOCKED_OUT)).toBe(PARALLEL - MAX_FAILED_ATTEMPTS + 1);
    expect(await auditCount('user.signin.failed', trader.id)).toBe(MAX_FAILED_ATTEMPTS);
    const right = await new ApiClient(server.baseUrl).post(
      '/api/v1/usercenter/login',
      { email: trader.email, password: trader.password },
      from(PARALLEL),
    );
    expect(right.body.errorCode).toBe(AppErrorCode.LOCKED_OUT);
  });

  it('checks exactly five of 200 parallel wrong staff passwords', async () => {
    const { staffId } = await createStaffWithRole(db(), {
      tenantId,
      username: 'parallelstaff',
      passwordHash: await hashPassword('Staff-Pass-2026'),
      permissions: ['users.view'],
      roleName: 'Parallel viewers',
    });
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        new ApiClient(server.baseUrl).post(
          '/api/v1/admin/auth/login',
          { username: 'parallelstaff', password: `wrong-${i}` },
          from(i),
        ),
      ),
    );
    const counts = tally(answers.map((a) => a.body.errorCode));
    expect(counts.get(AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG)).toBe(MAX_FAILED_ATTEMPTS - 1);
    expect(counts.get(AppErrorCode.LOCKED_OUT)).toBe(PARALLEL - MAX_FAILED_ATTEMPTS + 1);
    expect(await auditCount('staff.signin.failed', staffId)).toBe(MAX_FAILED_ATTEMPTS);
  });

  it('signs in once with one authenticator code sent 50 times at once', async () => {
    const trader = await newTrader();
    const secret = new Secret({ size: 20 }).base32;
    await db().updateTable('users').set({ totp_secret: secret }).where('id', '=', trader.id).execute();
    const otp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        new ApiClient(server.baseUrl).post(
          '/api/v1/usercenter/login',
          { email: trader.email, password: trader.password, otp },
          from(i),
        ),
      ),
    );
    expect(answers.filter((a) => a.body.success)).toHaveLength(1);
  });
});

describe('verification codes under parallel guesses', () => {
  it('compares exactly five of 200 parallel reset codes; the right one then resets nothing', async () => {
    const trader = await newTrader();
    const api = new ApiClient(server.baseUrl);
    const challenge = (await api.post('/api/v1/usercenter/captcha')).body.data;
    const sent = await api.post('/api/v1/usercenter/sendcode', {
      email: trader.email,
      purpose: 'reset',
      captcha: { id: challenge.id, nonce: solveChallenge(challenge.salt, challenge.difficulty) },
    });
    expect(sent.body.success, JSON.stringify(sent.body)).toBe(true);
    const box = (await (
      await fetch(`${server.baseUrl}/dev/mailbox.json?to=${encodeURIComponent(trader.email)}`)
    ).json()) as { mails: { text: string }[] };
    const rightCode = box.mails[0]?.text.match(/\b(\d{4})\b/)?.[1] as string;
    expect(rightCode).toMatch(/^\d{4}$/);
    // 200 wrong codes at once, each from an address of its own.
    const guesses = Array.from({ length: PARALLEL }, (_, i) =>
      String((Number(rightCode) + 1 + i) % 10_000).padStart(4, '0'),
    );
    const reset = (code: string, i: number) =>
      new ApiClient(server.baseUrl).post(
        '/api/v1/usercenter/forgetpassword',
        { email: trader.email, code, password: 'Attacker2026!', confirmPassword: 'Attacker2026!' },
        from(i),
      );
    const answers = await Promise.all(guesses.map(reset));
    const counts = tally(answers.map((a) => a.body.errorCode));
    // The target's guesses of the day are counted first; of those let through, the code's own
    // count lets five be compared: four answer "wrong", the fifth spends the code.
    expect(counts.get(AppErrorCode.RATE_LIMITED)).toBe(PARALLEL - CODE_GUESSES_PER_TARGET_PER_DAY);
    expect(counts.get(AppErrorCode.VERIFICATION_CODE_WRONG)).toBe(CODE_MAX_ATTEMPTS - 1);
    expect(counts.get(AppErrorCode.CODE_EXPIRED)).toBe(
      CODE_GUESSES_PER_TARGET_PER_DAY - CODE_MAX_ATTEMPTS + 1,
    );
    const row = await db()
      .selectFrom('verification_codes')
      .select('attempts')
      .where('target', '=', trader.email)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(CODE_MAX_ATTEMPTS);
    // Even the right code does nothing now, and the trader's password is unchanged.
    expect((await reset(rightCode, PARALLEL)).body.success).toBe(false);
    const signIn = await new ApiClient(server.baseUrl).post(
      '/api/v1/usercenter/login',
      { email: trader.email, password: trader.password },
      from(PARALLEL + 1),
    );
    expect(signIn.body.success).toBe(true);
  });
});

describe('account limits under parallel creation', () => {
  it('opens exactly five demo accounts of 20 parallel requests and one experience account of 10', async () => {
    const trader = await Trader.signInStranger(server);
    const open = (accountType: number, tradeType: number) =>
      trader.call('/api/v1/account/create', {
        account_type: accountType,
        trade_type: tradeType,
        leverage: 100,
        idempotencyKey: randomUUID(),
      });
    const demos = await Promise.all(Array.from({ length: 20 }, () => open(1, 2)));
    expect(demos.filter((a) => a.body.success)).toHaveLength(5);
    expect(demos.filter((a) => a.body.errorCode === AppErrorCode.ACCOUNT_LIMIT_REACHED).length).toBe(15);
    const experience = await Promise.all(Array.from({ length: 10 }, () => open(3, 1)));
    expect(experience.filter((a) => a.body.success)).toHaveLength(1);
    const held = await db()
      .selectFrom('trading_accounts')
      .select(['account_type', 'trade_type'])
      .where('user_id', '=', trader.userId)
      .execute();
    expect(held.filter((a) => a.account_type === 1)).toHaveLength(5);
    expect(held.filter((a) => a.account_type === 3)).toHaveLength(1);
  });

  it('answers a repeated key with its account even when the limit is reached', async () => {
    const trader = await Trader.signInStranger(server);
    const idempotencyKey = randomUUID();
    const body = { account_type: 3, trade_type: 2, leverage: 100, idempotencyKey };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => trader.call('/api/v1/account/create', body)),
    );
    expect(answers.every((a) => a.body.success)).toBe(true);
    expect(new Set(answers.map((a) => a.body.data.account_id)).size).toBe(1);
  });
});

describe('credential checks inside a session', () => {
  it('counts wrong old passwords against the lockout: 200 parallel tries check at most five', async () => {
    const trader = await Trader.signInStranger(server);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        trader.api.post(
          '/api/v1/usercenter/changepassword',
          { oldPassword: `wrong-${i}`, password: 'Newpass2026!', confirmPassword: 'Newpass2026!' },
          { 'x-csrf-token': trader.api.cookies.get('csrf') ?? '' },
        ),
      ),
    );
    const counts = tally(answers.map((a) => a.body.errorCode));
    // The route allows ten a subject per ten minutes; of those, four answer "old password wrong"
    // and the fifth locks.
    expect(counts.get(AppErrorCode.RATE_LIMITED)).toBe(PARALLEL - 10);
    expect(counts.get(AppErrorCode.VALIDATION_FAILED)).toBe(MAX_FAILED_ATTEMPTS - 1);
    expect(counts.get(AppErrorCode.LOCKED_OUT)).toBe(10 - MAX_FAILED_ATTEMPTS + 1);
  });
});

describe('single-use and stored things under parallel requests', () => {
  it('accepts one captcha solution once of 200 parallel code requests', async () => {
    const api = new ApiClient(server.baseUrl);
    const challenge = (await api.post('/api/v1/usercenter/captcha')).body.data;
    const captcha = { id: challenge.id, nonce: solveChallenge(challenge.salt, challenge.difficulty) };
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        new ApiClient(server.baseUrl).post(
          '/api/v1/usercenter/sendcode',
          { email: `captcha.${i}@example.com`, purpose: 'register', captcha },
          from(i),
        ),
      ),
    );
    expect(answers.filter((a) => a.body.success)).toHaveLength(1);
    expect(answers.filter((a) => a.body.errorCode === AppErrorCode.CAPTCHA_FAILED)).toHaveLength(
      PARALLEL - 1,
    );
  });

  it('stores at most 60 authorization codes a minute for one address (finding 9)', async () => {
    const before = Number(
      (
        await db()
          .selectFrom('oauth_codes')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const answers = await Promise.all(
      Array.from({ length: 150 }, () =>
        fetch(`${server.baseUrl}/oauth2/authorize`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            response_type: 'code',
            scope: WEB_OAUTH_CLIENT.scope,
            client_id: WEB_OAUTH_CLIENT.clientId,
            provision_key: WEB_OAUTH_CLIENT.provisionKey,
            authenticated_userid: 'flood',
          }),
        }),
      ),
    );
    const statuses = tally(answers.map((a) => a.status));
    expect(statuses.get(200)).toBe(60);
    expect(statuses.get(429)).toBe(90);
    const after = Number(
      (
        await db()
          .selectFrom('oauth_codes')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after - before).toBe(60);
  });
});

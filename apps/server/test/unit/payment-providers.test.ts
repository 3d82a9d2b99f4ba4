import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerSandboxPay } from '../../src/http/sandbox-pay';
import {
  createSandboxProviders,
  ibanValid,
  makeIban,
  type TDepositStart,
  type TPayoutStart,
  type TProviderEvent,
  type TSandboxOptions,
  type TSandboxProviders,
  tronAddress,
} from '../../src/modules/funding/providers';
import {
  sandboxWebhookSecret,
  signSandboxWebhook,
} from '../../src/modules/funding/providers/webhook-signing';

const SECRET = 'sandbox-test-secret-0123456789';
/** Pinned day: the sandbox's clock starts at noon UTC on it and runs at the real rate. */
const DAY = '2026-03-02';
const CLOCK_BASE = Date.parse(`${DAY}T12:00:00.000Z`);
const POLL = { timeout: 4000, interval: 10 };

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// --- helpers ---------------------------------------------------------------------------------------

interface TDelivery {
  providerId: string;
  rawBody: string;
  headers: IncomingHttpHeaders;
  status: number;
  at: number;
}

/** A webhook receiver on 127.0.0.1:0 that answers 500 to the first `failFirst` deliveries. */
async function startReceiver(options: { failFirst?: number } = {}) {
  let failuresLeft = options.failFirst ?? 0;
  const deliveries: TDelivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = failuresLeft > 0 ? 500 : 200;
      if (failuresLeft > 0) failuresLeft--;
      deliveries.push({
        providerId: (request.url ?? '').split('/').pop() ?? '',
        rawBody: Buffer.concat(chunks).toString('utf8'),
        headers: request.headers,
        status,
        at: performance.now(),
      });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url,
    deliveries,
    failNext(count: number) {
      failuresLeft = count;
    },
  };
}
type TReceiver = Awaited<ReturnType<typeof startReceiver>>;

function makeSandbox(
  receiver: TReceiver,
  overrides: Partial<TSandboxOptions> = {},
  dataDir = newDataDir(),
): TSandboxProviders {
  const started = Date.now();
  const sandbox = createSandboxProviders({
    dataDir,
    secret: SECRET,
    webhookUrl: (providerId) => `${receiver.url}/hooks/${providerId}`,
    publicUrl: () => 'http://broker.test/',
    now: () => CLOCK_BASE + (Date.now() - started),
    webhookDelayMs: [5, 20],
    duplicateRate: 0,
    retryBaseMs: 10,
    blockMs: 20,
    payoutDelayMs: [5, 20],
    ...overrides,
  });
  cleanups.push(() => sandbox.stop());
  return sandbox;
}

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-pay-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const provider = (sandbox: TSandboxProviders, id: string) => {
  const found = sandbox.providers.get(id);
  if (!found) throw new Error(`no provider ${id}`);
  return found;
};

/** The events the receiver accepted (2xx), verified by their provider as the webhook route would. */
const accepted = (receiver: TReceiver, sandbox: TSandboxProviders): TProviderEvent[] =>
  receiver.deliveries
    .filter((d) => d.status === 200)
    .map((d) => provider(sandbox, d.providerId).verifyWebhook(d.rawBody, d.headers));

const aboutDeposit = (events: TProviderEvent[], depositId: string) =>
  events.filter((e) => 'depositId' in e && e.depositId === depositId);

const aboutPayout = (events: TProviderEvent[], withdrawalId: string) =>
  events.filter((e) => 'withdrawalId' in e && e.withdrawalId === withdrawalId);

function aDeposit(overrides: Partial<TDepositStart> = {}): TDepositStart {
  return {
    depositId: randomUUID(),
    tenantId: 'tenant-1',
    userId: 'user-1',
    amount: 10_000,
    currency: 'USD',
    returnUrl: 'https://broker.test/en/funds?tab=deposit#history',
    merchantName: 'Northstar <Markets>',
    ...overrides,
  };
}

function aPayout(overrides: Partial<TPayoutStart> = {}): TPayoutStart {
  return {
    withdrawalId: randomUUID(),
    tenantId: 'tenant-1',
    userId: 'user-1',
    amount: 5_000,
    currency: 'USD',
    destination: `iban:${makeIban('DE', '999900001234567890')}|Ada Lovelace`,
    sourceRef: null,
    ...overrides,
  };
}

async function pagesApp(sandbox: TSandboxProviders): Promise<FastifyInstance> {
  const app = Fastify();
  registerSandboxPay(app, sandbox);
  await app.ready();
  cleanups.push(() => app.close());
  return app;
}

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

const CARD_FIELDS = { action: 'pay', expiry: '12 / 34', cvc: '123', holder: 'Ada Lovelace' };

async function startHosted(
  sandbox: TSandboxProviders,
  id = 'sandboxcard',
  overrides: Partial<TDepositStart> = {},
) {
  const input = aDeposit(overrides);
  const started = await provider(sandbox, id).startDeposit(input);
  if (started.kind !== 'redirect') throw new Error('expected a redirect');
  return { input, started, path: new URL(started.redirectUrl).pathname };
}

const journalLines = (dataDir: string, providerId: string) =>
  readFileSync(join(dataDir, 'sandbox-payments', `${providerId}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { op: string; withdrawalId?: string; sessionId?: string });

// --- webhook signatures ----------------------------------------------------------------------------

describe('sandbox webhook signatures', () => {
  const body = JSON.stringify({
    id: 'evt_0123456789abcdef01234567',
    object: 'event',
    type: 'payout.completed',
    provider: 'sandboxbank',
    created: CLOCK_BASE,
    sequence: 1,
    livemode: false,
    data: { withdrawalId: 'w-1', providerRef: 'sct_1', reason: null },
  });
  const bankSecret = sandboxWebhookSecret(SECRET, 'sandboxbank');

  async function bank() {
    return provider(makeSandbox(await startReceiver()), 'sandboxbank');
  }

  it('accepts a body signed now with the provider secret and answers its event', async () => {
    const event = (await bank()).verifyWebhook(body, {
      'x-sandbox-signature': signSandboxWebhook(bankSecret, body, CLOCK_BASE),
      'x-sandbox-event-id': 'evt_0123456789abcdef01234567',
    });
    expect(event).toEqual({
      type: 'payout.completed',
      eventId: 'evt_0123456789abcdef01234567',
      sequence: 1,
      withdrawalId: 'w-1',
      providerRef: 'sct_1',
      reason: null,
      occurredAt: new Date(CLOCK_BASE),
    });
  });

  it('refuses a forged signature, a changed body and another provider’s signature as bad_signature', async () => {
    const bankProvider = await bank();
    const refusal = (raw: string, signature: string) => {
      try {
        bankProvider.verifyWebhook(raw, { 'x-sandbox-signature': signature });
        return 'accepted';
      } catch (error) {
        return (error as { reason?: string }).reason;
      }
    };
    expect(refusal(body, signSandboxWebhook('not-the-secret', body, CLOCK_BASE))).toBe('bad_signature');
    expect(refusal(body.replace('w-1', 'w-2'), signSandboxWebhook(bankSecret, body, CLOCK_BASE))).toBe(
      'bad_signature',
    );
    const cardSecret = sandboxWebhookSecret(SECRET, 'sandboxcard');
    expect(refusal(body, signSandboxWebhook(cardSecret, body, CLOCK_BASE))).toBe('bad_signature');
  });

  it('refuses a signature more than five minutes old or ahead as stale', async () => {
    const bankProvider = await bank();
    for (const t of [CLOCK_BASE - 5 * 60_000 - 1000, CLOCK_BASE + 5 * 60_000 + 1000])
      expect(() =>
        bankProvider.verifyWebhook(body, { 'x-sandbox-signature': signSandboxWebhook(bankSecret, body, t) }),
      ).toThrow(expect.objectContaining({ reason: 'stale' }));
  });

  it('refuses a missing or garbled header and a signed body that is no event as malformed', async () => {
    const bankProvider = await bank();
    const notAnEvent = JSON.stringify({ hello: 'world' });
    const cases: [string, Record<string, string | string[]>][] = [
      [body, {}],
      [body, { 'x-sandbox-signature': 'v1=abc' }],
      [body, { 'x-sandbox-signature': `t=${CLOCK_BASE}` }],
      [body, { 'x-sandbox-signature': ['a', 'b'] }],
      ['{not json', { 'x-sandbox-signature': signSandboxWebhook(bankSecret, '{not json', CLOCK_BASE) }],
      [notAnEvent, { 'x-sandbox-signature': signSandboxWebhook(bankSecret, notAnEvent, CLOCK_BASE) }],
      [
        body,
        {
          'x-sandbox-signature': signSandboxWebhook(bankSecret, body, CLOCK_BASE),
          'x-sandbox-event-id': 'evt_ffffffffffffffffffffffff',
        },
      ],
    ];
    for (const [raw, headers] of cases)
      expect(() => bankProvider.verifyWebhook(raw, headers)).toThrow(
        expect.objectContaining({ reason: 'malformed' }),
      );
  });
});

// --- webhook delivery ------------------------------------------------------------------------------

describe('sandbox webhook delivery', () => {
  async function payWithCard(sandbox: TSandboxProviders, number = '4242424242424242') {
    const app = await pagesApp(sandbox);
    const deposit = await startHosted(sandbox);
    await app.inject({ method: 'POST', url: deposit.path, ...form({ ...CARD_FIELDS, number }) });
    return deposit;
  }

  it('retries with growing back-off until the receiver answers 2xx, under one event id', async () => {
    const receiver = await startReceiver({ failFirst: 2 });
    const sandbox = makeSandbox(receiver, { retryBaseMs: 40 });
    const { input } = await payWithCard(sandbox);
    await expect.poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId).length, POLL).toBe(1);
    const tries = receiver.deliveries;
    expect(tries.map((d) => d.status)).toEqual([500, 500, 200]);
    expect(new Set(tries.map((d) => d.headers['x-sandbox-event-id'])).size).toBe(1);
    const [first, second, third] = tries.map((d) => d.at) as [number, number, number];
    expect(second - first).toBeGreaterThanOrEqual(35);
    expect(third - second).toBeGreaterThanOrEqual(75);
  });

  it('abandons a webhook after maxAttempts and journals it', async () => {
    const receiver = await startReceiver({ failFirst: 1000 });
    const dataDir = newDataDir();
    const sandbox = makeSandbox(receiver, { maxAttempts: 3, retryBaseMs: 5 }, dataDir);
    await payWithCard(sandbox);
    await expect
      .poll(() => journalLines(dataDir, 'sandboxcard').some((l) => l.op === 'webhook.abandoned'), POLL)
      .toBe(true);
    expect(receiver.deliveries).toHaveLength(3);
  });

  it('delivers some events twice with the same event id (duplicateRate)', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver, { duplicateRate: 1 });
    await payWithCard(sandbox);
    await expect.poll(() => receiver.deliveries.length, POLL).toBe(2);
    const [first, again] = accepted(receiver, sandbox);
    expect(again?.eventId).toBe(first?.eventId);
    expect(receiver.deliveries[1]?.headers['x-sandbox-event-id']).toBe(first?.eventId);
  });

  it('sends the events of one payment in order, or in reverse when asked to reorder', async () => {
    for (const reorder of [false, true]) {
      const receiver = await startReceiver();
      const sandbox = makeSandbox(receiver, { reorder, webhookDelayMs: [150, 150], blockMs: 15 });
      const deposit = await provider(sandbox, 'sandboxchain').startDeposit(
        aDeposit({ currency: 'USDT_TRC20' }),
      );
      if (deposit.kind !== 'address') throw new Error('expected an address');
      sandbox.controls.chainSend({ network: 'trc20', address: deposit.address, amount: 10_000 });
      await expect.poll(() => accepted(receiver, sandbox).length, POLL).toBe(3);
      const sequences = accepted(receiver, sandbox).map((e) => e.sequence);
      expect(sequences).toEqual(reorder ? [3, 2, 1] : [1, 2, 3]);
    }
  });

  it('sends a webhook left undelivered by a stopped process after the restart, same event id', async () => {
    const receiver = await startReceiver({ failFirst: 1 });
    const dataDir = newDataDir();
    const before = makeSandbox(receiver, { retryBaseMs: 60_000 }, dataDir);
    const { input } = await payWithCard(before);
    await expect.poll(() => receiver.deliveries.length, POLL).toBe(1);
    before.stop();
    const after = makeSandbox(receiver, {}, dataDir);
    await expect.poll(() => aboutDeposit(accepted(receiver, after), input.depositId).length, POLL).toBe(1);
    expect(receiver.deliveries[1]?.headers['x-sandbox-event-id']).toBe(
      receiver.deliveries[0]?.headers['x-sandbox-event-id'],
    );
  });
});

// --- hosted checkout -------------------------------------------------------------------------------

describe('sandbox hosted checkout', () => {
  it('renders a self-contained card checkout page with the merchant, the amount and escaped text', async () => {
    const sandbox = makeSandbox(await startReceiver());
    const app = await pagesApp(sandbox);
    const { path, started } = await startHosted(sandbox);
    expect(started.kind === 'redirect' && started.redirectUrl).toMatch(
      /^http:\/\/broker\.test\/sandbox\/pay\/cs_test_[\w-]+$/,
    );
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain('https://broker.test');
    expect(page.body).toContain('Northstar &lt;Markets&gt;');
    expect(page.body).not.toContain('<Markets>');
    expect(page.body).toContain('$100.00');
    for (const name of ['number', 'expiry', 'cvc']) expect(page.body).toContain(`name="${name}"`);
    expect(page.body).toContain('value="pay"');
    expect(page.body).toContain('value="cancel"');
    expect(page.body).toContain('width=device-width');
    expect(page.body).not.toMatch(/<script|<link|src=|url\(/);
  });

  it.each([
    ['4242 4242 4242 4242', 'success', { type: 'deposit.succeeded', amount: 10_000, currency: 'USD' }],
    ['4000 0000 0000 0002', 'failed', { type: 'deposit.failed', reason: 'declined' }],
    ['4000 0000 0000 9995', 'failed', { type: 'deposit.failed', reason: 'insufficient_funds' }],
  ])(
    'card %s sends the trader back with result=%s and the webhook follows',
    async (number, result, event) => {
      const receiver = await startReceiver();
      const sandbox = makeSandbox(receiver);
      const app = await pagesApp(sandbox);
      const { input, path, started } = await startHosted(sandbox);
      const answer = await app.inject({ method: 'POST', url: path, ...form({ ...CARD_FIELDS, number }) });
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe(
        `https://broker.test/en/funds?tab=deposit&deposit=${input.depositId}&result=${result}#history`,
      );
      await expect
        .poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId), POLL)
        .toEqual([
          expect.objectContaining({
            ...event,
            depositId: input.depositId,
            providerRef: started.kind === 'redirect' ? started.sessionId : '',
            sequence: 1,
          }),
        ]);
    },
  );

  it('Cancel sends the trader back with result=cancelled (own query kept, deposit not doubled) and a cancelled failure', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver);
    const app = await pagesApp(sandbox);
    const depositId = randomUUID();
    const { input, path } = await startHosted(sandbox, 'sandboxcard', {
      depositId,
      returnUrl: `https://broker.test/back?deposit=${depositId}&q=a%20b+c`,
    });
    const answer = await app.inject({ method: 'POST', url: path, ...form({ action: 'cancel' }) });
    expect(answer.headers.location).toBe(
      `https://broker.test/back?q=a%20b+c&deposit=${depositId}&result=cancelled`,
    );
    await expect
      .poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId), POLL)
      .toEqual([expect.objectContaining({ type: 'deposit.failed', reason: 'cancelled' })]);
  });

  it('a second POST of a paid session shows the result page and pays nothing more', async () => {
    const receiver = await startReceiver();
    const dataDir = newDataDir();
    const sandbox = makeSandbox(receiver, {}, dataDir);
    const app = await pagesApp(sandbox);
    const { input, path, started } = await startHosted(sandbox);
    const pay = form({ ...CARD_FIELDS, number: '4242424242424242' });
    expect((await app.inject({ method: 'POST', url: path, ...pay })).statusCode).toBe(303);
    const again = await app.inject({ method: 'POST', url: path, ...pay });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('Payment successful');
    expect(again.body).toContain('Visa •••• 4242');
    expect(again.body).toContain(`deposit=${input.depositId}&amp;result=success`);
    await expect.poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId).length, POLL).toBe(1);
    const sessionId = started.kind === 'redirect' ? started.sessionId : '';
    expect(journalLines(dataDir, 'sandboxcard').filter((l) => l.sessionId === sessionId)).toHaveLength(1);
    expect(readFileSync(join(dataDir, 'sandbox-payments', 'sandboxcard.jsonl'), 'utf8')).not.toContain(
      '4242424242424242',
    );
  });

  it('starting a deposit twice answers the same session; other details are refused', async () => {
    const sandbox = makeSandbox(await startReceiver());
    const card = provider(sandbox, 'sandboxcard');
    const input = aDeposit();
    const first = await card.startDeposit(input);
    expect(await card.startDeposit(input)).toEqual(first);
    await expect(card.startDeposit({ ...input, amount: 1 })).rejects.toThrow(/other details/);
  });

  it('card 0119 stays processing, then fails with timeout when the session expires', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver, { sessionTtlMs: 600 });
    const app = await pagesApp(sandbox);
    const { input, path } = await startHosted(sandbox);
    const answer = await app.inject({
      method: 'POST',
      url: path,
      ...form({ ...CARD_FIELDS, number: '4000000000000119' }),
    });
    expect(answer.headers.location).toContain('result=processing');
    expect((await app.inject({ method: 'GET', url: path })).body).toContain('Payment processing');
    await expect
      .poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId), POLL)
      .toEqual([expect.objectContaining({ type: 'deposit.failed', reason: 'timeout' })]);
  });

  it('an unpaid session fails with expired, and its page then shows the failure', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver, { sessionTtlMs: 60 });
    const app = await pagesApp(sandbox);
    const { input, path } = await startHosted(sandbox);
    await expect
      .poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId), POLL)
      .toEqual([expect.objectContaining({ type: 'deposit.failed', reason: 'expired' })]);
    const page = await app.inject({
      method: 'POST',
      url: path,
      ...form({ ...CARD_FIELDS, number: '4242424242424242' }),
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('expired before the payment was made');
  });

  it('a paid session does not fail when its expiry comes', async () => {
    const dataDir = newDataDir();
    const sandbox = makeSandbox(await startReceiver(), { sessionTtlMs: 250 }, dataDir);
    const app = await pagesApp(sandbox);
    const paid = await startHosted(sandbox);
    await app.inject({
      method: 'POST',
      url: paid.path,
      ...form({ ...CARD_FIELDS, number: '4242424242424242' }),
    });
    // A session opened later expires later: once it has, the paid one's expiry has come and gone.
    const later = await startHosted(sandbox);
    const ops = (started: typeof paid.started) =>
      journalLines(dataDir, 'sandboxcard').filter(
        (l) => started.kind === 'redirect' && l.sessionId === started.sessionId,
      );
    await expect.poll(() => ops(later.started).length, POLL).toBe(1);
    expect(ops(paid.started)).toHaveLength(1);
  });

  it('refuses bad card fields and non-test cards with the form again (422), nothing paid', async () => {
    const sandbox = makeSandbox(await startReceiver());
    const app = await pagesApp(sandbox);
    const { path } = await startHosted(sandbox);
    const cases: [Record<string, string>, string][] = [
      [{ ...CARD_FIELDS, number: '4242424242424241' }, 'card number is invalid'],
      [{ ...CARD_FIELDS, number: '4242424242424242', expiry: '01/20' }, 'in the past'],
      [{ ...CARD_FIELDS, number: '4242424242424242', cvc: '1' }, 'security code is incomplete'],
      [{ ...CARD_FIELDS, number: '4111111111111111' }, 'use one of the test cards'],
    ];
    for (const [fields, message] of cases) {
      const answer = await app.inject({ method: 'POST', url: path, ...form(fields) });
      expect(answer.statusCode).toBe(422);
      expect(answer.body).toContain(message);
      expect(answer.body).toContain('aria-invalid="true"');
    }
    expect((await app.inject({ method: 'GET', url: path })).body).toContain('name="number"');
  });

  it('the e-wallet page signs in with email and password; nofunds@ is declined for insufficient funds', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver);
    const app = await pagesApp(sandbox);
    const { input, path } = await startHosted(sandbox, 'sandboxwallet');
    expect(path).toMatch(/^\/sandbox\/pay\/ws_test_/);
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.body).toContain('SandboxWallet');
    expect(page.body).toContain('name="email"');
    expect(page.body).toContain('type="password"');
    expect(page.body).not.toContain('name="number"');
    const answer = await app.inject({
      method: 'POST',
      url: path,
      ...form({ action: 'pay', email: 'nofunds@example.com', password: 'x' }),
    });
    expect(answer.headers.location).toContain('result=failed');
    await expect
      .poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId), POLL)
      .toEqual([expect.objectContaining({ type: 'deposit.failed', reason: 'insufficient_funds' })]);
  });

  it('answers 404 for an unknown session', async () => {
    const app = await pagesApp(makeSandbox(await startReceiver()));
    const page = await app.inject({ method: 'GET', url: '/sandbox/pay/cs_test_nope' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Payment page not found');
  });
});

// --- chain -----------------------------------------------------------------------------------------

describe('sandbox USDT chain watcher', () => {
  async function openChain(sandbox: TSandboxProviders, overrides: Partial<TDepositStart> = {}) {
    const input = aDeposit({ currency: 'USDT', network: 'trc20', ...overrides });
    const started = await provider(sandbox, 'sandboxchain').startDeposit(input);
    if (started.kind !== 'address') throw new Error('expected an address');
    return { input, started };
  }

  it('gives each user one address per network, reused across deposits', async () => {
    const sandbox = makeSandbox(await startReceiver());
    const tron = await openChain(sandbox);
    const tronAgain = await openChain(sandbox);
    const eth = await openChain(sandbox, { network: undefined, currency: 'USDT_ERC20' });
    const otherUser = await openChain(sandbox, { userId: 'user-2' });
    expect(tron.started.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(tronAgain.started.address).toBe(tron.started.address);
    expect(otherUser.started.address).not.toBe(tron.started.address);
    expect(eth.started.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(tron.started.confirmations).toBe(3);
    expect(eth.started.confirmations).toBe(6);
    expect(
      sandbox.controls.depositAddress({ tenantId: 'tenant-1', userId: 'user-1', network: 'trc20' }),
    ).toBe(tron.started.address);
    await expect(
      provider(sandbox, 'sandboxchain').startDeposit(aDeposit({ currency: 'USDT' })),
    ).rejects.toThrow(/which network/);
  });

  it.each([
    ['exact', 'trc20', 10_000],
    ['under', 'trc20', 9_000],
    ['over', 'erc20', 12_345],
  ] as const)(
    'a %s payment is announced at each confirmation and succeeds with the amount sent (%s)',
    async (_kind, network, amount) => {
      const receiver = await startReceiver();
      const sandbox = makeSandbox(receiver, { confirmations: { trc20: 3, erc20: 4 } });
      const { input, started } = await openChain(sandbox, { network });
      const sent = sandbox.controls.chainSend({ network, address: started.address, amount });
      expect(sent.depositId).toBe(input.depositId);
      const required = network === 'trc20' ? 3 : 4;
      await expect
        .poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId).length, POLL)
        .toBe(required);
      const events = aboutDeposit(accepted(receiver, sandbox), input.depositId).sort(
        (a, b) => a.sequence - b.sequence,
      );
      expect(events.map((e) => e.type)).toEqual([
        ...Array.from({ length: required - 1 }, () => 'deposit.confirming'),
        'deposit.succeeded',
      ]);
      expect(events.map((e) => ('confirmations' in e ? e.confirmations : null))).toEqual([
        ...Array.from({ length: required - 1 }, (_, i) => i + 1),
        null,
      ]);
      expect(events.at(-1)).toMatchObject({ amount, currency: 'USDT', providerRef: sent.txHash });
    },
  );

  it('ties a transfer to the oldest open deposit of the same amount, else the oldest', async () => {
    const sandbox = makeSandbox(await startReceiver());
    const a = await openChain(sandbox, { amount: 10_000 });
    const b = await openChain(sandbox, { amount: 20_000 });
    const c = await openChain(sandbox, { amount: 20_000 });
    const send = (amount: number) =>
      sandbox.controls.chainSend({ network: 'trc20', address: a.started.address, amount }).depositId;
    expect(send(20_000)).toBe(b.input.depositId);
    expect(send(30_000)).toBe(a.input.depositId);
    expect(send(20_000)).toBe(c.input.depositId);
    expect(send(20_000)).toBe(null);
  });

  it('announces a transfer to an address with no open deposit as unmatched, with the address', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver);
    const address = sandbox.controls.depositAddress({
      tenantId: 'tenant-1',
      userId: 'user-9',
      network: 'trc20',
    });
    const sent = sandbox.controls.chainSend({ network: 'trc20', address, amount: 777 });
    await expect
      .poll(() => accepted(receiver, sandbox), POLL)
      .toEqual([
        expect.objectContaining({
          type: 'payment.unmatched',
          reference: address,
          providerRef: sent.txHash,
          amount: 777,
          currency: 'USDT',
        }),
      ]);
  });

  it('fails an unpaid chain deposit with expired when its window closes', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver, { chainWindowMs: 50 });
    const { input } = await openChain(sandbox);
    await expect
      .poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId), POLL)
      .toEqual([expect.objectContaining({ type: 'deposit.failed', reason: 'expired' })]);
  });

  it('serves POST /sandbox/chain/send only with controls enabled, refusing bad addresses', async () => {
    const receiver = await startReceiver();
    const closed = await pagesApp(makeSandbox(receiver));
    const payload = { network: 'trc20', address: 'T', amount: 100 };
    expect((await closed.inject({ method: 'POST', url: '/sandbox/chain/send', payload })).statusCode).toBe(
      404,
    );
    const sandbox = makeSandbox(receiver, { enableControls: true });
    const open = await pagesApp(sandbox);
    const bad = await open.inject({ method: 'POST', url: '/sandbox/chain/send', payload });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'not a TRC20 address: T' });
    const { input, started } = await openChain(sandbox);
    const good = await open.inject({
      method: 'POST',
      url: '/sandbox/chain/send',
      payload: { network: 'trc20', address: started.address, amount: 10_000 },
    });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toMatchObject({ depositId: input.depositId, confirmationsRequired: 3 });
  });
});

// --- bank ------------------------------------------------------------------------------------------

describe('sandbox bank account', () => {
  async function openBank(sandbox: TSandboxProviders) {
    const input = aDeposit();
    const started = await provider(sandbox, 'sandboxbank').startDeposit(input);
    if (started.kind !== 'reference') throw new Error('expected a reference');
    return { input, started };
  }

  it('answers a unique reference and valid bank details, the same on a retry', async () => {
    const sandbox = makeSandbox(await startReceiver());
    const { input, started } = await openBank(sandbox);
    const other = await openBank(sandbox);
    expect(started.reference).toMatch(/^BRK-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(other.started.reference).not.toBe(started.reference);
    expect(ibanValid(started.bank.iban)).toBe(true);
    expect(started.bank).toMatchObject({ name: 'Sandbox Bank AG', beneficiary: 'Northstar <Markets>' });
    expect(started.expiresAt.getTime() - CLOCK_BASE).toBeGreaterThan(6.9 * 86_400_000);
    expect(await provider(sandbox, 'sandboxbank').startDeposit(input)).toEqual(started);
  });

  it('books a credit whose remittance names the reference, loosely typed, with the amount received', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver);
    const { input, started } = await openBank(sandbox);
    const typed = `deposit ${started.reference.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o')} thanks`;
    const { transferId } = sandbox.controls.bankTransfer({
      reference: typed,
      amount: 9_950,
      currency: 'USD',
    });
    await expect
      .poll(() => aboutDeposit(accepted(receiver, sandbox), input.depositId), POLL)
      .toEqual([
        expect.objectContaining({
          type: 'deposit.succeeded',
          amount: 9_950,
          currency: 'USD',
          providerRef: transferId,
        }),
      ]);
  });

  it('a paid reference does not expire, an unpaid one does', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver, { bankWindowMs: 250 });
    const paid = await openBank(sandbox);
    sandbox.controls.bankTransfer({ reference: paid.started.reference, amount: 10_000, currency: 'USD' });
    const unpaid = await openBank(sandbox);
    await expect
      .poll(() => aboutDeposit(accepted(receiver, sandbox), unpaid.input.depositId), POLL)
      .toEqual([expect.objectContaining({ type: 'deposit.failed', reason: 'expired' })]);
    expect(aboutDeposit(accepted(receiver, sandbox), paid.input.depositId)).toEqual([
      expect.objectContaining({ type: 'deposit.succeeded' }),
    ]);
  });

  it('announces a credit with an unknown reference as unmatched, over the HTTP control too', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver, { enableControls: true });
    const app = await pagesApp(sandbox);
    const answer = await app.inject({
      method: 'POST',
      url: '/sandbox/bank/transfer',
      payload: { reference: 'BRK-0000-0000', amount: 4_200, currency: 'USD' },
    });
    expect(answer.statusCode).toBe(200);
    await expect
      .poll(() => accepted(receiver, sandbox), POLL)
      .toEqual([
        expect.objectContaining({
          type: 'payment.unmatched',
          reference: 'BRK-0000-0000',
          amount: 4_200,
          providerRef: answer.json<{ transferId: string }>().transferId,
        }),
      ]);
  });
});

// --- payouts and records ---------------------------------------------------------------------------

describe('sandbox payouts', () => {
  it('is idempotent per withdrawal across restarts and pays once', async () => {
    const receiver = await startReceiver();
    const dataDir = newDataDir();
    const payout = aPayout();
    const first = makeSandbox(receiver, { payoutDelayMs: [80, 80] }, dataDir);
    const { providerRef } = await provider(first, 'sandboxbank').startPayout(payout);
    expect(providerRef).toMatch(/^sct_[0-9a-f]{24}$/);
    first.stop();
    const second = makeSandbox(receiver, { payoutDelayMs: [80, 80] }, dataDir);
    expect(await provider(second, 'sandboxbank').startPayout(payout)).toEqual({ providerRef });
    await expect
      .poll(() => aboutPayout(accepted(receiver, second), payout.withdrawalId), POLL)
      .toEqual([expect.objectContaining({ type: 'payout.completed', providerRef, reason: null })]);
    second.stop();
    const third = makeSandbox(receiver, {}, dataDir);
    expect(await provider(third, 'sandboxbank').startPayout(payout)).toEqual({ providerRef });
    await expect(provider(third, 'sandboxbank').startPayout({ ...payout, amount: 1 })).rejects.toThrow(
      /other details/,
    );
    const lines = journalLines(dataDir, 'sandboxbank').filter((l) => l.withdrawalId === payout.withdrawalId);
    expect(lines.map((l) => l.op)).toEqual(['payout.finished']);
    expect(journalLines(dataDir, 'sandboxbank').filter((l) => l.op === 'payout.started')).toHaveLength(1);
  });

  it('fails the documented test destinations with their reasons', async () => {
    const receiver = await startReceiver();
    const sandbox = makeSandbox(receiver);
    const app = await pagesApp(sandbox);
    const paidWith = async (id: string, fields: Record<string, string>) => {
      const { input, path } = await startHosted(sandbox, id);
      await app.inject({ method: 'POST', url: path, ...form({ action: 'pay', ...fields }) });
      return input;
    };
    const expiredCard = await paidWith('sandboxcard', { ...CARD_FIELDS, number: '4000000000000341' });
    const goodCard = await paidWith('sandboxcard', { ...CARD_FIELDS, number: '4242424242424242' });
    const closedWallet = await paidWith('sandboxwallet', { email: 'closed@example.com', password: 'x' });
    const blockedTron = tronAddress(Buffer.from(`${'00'.repeat(18)}dead`, 'hex'));
    const cases: [string, Partial<TPayoutStart>, string | null][] = [
      ['sandboxbank', { destination: `iban:${makeIban('DE', '999900001234560000')}|Ada` }, 'account_closed'],
      ['sandboxbank', { destination: 'iban:DE00999900001234567890|Ada' }, 'invalid_destination'],
      [
        'sandboxchain',
        { currency: 'USDT', destination: '0x000000000000000000000000000000000000dEaD' },
        'address_blocked',
      ],
      ['sandboxchain', { currency: 'USDT', destination: blockedTron }, 'address_blocked'],
      ['sandboxchain', { currency: 'USDT', destination: 'T-not-an-address' }, 'invalid_destination'],
      ['sandboxchain', { currency: 'USDT', destination: `0x${'ab'.repeat(20)}` }, null],
      ['sandboxcard', { destination: `card:${expiredCard.depositId}` }, 'card_expired'],
      ['sandboxwallet', { destination: `ewallet:${closedWallet.depositId}` }, 'account_closed'],
      ['sandboxcard', { destination: `card:${goodCard.depositId}`, amount: 10_001 }, 'exceeds_source'],
      ['sandboxcard', { destination: 'card:no-such-deposit' }, 'unknown_source'],
      ['sandboxcard', { destination: `card:${goodCard.depositId}`, amount: 10_000 }, null],
    ];
    const started = await Promise.all(
      cases.map(async ([id, overrides, reason]) => {
        const payout = aPayout(overrides);
        await provider(sandbox, id).startPayout(payout);
        return { withdrawalId: payout.withdrawalId, reason };
      }),
    );
    await expect
      .poll(() => accepted(receiver, sandbox).filter((e) => e.type.startsWith('payout.')).length, POLL)
      .toBe(cases.length);
    const events = accepted(receiver, sandbox);
    for (const { withdrawalId, reason } of started)
      expect(aboutPayout(events, withdrawalId)).toEqual([
        expect.objectContaining({ type: reason ? 'payout.failed' : 'payout.completed', reason }),
      ]);
  });

  it('records(day) lists the day’s completed deposits in and payouts out, from the journal', async () => {
    const receiver = await startReceiver();
    const dataDir = newDataDir();
    const sandbox = makeSandbox(receiver, {}, dataDir);
    const bank = provider(sandbox, 'sandboxbank');
    const deposit = aDeposit();
    const started = await bank.startDeposit(deposit);
    if (started.kind !== 'reference') throw new Error('expected a reference');
    sandbox.controls.bankTransfer({ reference: started.reference, amount: 10_000, currency: 'USD' });
    const paid = aPayout({ amount: 2_500 });
    const failed = aPayout({ destination: `iban:${makeIban('DE', '999900001234560000')}|Ada` });
    await bank.startPayout(paid);
    await bank.startPayout(failed);
    await expect.poll(() => accepted(receiver, sandbox).length, POLL).toBe(3);
    const expected = [
      {
        reference: deposit.depositId,
        direction: 'in',
        amount: 10_000,
        currency: 'USD',
        at: expect.any(Date),
      },
      {
        reference: paid.withdrawalId,
        direction: 'out',
        amount: 2_500,
        currency: 'USD',
        at: expect.any(Date),
      },
    ];
    const byReference = (records: { reference: string }[]) =>
      [...records].sort(
        (a, b) =>
          expected.findIndex((e) => e.reference === a.reference) -
          expected.findIndex((e) => e.reference === b.reference),
      );
    expect(byReference(await bank.records(DAY))).toEqual(expected);
    expect(await bank.records('2026-03-03')).toEqual([]);
    sandbox.stop();
    const reloaded = provider(makeSandbox(receiver, {}, dataDir), 'sandboxbank');
    expect(byReference(await reloaded.records(DAY))).toEqual(expected);
  });
});

describe('sandbox journal', () => {
  it('cuts off a half-written last line on reload and goes on appending', async () => {
    const receiver = await startReceiver();
    const dataDir = newDataDir();
    const first = makeSandbox(receiver, {}, dataDir);
    const input = aDeposit();
    const started = await provider(first, 'sandboxbank').startDeposit(input);
    first.stop();
    appendFileSync(join(dataDir, 'sandbox-payments', 'sandboxbank.jsonl'), '{"op":"deposit.opened","depo');
    const second = makeSandbox(receiver, {}, dataDir);
    expect(await provider(second, 'sandboxbank').startDeposit(input)).toEqual(started);
    await provider(second, 'sandboxbank').startDeposit(aDeposit());
    second.stop();
    expect(journalLines(dataDir, 'sandboxbank').map((l) => l.op)).toEqual([
      'deposit.opened',
      'deposit.opened',
    ]);
  });
});

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_FUNDING_PATHS } from '@broker/contracts/admin/funding-paths';
import { FUNDING_PATHS } from '@broker/contracts/funding-paths';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { solveChallenge } from '../../apps/server/src/modules/identity/captcha';
import { StaffClient } from '../../apps/server/test/staff';
import { Trader } from '../../apps/server/test/trader';
import { ADMIN_PASSWORD, mailboxCode, newContext, serverAndBrowser } from './support';

/**
 * The portal's funding screens against the real server and its sandbox providers (issue 17): the
 * verification form, the deposit gate, a card deposit through the hosted page, the withdrawal timeline
 * with cancel, the financial record's filters, transfers to a sub-account and back, and an experience
 * account at its cap. The full journey with staff approvals is admin-journey's; traders here are set up
 * through the API where a screen is not what the test is about.
 */
const running = serverAndBrowser({
  // Quick sandbox providers: webhooks, payouts and chain blocks within tens of milliseconds.
  PAYMENT_WEBHOOK_DELAY_MS: '5,30',
  PAYMENT_PAYOUT_DELAY_MS: '20,60',
  PAYMENT_BLOCK_MS: '40',
});
const base = () => running.server.baseUrl;
const en = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../packages/i18n/locales/en.json'), 'utf8'),
) as Record<string, string>;
/** An English text with its values filled in (plain `{name}` arguments only). */
const text = (key: string, values: Record<string, string | number> = {}) =>
  (en[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
const PASSWORD = 'Trader-Pass-2026';
const FUND_PASSWORD = 'Fund-Pass-2026';
const eventually = <T>(read: () => Promise<T>, timeout = 15_000) => expect.poll(read, { timeout });

// ---------------------------------------------------------------------------------------------
// Traders and staff through the API

async function post(path: string, body: unknown) {
  const response = await fetch(base() + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { success: boolean; message: string; data: Record<string, unknown> };
}

type TTrader = Trader & { email: string };
let serial = 0;
/** A new trader, registered with the mailed code (the captcha solved as the page would), signed in. */
async function newTrader(label: string): Promise<TTrader> {
  const email = `${label}.${Date.now().toString(36)}${serial++}@example.com`;
  const challenge = (await post(ROUTE_PATHS.captcha, {})).data as {
    id: string;
    salt: string;
    difficulty: number;
  };
  const captcha = { id: challenge.id, nonce: solveChallenge(challenge.salt, challenge.difficulty) };
  expect((await post(ROUTE_PATHS.sendcode, { email, purpose: 'register', captcha })).success).toBe(true);
  const code = await mailboxCode(base(), email);
  const registered = await post(ROUTE_PATHS.register, {
    email,
    code,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expect(registered.success, registered.message).toBe(true);
  return Object.assign(await Trader.signIn(base(), email, PASSWORD), { email });
}

/** A small real PNG: 1 x 1 pixel. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
/** An MP4 by its first bytes (an `ftyp` box), padded to `bytes`. */
const mp4 = (bytes: number) =>
  Buffer.concat([
    Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'),
    Buffer.alloc(bytes - 24, 7),
  ]);

async function data(trader: Trader, path: string, input: Record<string, unknown> = {}) {
  const answer = await trader.call(path, input);
  expect(answer.body.success, `${path}: ${answer.body.message} ${JSON.stringify(answer.body.fields)}`).toBe(
    true,
  );
  return answer.body.data;
}

let staff: StaffClient<keyof typeof ADMIN_FUNDING_PATHS> | null = null;
async function staffClient() {
  staff ??= await new StaffClient<keyof typeof ADMIN_FUNDING_PATHS>(
    base(),
    (name) => ADMIN_FUNDING_PATHS[name],
  ).signIn('admin', ADMIN_PASSWORD);
  return staff;
}

/** The trader's basic verification submitted through the API and approved by staff. */
async function approvedKyc(trader: TTrader) {
  const upload = async () => {
    const answer = await trader.api.upload('/api/v1/account/golbal/upload?purpose=kyc', PNG);
    expect(answer.body.success, answer.body.message).toBe(true);
    return answer.body.data.id as string;
  };
  await data(trader, FUNDING_PATHS.certification, {
    firstName: 'Portal',
    lastName: 'Tester',
    birthDate: '1990-04-12',
    country: 'GB',
    documentType: 'passport',
    documentNumber: `P${Date.now().toString().slice(-8)}`,
    frontFileId: await upload(),
    selfieFileId: await upload(),
  });
  const staff = await staffClient();
  const queue = await staff.data('adminkycqueue', { status: 'pending', page: 1, size: 100 });
  const submission = queue.items.find(
    (s: { customer: { userId: string } }) => s.customer.userId === trader.userId,
  );
  expect(submission, 'the submission is in the review queue').toBeTruthy();
  await staff.data('adminkycapprove', { id: submission.id });
}

/** A card deposit paid on the sandbox's hosted page by HTTP, as a browser would; waits until credited. */
async function depositByCard(trader: Trader, accountId: number, amount: string) {
  const deposit = await data(trader, FUNDING_PATHS.depositcreate, {
    account_id: accountId,
    method: 'card',
    amount,
    idempotencyKey: randomUUID(),
  });
  const paid = await fetch(deposit.redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'pay', number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' }),
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  await eventually(
    async () => (await data(trader, FUNDING_PATHS.depositdetail, { id: deposit.id })).status,
  ).toBe('completed');
  return deposit.id as string;
}

/** A browser context signed in as the trader (the session cookies of a password sign-in). */
async function signedIn(trader: TTrader, options: { mobile?: boolean } = {}) {
  const context = await newContext(running.browser, options);
  // A phone's app prompt at the bottom of the screen is dismissed, as a trader would.
  await context.addInitScript(() => localStorage.setItem('download-prompt-dismissed', '1'));
  const login = await context.request.post(base() + ROUTE_PATHS.login, {
    data: { email: trader.email, password: PASSWORD },
  });
  expect((await login.json()).success).toBe(true);
  return { context, page: await context.newPage() };
}

async function open(page: Page, path: string) {
  await page.goto(base() + path);
  await page.waitForSelector('html[data-hydrated]');
}

const close = (context: BrowserContext) => context.close();

// ---------------------------------------------------------------------------------------------

describe('funding screens of the personal centre', () => {
  it('checks the verification form like the server, uploads in chunks with progress, resumes, and submits', async () => {
    const trader = await newTrader('kyc');
    const { context, page } = await signedIn(trader);
    await open(page, '/en/personalCenter/setting/verification');
    await expect(page.getByTestId('kyc-basic-state').textContent()).resolves.toContain(
      text('kyc.state.none'),
    );

    // Nothing filled in: every field says what is wrong, and focus goes to the first.
    await page.getByTestId('kyc-submit').click();
    await expect(page.getByText(text('validation.birthDate')).count()).resolves.toBe(1);
    await expect(page.getByText(text('kyc.error.fileRequired')).count()).resolves.toBe(2);
    await expect(page.getByTestId('kyc-first-name').getAttribute('aria-invalid')).resolves.toBe('true');

    // A file is typed by its bytes: a PDF named like a photo is refused before it is sent; so is a
    // 6 MB image.
    await page.getByTestId('kyc-front-input').setInputFiles({
      name: 'passport.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('%PDF-1.7 not really a photo of a passport'),
    });
    await eventually(() => page.getByTestId('kyc-front-error').textContent()).toBe(
      text('kyc.file.imageOnly'),
    );
    await page.getByTestId('kyc-front-input').setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]),
    });
    await eventually(() => page.getByTestId('kyc-front-error').textContent()).toBe(
      text('errors.-9006', { maxMb: 5 }),
    );
    await page
      .getByTestId('kyc-front-input')
      .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('kyc-front-done').waitFor();

    // A 3 MB selfie video goes up in 1 MB chunks: the network is slowed so the bar can be seen, and the
    // second chunk is dropped twice; the upload resumes and finishes on its own.
    let drops = 0;
    await page.route('**/api/v1/account/golbal/upload?*', async (route) => {
      const request = route.request();
      if (request.method() === 'POST' && /[?&]index=1(&|$)/.test(request.url()) && drops < 2) {
        drops++;
        await route.abort('connectionreset');
        return;
      }
      if (request.method() === 'POST') await new Promise((r) => setTimeout(r, 300));
      await route.continue();
    });
    await page.getByTestId('kyc-selfie-input').setInputFiles({
      name: 'selfie.mp4',
      mimeType: 'video/mp4',
      buffer: mp4(3 * 1024 * 1024),
    });
    const bar = page.getByTestId('kyc-selfie-progress');
    await eventually(async () =>
      Number((await bar.getAttribute('aria-valuenow').catch(() => null)) ?? 0),
    ).toBeGreaterThan(0);
    await expect(page.getByTestId('kyc-submit').isDisabled()).resolves.toBe(true);
    await page.getByTestId('kyc-selfie-done').waitFor({ timeout: 20_000 });
    expect(drops).toBe(2);
    await page.unroute('**/api/v1/account/golbal/upload?*');

    // The details, as on the document; the server accepts them and the level is pending review.
    await page.getByTestId('kyc-first-name').fill('Ada');
    await page.getByTestId('kyc-last-name').fill('Lovelace');
    await page.getByTestId('kyc-birth-date').fill('1990-04-12');
    await page.waitForSelector('[data-testid=kyc-country] option[value=GB]', { state: 'attached' });
    await page.getByTestId('kyc-country').selectOption('GB');
    await page.getByTestId('kyc-document-id_card').click();
    await page.getByTestId('kyc-document-number').fill('AB 123 456');
    await page.getByTestId('kyc-submit').click();
    await eventually(() => page.getByTestId('kyc-basic-state').textContent()).toContain(
      text('kyc.state.pending'),
    );
    expect((await data(trader, FUNDING_PATHS.certinfo)).status).toBe('pending');
    await expect(page.getByTestId('kyc-basic-form').count()).resolves.toBe(0);
    await close(context);
  });

  it('shows a trader without approved verification the way to it instead of the deposit and withdrawal forms', async () => {
    const trader = await newTrader('gate');
    await trader.createAccount(2);
    const { context, page } = await signedIn(trader);
    await open(page, '/en/personalCenter/deposit');
    await page.getByTestId('kyc-gate').waitFor();
    await expect(page.getByTestId('kyc-gate').textContent()).resolves.toContain(
      text('funding.gate.depositTitle'),
    );
    await expect(page.getByTestId('deposit-form').count()).resolves.toBe(0);
    await open(page, '/en/personalCenter/withdrawal');
    await expect(page.getByTestId('kyc-gate').textContent()).resolves.toContain(
      text('funding.gate.withdrawalTitle'),
    );
    await Promise.all([
      page.waitForURL('**/en/personalCenter/setting/verification'),
      page.getByTestId('kyc-gate-go').click(),
    ]);
    await page.getByTestId('kyc-basic-form').waitFor();
    await close(context);
  });

  it('deposits by card through the sandbox hosted page and comes back to the completed deposit', async () => {
    const trader = await newTrader('card');
    await approvedKyc(trader);
    const accountId = await trader.createAccount(2);
    const { context, page } = await signedIn(trader);
    await open(page, '/en/personalCenter/deposit');
    await page.getByTestId('deposit-form').waitFor();
    // Demo accounts are not offered; the real one is.
    const options = await page.getByTestId('deposit-account').locator('option').allTextContents();
    expect(options).toHaveLength(1);
    expect(options[0]).toContain(`#${accountId}`);
    await page.getByTestId('method-card').click();
    await page.getByTestId('deposit-amount').fill('100');
    // 2.5 % + 0.30 USD on top, exactly.
    await expect(page.getByTestId('deposit-preview-fee').textContent()).resolves.toBe('2.80 USD');
    await expect(page.getByTestId('deposit-preview-total').textContent()).resolves.toBe('102.80 USD');
    await expect(page.getByTestId('deposit-preview-receive').textContent()).resolves.toBe('100.00 USD');
    await Promise.all([page.waitForURL('**/sandbox/pay/**'), page.getByTestId('deposit-submit').click()]);
    await page.fill('#number', '4242 4242 4242 4242');
    await page.fill('#expiry', '12 / 30');
    await page.fill('#cvc', '123');
    await Promise.all([page.waitForURL('**/en/personalCenter/deposit?deposit=*'), page.click('button.pay')]);
    expect(new URL(page.url()).searchParams.get('result')).toBe('success');
    await page.waitForSelector('html[data-hydrated]');
    // Followed live (polled with back-off) until credited.
    await page.waitForSelector('[data-testid=deposit-tracker][data-status=completed]', { timeout: 20_000 });
    await expect(page.getByTestId('deposit-status-text').textContent()).resolves.toContain(
      text('funding.deposit.done', { amount: '100.00 USD', id: accountId }),
    );
    await eventually(() =>
      page
        .locator('[data-testid=recent-deposit]')
        .first()
        .locator('[data-status]')
        .getAttribute('data-status'),
    ).toBe('completed');
    const info = await data(trader, ROUTE_PATHS.info, { account_id: accountId });
    expect(info.balance).toBe('100.00');
    await close(context);
  });

  it('withdraws back to the card with the funding password, follows the six-state timeline and cancels while awaiting review', async () => {
    const trader = await newTrader('withdraw');
    await approvedKyc(trader);
    const accountId = await trader.createAccount(2);
    await depositByCard(trader, accountId, '200.00');
    const { context, page } = await signedIn(trader);
    await open(page, '/en/personalCenter/withdrawal');

    // No funding password yet: it is set first.
    await page.getByTestId('fund-password-set').waitFor();
    await page.getByTestId('fund-password-new').fill(FUND_PASSWORD);
    await page.getByTestId('fund-password-confirm').fill('Something-Else');
    await page.getByTestId('fund-password-save').click();
    await expect(page.getByText(text('funding.password.mismatch')).count()).resolves.toBe(1);
    await page.getByTestId('fund-password-confirm').fill(FUND_PASSWORD);
    await page.getByTestId('fund-password-save').click();

    // Return to source is offered first: the card the money came from.
    await page.getByTestId('withdrawal-form').waitFor();
    await page.getByTestId('withdrawal-source').first().waitFor();
    await expect(page.locator('[data-testid=method-card] input').isChecked()).resolves.toBe(true);
    await page.getByTestId('withdrawal-amount').fill('500');
    await expect(page.getByTestId('withdrawal-amount-error').textContent()).resolves.toBe(
      text('funding.amount.aboveAvailable', { limit: '200.00 USD' }),
    );
    await page.getByTestId('withdrawal-amount').fill('60');
    await page.getByTestId('withdrawal-password').fill('Wrong-Pass-1');
    await page.getByTestId('withdrawal-submit').click();
    await expect(page.getByTestId('withdrawal-submit-error').textContent()).resolves.toBe(
      text('errors.-4103'),
    );
    await page.getByTestId('withdrawal-password').fill(FUND_PASSWORD);
    await page.getByTestId('withdrawal-submit').click();

    const timeline = page.getByTestId('withdrawal-timeline');
    await timeline.waitFor();
    await expect(timeline.getAttribute('data-status')).resolves.toBe('awaiting_review');
    const states = async () =>
      page.$$eval('[data-testid=timeline-step]', (steps) =>
        steps.map((s) => `${s.getAttribute('data-status')}:${s.getAttribute('data-state')}`),
      );
    await expect(states()).resolves.toEqual([
      'initiated:done',
      'awaiting_review:current',
      'processing:todo',
      'completed:todo',
    ]);
    // The amount is held at once.
    expect((await data(trader, ROUTE_PATHS.info, { account_id: accountId })).balance).toBe('140.00');

    await page.getByTestId('withdrawal-cancel').click();
    await page.getByTestId('withdrawal-cancel-dialog').waitFor();
    await page.getByTestId('withdrawal-cancel-confirm').click();
    await page.waitForSelector('[data-testid=withdrawal-timeline][data-status=failed]');
    await expect(states()).resolves.toEqual(['initiated:done', 'awaiting_review:done', 'failed:stopped']);
    await expect(page.getByTestId('withdrawal-failure').textContent()).resolves.toBe(
      text('funding.withdrawal.cancelledText'),
    );
    await expect(page.getByTestId('withdrawal-cancel').count()).resolves.toBe(0);
    expect((await data(trader, ROUTE_PATHS.info, { account_id: accountId })).balance).toBe('200.00');

    // A second one to a USDT address, approved by staff: the open page follows it to completed.
    await page.getByTestId('withdrawal-another').click();
    await page.getByTestId('method-usdt_trc20').click();
    await page.getByTestId('withdrawal-address').fill('0x1234');
    await page.getByTestId('withdrawal-amount').fill('50');
    await page.getByTestId('withdrawal-password').fill(FUND_PASSWORD);
    await page.getByTestId('withdrawal-submit').click();
    await expect(page.getByText(text('funding.destination.badTron')).count()).resolves.toBe(1);
    await page.getByTestId('withdrawal-address').fill('TVLbkmX8KWqpG3zccrMVFQhm6Q14T5Hz79');
    await expect(page.getByTestId('withdrawal-preview-payout').textContent()).resolves.toBe('49.00 USDT');
    await page.getByTestId('withdrawal-submit').click();
    await page.waitForSelector('[data-testid=withdrawal-timeline][data-status=awaiting_review]');
    const id = new URL(page.url()).searchParams.get('withdrawal');
    await (await staffClient()).data('adminwithdrawapprove', { id });
    await page.waitForSelector('[data-testid=withdrawal-timeline][data-status=completed]', {
      timeout: 20_000,
    });
    await expect(states()).resolves.toEqual([
      'initiated:done',
      'awaiting_review:done',
      'processing:done',
      'completed:done',
    ]);
    await expect(page.getByTestId('withdrawal-payout').textContent()).resolves.toBe('49.00 USDT');
    await close(context);
  });

  it('moves money to a copy sub-account and back, and the financial record filters every movement', async () => {
    const trader = await newTrader('money');
    await approvedKyc(trader);
    const accountId = await trader.createAccount(2);
    await depositByCard(trader, accountId, '150.00');
    // A copy account is opened by following a trader (its button leads to the traders): an empty one
    // is opened through the API here, since the transfers are what this test is about.
    await data(trader, FUNDING_PATHS.subaccountcreate, {
      account_id: accountId,
      purpose: 'copy',
      idempotencyKey: randomUUID(),
    });
    const { context, page } = await signedIn(trader, { mobile: true });
    await open(page, '/en/personalCenter/account');
    await page.locator(`[data-testid=account-card][data-account="${accountId}"]`).click();
    await page.getByTestId('sub-accounts').waitFor();
    const sub = page.getByTestId('sub-account').first();
    await sub.waitFor();

    // In: more than the usable margin is refused before it is sent.
    await sub.getByTestId('sub-transfer-out').click();
    await page.getByTestId('transfer-dialog').waitFor();
    await page.getByTestId('transfer-amount').fill('151');
    await page.getByTestId('transfer-confirm').click();
    await expect(page.getByTestId('transfer-amount-error').textContent()).resolves.toBe(
      text('funding.amount.aboveAvailable', { limit: '150.00 USD' }),
    );
    await page.getByTestId('transfer-amount').fill('40');
    await page.getByTestId('transfer-confirm').click();
    await page.getByTestId('transfer-dialog').waitFor({ state: 'detached' });
    await eventually(() => sub.getByTestId('sub-balance').textContent()).toBe('40.00 USD');

    // Back: at most what the sub-account can return.
    await sub.getByTestId('sub-transfer-in').click();
    await page.getByTestId('transfer-max').click();
    await expect(page.getByTestId('transfer-amount').inputValue()).resolves.toBe('40.00');
    await page.getByTestId('transfer-amount').fill('15');
    await page.getByTestId('transfer-confirm').click();
    await page.getByTestId('transfer-dialog').waitFor({ state: 'detached' });
    await eventually(() => sub.getByTestId('sub-balance').textContent()).toBe('25.00 USD');
    expect((await data(trader, ROUTE_PATHS.info, { account_id: accountId })).balance).toBe('125.00');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);

    // The financial record: the deposit and both transfers, signed, with filters kept in the address.
    await open(page, '/en/personalCenter/financial');
    const kinds = () =>
      page.$$eval('[data-testid=financial-row]', (rows) => rows.map((r) => r.getAttribute('data-kind')));
    await eventually(kinds).toEqual(['transfer_follow_in', 'transfer_follow_out', 'deposit']);
    const amounts = await page.getByTestId('financial-amount').allTextContents();
    expect(amounts).toEqual([
      `${text('funding.financial.in')} +15.00 USD`,
      `${text('funding.financial.out')} -40.00 USD`,
      `${text('funding.financial.in')} +150.00 USD`,
    ]);
    await page.getByTestId('financial-kind-transfer').click();
    await eventually(kinds).toEqual(['transfer_follow_in', 'transfer_follow_out']);
    expect(new URL(page.url()).searchParams.getAll('kind')).toEqual(['transfer']);
    const csv = await page.getByTestId('financial-csv').getAttribute('href');
    expect(new URL(csv ?? '', base()).searchParams.get('kinds')?.split(',')).toEqual([
      'transfer_follow_out',
      'transfer_follow_in',
      'transfer_strategy_out',
      'transfer_strategy_in',
    ]);
    const download = await context.request.get(base() + csv);
    expect(download.status()).toBe(200);
    const lines = (await download.text()).trim().split('\n');
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual([
      'transfer_follow_in',
      'transfer_follow_out',
    ]);
    await page.getByTestId('financial-kind-transfer').click();
    await page.getByTestId('financial-kind-deposit').click();
    await eventually(kinds).toEqual(['deposit']);
    await page.getByTestId('financial-account').selectOption(String(accountId));
    await eventually(kinds).toEqual(['deposit']);
    expect(new URL(page.url()).searchParams.get('account')).toBe(String(accountId));
    await page.getByTestId('financial-account').selectOption('');
    await page.getByTestId('financial-status').selectOption('failed');
    await page.getByTestId('financial-empty').waitFor();
    await page.getByTestId('financial-status').selectOption('');
    await page.getByTestId('financial-from').fill('2030-01-02');
    await page.getByTestId('financial-to').fill('2030-01-01');
    await eventually(() => page.getByText(text('funding.financial.badDays')).count()).toBe(1);
    await expect(page.getByTestId('financial-from').getAttribute('aria-invalid')).resolves.toBe('true');
    await close(context);
  });

  it("funds an experience account up to its cap and shows the server's refusal past it", async () => {
    const trader = await newTrader('experience');
    await approvedKyc(trader);
    const accountId = await trader.createAccount(3);
    const { context, page } = await signedIn(trader);
    await open(page, `/en/personalCenter/deposit?account=${accountId}`);
    await page.getByTestId('experience-room').waitFor();
    await expect(page.getByTestId('experience-room').textContent()).resolves.toBe(
      text('funding.experience.room', { value: '0.00 USC', room: '10,000.00 USC' }),
    );
    // 1 USD is 100 US cents: 150 USD would pass the 10,000-cent cap and is refused on the page.
    await page.getByTestId('method-usdt_trc20').click();
    await page.getByTestId('deposit-amount').fill('150');
    await expect(page.getByTestId('deposit-amount-error').textContent()).resolves.toBe(
      text('funding.amount.aboveRoom', { limit: '100.00 USDT' }),
    );
    // 60 USDT on its way to the address holds part of the room on the server ...
    await page.getByTestId('deposit-amount').fill('60');
    await expect(page.getByTestId('deposit-preview-receive').textContent()).resolves.toBe('6,000.00 USC');
    await page.getByTestId('deposit-submit').click();
    await page.getByTestId('deposit-address').waitFor();
    // ... so a card deposit of 50 USD, which the page still allows, is refused by the server.
    await page.getByTestId('deposit-another').click();
    await page.getByTestId('method-card').click();
    await page.getByTestId('deposit-amount').fill('50');
    await page.getByTestId('deposit-submit').click();
    await expect(page.getByTestId('deposit-submit-error').textContent()).resolves.toBe(text('errors.-4002'));

    // The USDT arrives (sandbox chain), confirms, and the account is credited 6,000 cents.
    await page.locator('[data-testid=recent-deposit-open]').first().click();
    await page.getByTestId('sandbox-chain-send').click();
    await page.waitForSelector('[data-testid=deposit-tracker][data-status=completed]', { timeout: 20_000 });
    await expect(page.getByTestId('deposit-credited').textContent()).resolves.toBe('6,000.00 USC');

    // 40 USD more fills the cap; then the page says so and offers no deposit.
    await depositByCard(trader, accountId, '40.00');
    await open(page, `/en/personalCenter/deposit?account=${accountId}`);
    await eventually(() => page.getByTestId('experience-room').textContent()).toBe(
      text('funding.experience.full', { value: '10,000.00 USC' }),
    );
    await expect(page.getByTestId('deposit-submit').isDisabled()).resolves.toBe(true);
    // And the server refuses one sent anyway.
    const refused = await trader.call(FUNDING_PATHS.depositcreate, {
      account_id: accountId,
      method: 'card',
      amount: '10.00',
      idempotencyKey: randomUUID(),
    });
    expect(refused.body.errorCode).toBe(-4002);
    await close(context);
  });
});

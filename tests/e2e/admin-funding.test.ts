import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { ADMIN_FUNDING_PATHS } from '@broker/contracts/admin/funding-paths';
import { FUNDING_PATHS } from '@broker/contracts/funding-paths';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { solveChallenge } from '../../apps/server/src/modules/identity/captcha';
import { Trader } from '../../apps/server/test/trader';
import {
  createStaff,
  mailboxCode,
  newContext,
  serverAndBrowser,
  signInStaff,
  staffCall,
  staffPage,
} from './support';

/**
 * The back office's deposits-and-withdrawals and KYC review pages against the real server (issue 17,
 * items 8 and 9). Every trader, submission, deposit and withdrawal is made here through the trader's
 * API and the sandbox providers, as a trader and their bank would; staff then work in the browser.
 */
const running = serverAndBrowser({
  // Quick sandbox providers: webhooks, payouts and bank credits within a few tens of milliseconds.
  PAYMENT_WEBHOOK_DELAY_MS: '5,30',
  PAYMENT_PAYOUT_DELAY_MS: '20,60',
});
const base = () => running.server.baseUrl;
const FUND_PASSWORD = 'Fund-Pass-2026';

// ---------------------------------------------------------------------------------------------
// Traders, through the portal's API

async function post(path: string, body: unknown) {
  const response = await fetch(base() + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { success: boolean; message: string; data: Record<string, unknown> };
}

let serial = 0;
/** A new trader, registered with the mailed code (the captcha solved as the page would) and signed in. */
async function newTrader(label: string): Promise<Trader & { email: string }> {
  const email = `${label}.${Date.now().toString(36)}${serial++}@example.com`;
  const password = 'Trader-Pass-2026';
  const challenge = (await post(ROUTE_PATHS.captcha, {})).data as {
    id: string;
    salt: string;
    difficulty: number;
  };
  const captcha = { id: challenge.id, nonce: solveChallenge(challenge.salt, challenge.difficulty) };
  expect((await post(ROUTE_PATHS.sendcode, { email, purpose: 'register', captcha })).success).toBe(true);
  const code = await mailboxCode(base(), email);
  const registered = await post(ROUTE_PATHS.register, { email, code, password, confirmPassword: password });
  expect(registered.success, registered.message).toBe(true);
  return Object.assign(await Trader.signIn(base(), email, password), { email });
}

/** A real PNG (the server types files by their bytes, and the review shows the picture). */
function png(width: number, height: number): Uint8Array {
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const photo = x > width * 0.06 && x < width * 0.32 && y > height * 0.18 && y < height * 0.8;
      raw.set(photo ? [140, 160, 196] : [224 - (y % 32), 232, 240 - (x % 48)], y * row + 1 + x * 3);
    }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([
      signature,
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}
const DOCUMENT = png(480, 300);
const SELFIE = png(240, 320);

const csrf = (trader: Trader) => ({ 'x-csrf-token': trader.api.cookies.get('csrf') ?? '' });

async function upload(trader: Trader, bytes: Uint8Array): Promise<string> {
  const answer = await trader.api.upload('/api/v1/account/golbal/upload?purpose=kyc', bytes);
  expect(answer.body.success, answer.body.message).toBe(true);
  return answer.body.data.id;
}

/** The trader submits the basic KYC level: identity details, the document's two sides and a selfie. */
async function submitKyc(trader: Trader, firstName: string, lastName: string) {
  const sent = await trader.api.post(
    FUNDING_PATHS.certification,
    {
      firstName,
      lastName,
      birthDate: '1990-04-12',
      country: 'GB',
      documentType: 'passport',
      documentNumber: `P${Date.now().toString().slice(-8)}`,
      frontFileId: await upload(trader, DOCUMENT),
      backFileId: await upload(trader, DOCUMENT),
      selfieFileId: await upload(trader, SELFIE),
    },
    csrf(trader),
  );
  expect(sent.body.success, `${sent.body.message} ${JSON.stringify(sent.body.fields)}`).toBe(true);
}

async function traderData(
  trader: Trader,
  name: keyof typeof FUNDING_PATHS,
  input: Record<string, unknown> = {},
) {
  const answer = await trader.call(FUNDING_PATHS[name], input);
  expect(answer.body.success, `${name}: ${answer.body.message}`).toBe(true);
  return answer.body.data;
}

/** A card deposit paid on the sandbox's hosted page, as the trader's browser would; waits until credited. */
async function depositByCard(trader: Trader, accountId: number, amount: string): Promise<string> {
  const deposit = await traderData(trader, 'depositcreate', {
    account_id: accountId,
    method: 'card',
    amount,
    idempotencyKey: randomUUID(),
  });
  const paid = await fetch(deposit.redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      action: 'pay',
      number: '4242 4242 4242 4242',
      expiry: '12/30',
      cvc: '123',
      name: 'E2E',
    }),
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  await expect
    .poll(async () => (await traderData(trader, 'depositdetail', { id: deposit.id })).status, {
      timeout: 15_000,
    })
    .toBe('completed');
  return deposit.id;
}

const balance = async (trader: Trader, accountId: number) =>
  (await trader.call(ROUTE_PATHS.info, { account_id: accountId })).body.data.balance as string;

// ---------------------------------------------------------------------------------------------
// Staff

/** The id of a trader's waiting KYC submission, as the queue lists it. */
async function submissionOf(admin: Page, trader: Trader): Promise<string> {
  const queue = await staffCall(admin, ADMIN_FUNDING_PATHS.adminkycqueue, { status: 'pending', size: 100 });
  const item = (queue.body.data.items as { id: string; customer: { userId: string } }[]).find(
    (s) => s.customer.userId === trader.userId,
  );
  expect(item, 'submission in the queue').toBeDefined();
  return item?.id ?? '';
}

/** A trader whose KYC staff approved (through the staff API: the KYC screen has its own test). */
async function verifiedTrader(admin: Page, label: string) {
  const trader = await newTrader(label);
  await submitKyc(trader, 'Test', label);
  const approved = await staffCall(admin, ADMIN_FUNDING_PATHS.adminkycapprove, {
    id: await submissionOf(admin, trader),
  });
  expect(approved.body.success, approved.body.message).toBe(true);
  const accountId = await trader.createAccount(2, 1, 100);
  return { trader, accountId };
}

async function withdraw(
  trader: Trader,
  accountId: number,
  depositId: string,
  amount: string,
): Promise<string> {
  const requested = await traderData(trader, 'withdrawcreate', {
    account_id: accountId,
    method: 'card',
    amount,
    destination: { kind: 'source', depositId },
    fundPassword: FUND_PASSWORD,
    idempotencyKey: randomUUID(),
  });
  expect(requested.status).toBe('awaiting_review');
  return requested.id;
}

/** Waits until the bank has booked a transfer that matches no deposit (the sandbox's clearing delay). */
async function paymentArrived(admin: Page, reference: string) {
  await expect
    .poll(
      async () => {
        const list = await staffCall(admin, ADMIN_FUNDING_PATHS.adminunmatched, { status: 'unmatched' });
        expect(list.body.success, list.body.message).toBe(true);
        return (list.body.data.items as { reference: string }[]).some((p) => p.reference.includes(reference));
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

/** Screenshots for review when FUNDING_SHOTS names a folder (not part of the assertions). */
async function shot(page: Page, name: string) {
  const folder = process.env.FUNDING_SHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: `${folder}/${name}.png` });
}

/** Confirms the open dialog and waits until it has closed. */
async function confirm(page: Page) {
  await page.getByTestId('confirm-ok').click();
  await page.getByTestId('confirm-dialog').waitFor({ state: 'detached', timeout: 10_000 });
}

// ---------------------------------------------------------------------------------------------

describe('KYC review in the back office', () => {
  it('shows the files in place, holds the reason to 20 characters, rejects one customer and approves another', {
    timeout: 120_000,
  }, async () => {
    const ada = await newTrader('ada');
    const bob = await newTrader('bob');
    await submitKyc(ada, 'Ada', 'Lovelace');
    await submitKyc(bob, 'Bob', 'Marley');
    const { context, page } = await staffPage(running.browser, base());

    await page.goto(`${base()}/admin/kyc`);
    const rows = page.getByTestId('kyc-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    // Waiting submissions, oldest first: Ada submitted before Bob.
    const emails = await rows.allTextContents();
    const adaAt = emails.findIndex((text) => text.includes(ada.email));
    const bobAt = emails.findIndex((text) => text.includes(bob.email));
    expect(adaAt).toBeGreaterThanOrEqual(0);
    expect(bobAt).toBeGreaterThan(adaAt);
    expect(Number(await page.getByTestId('kyc-states-count-pending').textContent())).toBeGreaterThanOrEqual(
      2,
    );

    // Bob's files are viewed in place: the picture loads with the staff session, turns and zooms.
    await rows.nth(bobAt).getByTestId('kyc-open').click();
    await page.getByTestId('kyc-detail').waitFor();
    const image = page.getByTestId('kyc-image');
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 10_000 })
      .toBe(480);
    expect(await page.getByTestId('kyc-file-tab').count()).toBe(3);
    await page.getByTestId('kyc-rotate').click();
    expect(await image.getAttribute('data-rotation')).toBe('90');
    const zoomBefore = await page.getByTestId('kyc-zoom').textContent();
    await page.getByTestId('kyc-zoom-in').click();
    expect(await page.getByTestId('kyc-zoom').textContent()).not.toBe(zoomBefore);
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/kyc\/[\w-]+$/);
    await shot(page, 'kyc-detail');

    // A reason over 20 characters is refused in the dialog and nothing is sent.
    await page.getByTestId('kyc-reject').click();
    const reason = page.getByTestId('kyc-reject-reason');
    await reason.fill('The passport photo is too dark');
    expect(await page.getByTestId('kyc-reject-counter').textContent()).toBe('30/20');
    await page.getByTestId('confirm-ok').click();
    expect(await page.getByTestId('kyc-reject-problem').textContent()).toBe('At most 20 characters.');
    expect(await reason.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'kyc-reject-too-long');
    expect((await traderData(bob, 'certinfo')).status).toBe('pending');
    // Twenty characters are enough.
    await reason.fill('Passport photo dark');
    await confirm(page);
    await expect
      .poll(() => page.getByTestId('kyc-detail-status').getAttribute('data-status'))
      .toBe('rejected');
    expect(await page.getByTestId('kyc-detail-reason').textContent()).toContain('Passport photo dark');
    expect(await traderData(bob, 'certinfo')).toMatchObject({
      status: 'rejected',
      rejectReason: 'Passport photo dark',
    });

    // Ada is approved.
    await page.goto(`${base()}/admin/kyc`);
    await page.locator('[data-testid=kyc-row]', { hasText: ada.email }).getByTestId('kyc-open').click();
    await page.getByTestId('kyc-approve').click();
    await confirm(page);
    await expect
      .poll(() => page.getByTestId('kyc-detail-status').getAttribute('data-status'))
      .toBe('approved');
    expect(await page.getByTestId('kyc-approve').count()).toBe(0);
    expect((await traderData(ada, 'certinfo')).status).toBe('approved');
    await context.close();
  });
});

describe('withdrawals in the back office', () => {
  it('above the four-eyes threshold the first approver cannot give the second, a colleague does; a rejection releases the held amount', {
    timeout: 150_000,
  }, async () => {
    const { context, page } = await staffPage(running.browser, base());
    // The threshold is lowered on the settings page, after the review of the change.
    await page.goto(`${base()}/admin/funding/settings`);
    await page.getByTestId('settings-foureyes').fill('1000');
    await page.getByTestId('settings-review').click();
    expect(await page.getByTestId('settings-changes').textContent()).toContain('1,000.00 USD');
    await confirm(page);
    await page.getByTestId('funding-notice').waitFor();

    const { trader, accountId } = await verifiedTrader(page, 'carol');
    const depositId = await depositByCard(trader, accountId, '3000.00');
    await traderData(trader, 'fundpassword', { newPassword: FUND_PASSWORD });
    const large = await withdraw(trader, accountId, depositId, '1500.00');
    const small = await withdraw(trader, accountId, depositId, '200.00');
    // Both amounts are held from the request on.
    expect(await balance(trader, accountId)).toBe('1300.00');

    // The queue lists them, newest first, with the count of those waiting.
    await page.goto(`${base()}/admin/funding`);
    const rows = page.getByTestId('withdrawal-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(await rows.first().getAttribute('data-key')).toBe(small);
    expect(
      Number(await page.getByTestId('withdrawal-states-count-awaiting_review').textContent()),
    ).toBeGreaterThanOrEqual(2);

    // First approval: the dialog says a second person must approve.
    await page
      .locator(`[data-testid=withdrawal-row][data-key="${large}"]`)
      .getByTestId('withdrawal-open')
      .click();
    const drawer = page.getByTestId('withdrawal-drawer');
    await drawer.getByTestId('drawer-flags').waitFor();
    expect(await drawer.getByTestId('drawer-amount').textContent()).toBe('1,500.00 USD');
    expect(await drawer.getByTestId('drawer-foureyes').getAttribute('data-step')).toBe('first');
    await drawer.getByTestId('withdrawal-approve').click();
    await page.getByTestId('approve-first').waitFor();
    expect(await page.getByTestId('approve-summary').textContent()).toContain('1,500.00 USD');
    await shot(page, 'withdrawal-first-approval');
    await confirm(page);
    await page.getByTestId('funding-notice').waitFor();
    // The same person cannot give the second approval.
    await drawer.getByTestId('drawer-mine').waitFor({ timeout: 10_000 });
    expect(await drawer.getByTestId('withdrawal-approve').isDisabled()).toBe(true);
    expect(await drawer.getByTestId('drawer-status').getAttribute('data-status')).toBe('awaiting_review');
    await shot(page, 'withdrawal-mine');

    // A colleague holding funding.review gives the second approval: the payout goes out.
    const second = await createStaff(running, page, 'cashier', ['funding.view', 'funding.review']);
    await second.page.goto(`${base()}/admin/funding?open=${large}`);
    const theirs = second.page.getByTestId('withdrawal-drawer');
    await theirs.getByTestId('drawer-flags').waitFor();
    expect(await theirs.getByTestId('drawer-foureyes').getAttribute('data-step')).toBe('second');
    await theirs.getByTestId('withdrawal-approve').click();
    await second.page.getByTestId('approve-second').waitFor();
    await confirm(second.page);
    await expect
      .poll(() => theirs.getByTestId('drawer-status').getAttribute('data-status'), { timeout: 10_000 })
      .toMatch(/^(processing|completed)$/);
    await expect
      .poll(async () => (await traderData(trader, 'withdrawdetail', { id: large })).status, {
        timeout: 15_000,
      })
      .toBe('completed');
    await second.context.close();

    // A rejection with a reason gives the held 200.00 back.
    await page.goto(`${base()}/admin/funding?open=${small}`);
    await drawer.getByTestId('drawer-flags').waitFor();
    await drawer.getByTestId('withdrawal-reject').click();
    await page.getByTestId('reject-reason').fill('Card holder differs');
    await confirm(page);
    await expect
      .poll(() => drawer.getByTestId('drawer-status').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('rejected');
    expect(await drawer.getByTestId('drawer-reject-reason').textContent()).toContain('Card holder differs');
    expect(await traderData(trader, 'withdrawdetail', { id: small })).toMatchObject({
      status: 'rejected',
      rejectReason: 'Card holder differs',
    });
    expect(await balance(trader, accountId)).toBe('1500.00');
    await context.close();
  });
});

describe('reconciliation in the back office', () => {
  it('a bank transfer with an unknown reference is matched to its deposit, which is then credited', {
    timeout: 120_000,
  }, async () => {
    const { context, page } = await staffPage(running.browser, base());
    const { trader, accountId } = await verifiedTrader(page, 'dave');
    const deposit = await traderData(trader, 'depositcreate', {
      account_id: accountId,
      method: 'bank',
      amount: '250.00',
      idempotencyKey: randomUUID(),
    });
    // The customer's bank sends the money without the reference the deposit asked for.
    const reference = `Invoice ${randomUUID().slice(0, 8)}`;
    const sent = await fetch(`${base()}/sandbox/bank/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference, amount: 25_000, currency: 'USD', senderName: 'Dave Test' }),
    });
    expect(sent.status).toBe(200);

    await paymentArrived(page, reference);
    await page.goto(`${base()}/admin/funding/reconciliation`);
    const row = page.locator('[data-testid=payment-row]', { hasText: reference });
    await row.waitFor({ timeout: 10_000 });
    await row.getByTestId('payment-match').click();
    const dialog = page.getByTestId('match-dialog');
    const candidate = dialog.locator(`[data-testid=match-candidate][data-id="${deposit.id}"]`);
    await candidate.waitFor({ timeout: 10_000 }).catch(async (error) => {
      const offered = await dialog.getByTestId('match-candidates').textContent();
      throw new Error(`deposit ${deposit.id} not offered; the dialog offers: ${offered}`, { cause: error });
    });
    await candidate.click();
    await shot(page, 'reconciliation-match');
    await dialog.getByTestId('match-confirm').click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('funding-notice').waitFor();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    expect(await traderData(trader, 'depositdetail', { id: deposit.id })).toMatchObject({
      status: 'completed',
      credited: '250.00',
    });
    expect(await balance(trader, accountId)).toBe('250.00');

    // The matched payment is listed under "Matched", and the daily report has the bank's totals.
    await page.getByTestId('payment-states').locator('[data-value=matched]').click();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await page
      .locator('[data-testid=report-provider][data-provider=sandboxbank]')
      .waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('report-verdict').getAttribute('data-mismatches')).toMatch(/^\d+$/);
    await context.close();
  });
});

describe('permissions in the back office', () => {
  it('staff holding only the view permissions read the queues and settings without a single decision button', {
    timeout: 150_000,
  }, async () => {
    const { context, page } = await staffPage(running.browser, base());
    // Something waits in each queue: a KYC submission, a withdrawal, a payment without a deposit.
    const erin = await newTrader('erin');
    await submitKyc(erin, 'Erin', 'Viewed');
    const { trader, accountId } = await verifiedTrader(page, 'frank');
    const depositId = await depositByCard(trader, accountId, '300.00');
    await traderData(trader, 'fundpassword', { newPassword: FUND_PASSWORD });
    const waiting = await withdraw(trader, accountId, depositId, '100.00');
    const reference = `Unknown ${randomUUID().slice(0, 8)}`;
    await fetch(`${base()}/sandbox/bank/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference, amount: 1_000, currency: 'USD' }),
    });
    const viewer = await createStaff(running, page, 'viewer', ['funding.view', 'kyc.view']);
    const v = viewer.page;

    // KYC: the submission and its files, no Approve or Reject.
    await v.goto(`${base()}/admin/kyc/${await submissionOf(page, erin)}`);
    await v.getByTestId('kyc-image').waitFor({ timeout: 10_000 });
    expect(await v.getByTestId('kyc-detail-status').getAttribute('data-status')).toBe('pending');
    expect(await v.getByTestId('kyc-approve').count()).toBe(0);
    expect(await v.getByTestId('kyc-reject').count()).toBe(0);

    // The withdrawal's review, without its decision buttons.
    await v.goto(`${base()}/admin/funding?open=${waiting}`);
    const drawer = v.getByTestId('withdrawal-drawer');
    await drawer.getByTestId('drawer-flags').waitFor();
    expect(await drawer.getByTestId('drawer-status').getAttribute('data-status')).toBe('awaiting_review');
    expect(await drawer.getByTestId('withdrawal-approve').count()).toBe(0);
    expect(await drawer.getByTestId('withdrawal-reject').count()).toBe(0);

    // Reconciliation: the unmatched payment without Match or Return.
    await paymentArrived(page, reference);
    await v.goto(`${base()}/admin/funding/reconciliation`);
    await v.locator('[data-testid=payment-row]', { hasText: reference }).waitFor({ timeout: 10_000 });
    expect(await v.getByTestId('payment-match').count()).toBe(0);
    expect(await v.getByTestId('payment-return').count()).toBe(0);

    // Settings read only: every field disabled, no review button.
    await v.goto(`${base()}/admin/funding/settings`);
    await v.getByTestId('settings-method').first().waitFor();
    expect(await v.getByTestId('settings-foureyes').isDisabled()).toBe(true);
    expect(await v.getByTestId('settings-review').count()).toBe(0);

    // The server refuses the decision anyway.
    const refused = await staffCall(v, ADMIN_FUNDING_PATHS.adminwithdrawapprove, { id: waiting });
    expect(refused.status).toBe(403);
    expect((await traderData(trader, 'withdrawdetail', { id: waiting })).status).toBe('awaiting_review');
    await viewer.context.close();
    await context.close();
  });
});

describe('the funding and KYC pages on a phone', () => {
  it('fit 375 px in English and Chinese: tables become cards or scroll in their box, never the page', {
    timeout: 90_000,
  }, async () => {
    const context = await newContext(running.browser, { mobile: true });
    const page = await context.newPage();
    await signInStaff(page, base());
    const pages = [
      '/admin/funding',
      '/admin/funding?status=all',
      '/admin/funding/deposits',
      '/admin/funding/reconciliation',
      '/admin/funding/settings',
      '/admin/kyc?status=all',
    ];
    for (const lang of ['en', 'zh-CN']) {
      await page.evaluate((code) => localStorage.setItem('admin_lang', code), lang);
      for (const path of pages) {
        await page.goto(base() + path);
        await page.waitForFunction(() => !document.querySelector('.kit-skeleton, [aria-busy="true"]'), null, {
          timeout: 15_000,
        });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${lang} ${path}`).toBeLessThanOrEqual(0);
      }
    }
    // The review drawer takes the whole width and its decision buttons stay in view.
    await page.goto(`${base()}/admin/funding?status=all`);
    await page.getByTestId('withdrawal-open').first().click();
    const drawer = page.getByTestId('withdrawal-drawer');
    await drawer.getByTestId('drawer-flags').waitFor();
    expect((await drawer.boundingBox())?.width).toBeCloseTo(375, 0);
    await shot(page, 'phone-withdrawal-drawer');
    await context.close();
  });
});

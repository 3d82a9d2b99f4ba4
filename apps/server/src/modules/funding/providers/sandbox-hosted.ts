import { randomBytes } from 'node:crypto';
import {
  renderCheckout,
  renderNotFound,
  renderResult,
  type THostedBrand,
  type TPageSession,
  type TTestInstrument,
} from './hosted-page';
import { assertMinorUnits, SandboxProvider, type TSandboxPayout } from './sandbox-provider';
import { randomHex, type TSandboxSettings } from './sandbox-runtime';
import type { TDepositStart, TDepositStarted, TPayoutStart } from './types';
import type { TSandboxWireEvent } from './webhook-signing';

export const CARD_BRAND: THostedBrand = {
  id: 'sandboxcard',
  method: 'card',
  name: 'SandboxPay',
  logo: 'P',
  accent: '#5b4fe9',
  sessionPrefix: 'cs_test_',
  refundPrefix: 're_test_',
};

export const WALLET_BRAND: THostedBrand = {
  id: 'sandboxwallet',
  method: 'ewallet',
  name: 'SandboxWallet',
  logo: 'W',
  accent: '#0a7c66',
  sessionPrefix: 'ws_test_',
  refundPrefix: 'wr_test_',
};

/** What paying with a test instrument does. */
type TAttempt =
  | { status: 'succeeded'; refundFailure: string | null }
  | { status: 'failed'; reason: string }
  | { status: 'processing' };

const SUCCEEDS: TAttempt = { status: 'succeeded', refundFailure: null };

/** The sandbox card acquirer's test cards (any future expiry, any CVC). Other numbers are refused. */
export const SANDBOX_TEST_CARDS: readonly (TTestInstrument & { attempt: TAttempt })[] = [
  { value: '4242 4242 4242 4242', effect: 'Succeeds', attempt: SUCCEEDS },
  { value: '5555 5555 5555 4444', effect: 'Succeeds (Mastercard)', attempt: SUCCEEDS },
  {
    value: '4000 0000 0000 0002',
    effect: 'Declined (declined)',
    attempt: { status: 'failed', reason: 'declined' },
  },
  {
    value: '4000 0000 0000 9995',
    effect: 'Declined: insufficient funds (insufficient_funds)',
    attempt: { status: 'failed', reason: 'insufficient_funds' },
  },
  {
    value: '4000 0000 0000 0119',
    effect: 'Never answers; fails with timeout when the page expires',
    attempt: { status: 'processing' },
  },
  {
    value: '4000 0000 0000 0341',
    effect: 'Succeeds; refunds to it fail (card_expired)',
    attempt: { status: 'succeeded', refundFailure: 'card_expired' },
  },
];

/** The sandbox e-wallet's test logins, by the part before the @ (any password). */
export const SANDBOX_TEST_WALLETS: readonly (TTestInstrument & { attempt: TAttempt })[] = [
  { value: 'declined@…', effect: 'Declined (declined)', attempt: { status: 'failed', reason: 'declined' } },
  {
    value: 'nofunds@…',
    effect: 'Declined: insufficient funds (insufficient_funds)',
    attempt: { status: 'failed', reason: 'insufficient_funds' },
  },
  {
    value: 'pending@…',
    effect: 'Never answers; fails with timeout when the page expires',
    attempt: { status: 'processing' },
  },
  {
    value: 'closed@…',
    effect: 'Succeeds; refunds to it fail (account_closed)',
    attempt: { status: 'succeeded', refundFailure: 'account_closed' },
  },
  { value: 'any other', effect: 'Succeeds', attempt: SUCCEEDS },
];

/** What the hosted page answers the HTTP layer. */
export type TSandboxPageAnswer =
  | { kind: 'html'; status: number; html: string; csp: string }
  | { kind: 'redirect'; location: string };

export interface THostedSession extends TPageSession {
  tenantId: string;
  userId: string;
  returnUrl: string;
  createdAt: number;
  /** Why refunds to this payment fail (a test instrument's), or null. */
  refundFailure: string | null;
  finishedAt: number | null;
}

type THostedEntry =
  | { op: 'session.created'; session: THostedSession }
  | {
      op: 'session.changed';
      sessionId: string;
      status: THostedSession['status'];
      reason: string | null;
      instrument: string | null;
      refundFailure: string | null;
      at: number;
      events: TSandboxWireEvent[];
    };

const RESULT_PARAM: Record<THostedSession['status'], string> = {
  succeeded: 'success',
  failed: 'failed',
  cancelled: 'cancelled',
  processing: 'processing',
  open: 'processing',
};

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

const cardBrandOf = (digits: string) =>
  digits.startsWith('4') ? 'Visa' : /^(5[1-5]|2[2-7])/.test(digits) ? 'Mastercard' : 'Card';

const maskEmail = (email: string) => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
};

/**
 * `returnUrl` with `deposit=<id>&result=<result>` at the end of its query: a `deposit` or `result`
 * already there is replaced, every other parameter is kept as written, and so is the fragment.
 */
export function returnUrlWith(returnUrl: string, depositId: string, result: string): string {
  const url = new URL(returnUrl);
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => {
      if (pair === '') return false;
      const key = decodeURIComponent(pair.split('=')[0]?.replace(/\+/g, ' ') ?? '');
      return key !== 'deposit' && key !== 'result';
    });
  kept.push(`deposit=${encodeURIComponent(depositId)}`, `result=${encodeURIComponent(result)}`);
  url.search = `?${kept.join('&')}`;
  return url.toString();
}

/**
 * A hosted checkout like Stripe Checkout or an Adyen payment page: `startDeposit` opens a session and
 * answers its URL; the trader pays on `/sandbox/pay/:session` (card fields for `sandboxcard`, an
 * e-wallet sign-in for `sandboxwallet`), is sent back to the broker, and the result follows by
 * webhook. A session still open at its expiry fails with `expired`; one left processing (test card
 * 0119), with `timeout`. Payouts are refunds to the deposit they name.
 */
export class HostedProvider extends SandboxProvider<THostedEntry> {
  readonly kind = 'hosted' as const;
  readonly methods: readonly string[];
  readonly currency = 'USD';
  private readonly sessions = new Map<string, THostedSession>();
  private readonly byDeposit = new Map<string, string>();

  constructor(
    readonly brand: THostedBrand,
    settings: TSandboxSettings,
  ) {
    super(brand.id, settings);
    this.methods = [brand.method];
    this.load();
  }

  async startDeposit(input: TDepositStart): Promise<TDepositStarted> {
    assertMinorUnits(input.amount);
    const knownId = this.byDeposit.get(input.depositId);
    const known = knownId ? this.sessions.get(knownId) : undefined;
    if (known) {
      if (known.amount !== input.amount || known.currency !== input.currency)
        throw new Error(`${this.id}: deposit ${input.depositId} was already started with other details`);
      return this.started(known);
    }
    if (!/^[A-Z]{3}$/.test(input.currency)) throw new Error(`${this.id}: currency ${input.currency}?`);
    const returnUrl = new URL(input.returnUrl);
    if (returnUrl.protocol !== 'https:' && returnUrl.protocol !== 'http:')
      throw new Error(`${this.id}: returnUrl must be an absolute http(s) URL`);
    const now = this.settings.now();
    const session: THostedSession = {
      sessionId: `${this.brand.sessionPrefix}${randomBytes(18).toString('base64url')}`,
      depositId: input.depositId,
      tenantId: input.tenantId,
      userId: input.userId,
      amount: input.amount,
      currency: input.currency,
      returnUrl: returnUrl.toString(),
      merchantName: input.merchantName ?? 'Your broker',
      createdAt: now,
      expiresAt: now + this.settings.sessionTtlMs,
      status: 'open',
      reason: null,
      instrument: null,
      refundFailure: null,
      finishedAt: null,
    };
    this.commit({ op: 'session.created', session });
    this.armExpiry(session.sessionId);
    return this.started(session);
  }

  hasSession(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** `GET /sandbox/pay/:session`. */
  show(sessionId: string): TSandboxPageAnswer {
    const session = this.sessions.get(sessionId);
    if (!session) return this.notFound();
    this.expireIfDue(session);
    if (session.status !== 'open') return this.result(session);
    return this.checkout(session, {}, {}, 200);
  }

  /** `POST /sandbox/pay/:session`: pays or cancels once; a finished session only shows its result. */
  submit(sessionId: string, form: Record<string, string>): TSandboxPageAnswer {
    const session = this.sessions.get(sessionId);
    if (!session) return this.notFound();
    this.expireIfDue(session);
    if (session.status !== 'open') return this.result(session);
    if (form.action === 'cancel') {
      this.finish(session, { status: 'cancelled', reason: 'cancelled' }, null);
      return this.backToMerchant(session);
    }
    const checked = this.brand.method === 'card' ? this.checkCard(form) : this.checkWallet(form);
    if ('errors' in checked) return this.checkout(session, form, checked.errors, 422);
    const { attempt, instrument } = checked;
    if (attempt.status === 'succeeded')
      this.finish(session, { status: 'succeeded', refundFailure: attempt.refundFailure }, instrument);
    else if (attempt.status === 'failed')
      this.finish(session, { status: 'failed', reason: attempt.reason }, instrument);
    else this.finish(session, { status: 'processing' }, instrument);
    return this.backToMerchant(session);
  }

  protected apply(entry: THostedEntry): void {
    if (entry.op === 'session.created') {
      this.sessions.set(entry.session.sessionId, { ...entry.session });
      this.byDeposit.set(entry.session.depositId, entry.session.sessionId);
    } else {
      const session = this.sessions.get(entry.sessionId);
      if (!session) return;
      session.status = entry.status;
      session.reason = entry.reason;
      session.instrument = entry.instrument;
      session.refundFailure = entry.refundFailure;
      if (entry.status !== 'processing') session.finishedAt = entry.at;
    }
  }

  protected resume(): void {
    for (const session of this.sessions.values())
      if (session.status === 'open' || session.status === 'processing') this.armExpiry(session.sessionId);
  }

  protected payoutRef(_payout: TPayoutStart): string {
    return `${this.brand.refundPrefix}${randomHex(12)}`;
  }

  protected payoutFailure(payout: TSandboxPayout): string | null {
    const source = this.sourceOf(payout);
    if (source?.status !== 'succeeded') return 'unknown_source';
    if (source.refundFailure) return source.refundFailure;
    if (payout.currency !== source.currency) return 'currency_mismatch';
    let refunded = 0;
    for (const other of this.payouts.values())
      if (other.status === 'completed' && this.sourceOf(other) === source) refunded += other.amount;
    return refunded + payout.amount > source.amount ? 'exceeds_source' : null;
  }

  /** The deposit a refund goes back to: its `sourceRef` (our session id), else `card:<depositId>`. */
  private sourceOf(payout: TSandboxPayout): THostedSession | undefined {
    if (payout.sourceRef) return this.sessions.get(payout.sourceRef);
    const depositId = /^(?:card|ewallet):(.+)$/.exec(payout.destination)?.[1];
    const sessionId = depositId ? this.byDeposit.get(depositId) : undefined;
    return sessionId ? this.sessions.get(sessionId) : undefined;
  }

  private started(session: THostedSession): TDepositStarted {
    return {
      kind: 'redirect',
      sessionId: session.sessionId,
      redirectUrl: `${this.settings.publicUrl().replace(/\/+$/, '')}/sandbox/pay/${session.sessionId}`,
      expiresAt: new Date(session.expiresAt),
    };
  }

  /** Timers name the session by id: the state is what `apply` keeps, never a caller's copy. */
  private armExpiry(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.timers.after(session.expiresAt - this.settings.now(), () => {
      const current = this.sessions.get(sessionId);
      if (
        current &&
        !this.expireIfDue(current) &&
        (current.status === 'open' || current.status === 'processing')
      )
        this.armExpiry(sessionId);
    });
  }

  /** Fails a session past its expiry: `expired` if never paid, `timeout` if left processing. */
  private expireIfDue(session: THostedSession): boolean {
    if (session.status !== 'open' && session.status !== 'processing') return false;
    if (this.settings.now() < session.expiresAt) return false;
    this.finish(
      session,
      { status: 'failed', reason: session.status === 'open' ? 'expired' : 'timeout' },
      session.instrument,
    );
    return true;
  }

  private finish(
    session: THostedSession,
    outcome:
      | { status: 'succeeded'; refundFailure: string | null }
      | { status: 'failed' | 'cancelled'; reason: string }
      | { status: 'processing' },
    instrument: string | null,
  ): void {
    const common = { depositId: session.depositId, providerRef: session.sessionId };
    const events =
      outcome.status === 'succeeded'
        ? [
            this.event({
              type: 'deposit.succeeded',
              sequence: 1,
              data: { ...common, amount: session.amount, currency: session.currency },
            }),
          ]
        : outcome.status === 'processing'
          ? []
          : [
              this.event({
                type: 'deposit.failed',
                sequence: 1,
                data: { ...common, reason: outcome.reason },
              }),
            ];
    this.commit({
      op: 'session.changed',
      sessionId: session.sessionId,
      status: outcome.status,
      reason: 'reason' in outcome ? outcome.reason : null,
      instrument,
      refundFailure: outcome.status === 'succeeded' ? outcome.refundFailure : null,
      at: this.settings.now(),
      events,
    });
  }

  private checkCard(
    form: Record<string, string>,
  ): { attempt: TAttempt; instrument: string } | { errors: Record<string, string> } {
    const errors: Record<string, string> = {};
    const digits = (form.number ?? '').replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) errors.number = 'Your card number is invalid.';
    const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.expiry ?? '');
    const month = Number(expiry?.[1]);
    const year = expiry ? Number(expiry[2]?.length === 2 ? `20${expiry[2]}` : expiry[2]) : 0;
    if (!expiry || month < 1 || month > 12) errors.expiry = 'Your card’s expiry date is incomplete.';
    else if (Date.UTC(year, month, 1) <= this.settings.now())
      errors.expiry = 'Your card’s expiry date is in the past.';
    if (!/^\d{3,4}$/.test((form.cvc ?? '').trim())) errors.cvc = 'Your card’s security code is incomplete.';
    const card = SANDBOX_TEST_CARDS.find((c) => c.value.replace(/\s/g, '') === digits);
    if (!errors.number && !card) errors.number = 'This is a sandbox: use one of the test cards listed below.';
    if (!card || Object.keys(errors).length > 0) return { errors };
    return { attempt: card.attempt, instrument: `${cardBrandOf(digits)} •••• ${digits.slice(-4)}` };
  }

  private checkWallet(
    form: Record<string, string>,
  ): { attempt: TAttempt; instrument: string } | { errors: Record<string, string> } {
    const email = (form.email ?? '').trim().toLowerCase();
    const errors: Record<string, string> = {};
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
      errors.email = 'Enter the email address of your wallet.';
    if (!form.password) errors.password = 'Enter your password.';
    if (Object.keys(errors).length > 0) return { errors };
    const local = email.split('@')[0];
    const login = SANDBOX_TEST_WALLETS.find((w) => w.value === `${local}@…`);
    return { attempt: login?.attempt ?? SUCCEEDS, instrument: `${this.brand.name} ${maskEmail(email)}` };
  }

  private csp(session: THostedSession | null): string {
    const back = session ? ` ${new URL(session.returnUrl).origin}` : '';
    return `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${back}; frame-ancestors 'none'; base-uri 'none'`;
  }

  private checkout(
    session: THostedSession,
    values: Record<string, string>,
    errors: Record<string, string>,
    status: number,
  ): TSandboxPageAnswer {
    const testInstruments = this.brand.method === 'card' ? SANDBOX_TEST_CARDS : SANDBOX_TEST_WALLETS;
    return {
      kind: 'html',
      status,
      html: renderCheckout({ brand: this.brand, session, values, errors, testInstruments }),
      csp: this.csp(session),
    };
  }

  private result(session: THostedSession): TSandboxPageAnswer {
    const backUrl = returnUrlWith(session.returnUrl, session.depositId, RESULT_PARAM[session.status]);
    return {
      kind: 'html',
      status: 200,
      html: renderResult({ brand: this.brand, session, backUrl }),
      csp: this.csp(session),
    };
  }

  private backToMerchant(session: THostedSession): TSandboxPageAnswer {
    return {
      kind: 'redirect',
      location: returnUrlWith(session.returnUrl, session.depositId, RESULT_PARAM[session.status]),
    };
  }

  private notFound(): TSandboxPageAnswer {
    return { kind: 'html', status: 404, html: renderNotFound(this.brand), csp: this.csp(null) };
  }
}

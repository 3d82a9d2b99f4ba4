import {
  collectionIban,
  compactIban,
  ibanValid,
  newBankReference,
  referencesIn,
  SANDBOX_BANK_NAME,
  SANDBOX_BIC,
} from './bank-details';
import { assertMinorUnits, SandboxProvider, type TSandboxPayout } from './sandbox-provider';
import { drawMs, randomHex, SandboxControlError, type TSandboxSettings } from './sandbox-runtime';
import type { TDepositStart, TDepositStarted, TPayoutStart } from './types';
import type { TSandboxWireEvent } from './webhook-signing';

interface TBankDeposit {
  depositId: string;
  tenantId: string;
  userId: string;
  amount: number;
  currency: string;
  reference: string;
  iban: string;
  beneficiary: string;
  createdAt: number;
  expiresAt: number;
  status: 'open' | 'paid' | 'expired';
}

/** An incoming SEPA credit: received now, booked (and matched) after the clearing delay. */
interface TBankCredit {
  transferId: string;
  remittance: string;
  amount: number;
  currency: string;
  senderName: string | null;
  senderIban: string | null;
  receivedAt: number;
  bookAt: number;
  booked: boolean;
}

type TBankEntry =
  | { op: 'deposit.opened'; deposit: TBankDeposit }
  | { op: 'deposit.expired'; depositId: string; at: number; events: TSandboxWireEvent[] }
  | { op: 'credit.received'; credit: TBankCredit }
  | {
      op: 'credit.booked';
      transferId: string;
      depositId: string | null;
      at: number;
      events: TSandboxWireEvent[];
    };

/** A simulated incoming SEPA credit transfer. */
export interface TBankTransfer {
  /** The remittance information as the sender typed it (the reference, perhaps with other words). */
  reference: string;
  amount: number;
  currency: string;
  senderName?: string;
  senderIban?: string;
}

/** SEPA's limit on remittance information. */
const MAX_REMITTANCE = 140;

/**
 * A bank account taking SEPA credits, like a broker's collection account with reference matching:
 * `startDeposit` answers a unique reference and where to send; a credit booked after the clearing
 * delay is tied to the open deposit whose reference its remittance text holds (`deposit.succeeded`
 * with the amount received) or announced as `payment.unmatched`. A reference not paid within
 * `bankWindowMs` fails with `expired`; money for it afterwards is unmatched. Payouts are SEPA
 * credits to `iban:<IBAN>|<name>`.
 */
export class BankProvider extends SandboxProvider<TBankEntry> {
  readonly kind = 'bank' as const;
  readonly methods = ['bank'] as const;
  readonly currency = 'USD';
  private readonly deposits = new Map<string, TBankDeposit>();
  private readonly byReference = new Map<string, string>();
  private readonly credits = new Map<string, TBankCredit>();

  constructor(settings: TSandboxSettings) {
    super('sandboxbank', settings);
    this.load();
  }

  async startDeposit(input: TDepositStart): Promise<TDepositStarted> {
    assertMinorUnits(input.amount);
    const known = this.deposits.get(input.depositId);
    if (known) {
      if (known.amount !== input.amount || known.currency !== input.currency)
        throw new Error(`${this.id}: deposit ${input.depositId} was already started with other details`);
      return this.started(known);
    }
    let reference = newBankReference();
    while (this.byReference.has(reference)) reference = newBankReference();
    const now = this.settings.now();
    const deposit: TBankDeposit = {
      depositId: input.depositId,
      tenantId: input.tenantId,
      userId: input.userId,
      amount: input.amount,
      currency: input.currency,
      reference,
      iban: collectionIban(this.settings.secret, input.tenantId),
      beneficiary: input.merchantName ?? 'Client money account',
      createdAt: now,
      expiresAt: now + this.settings.bankWindowMs,
      status: 'open',
    };
    this.commit({ op: 'deposit.opened', deposit });
    this.armExpiry(deposit.depositId);
    return this.started(deposit);
  }

  /** Someone sends a SEPA credit to the collection account; it is booked after `creditDelayMs`. */
  transfer(input: TBankTransfer): { transferId: string } {
    if (typeof input.reference !== 'string' || input.reference.length > MAX_REMITTANCE)
      throw new SandboxControlError(`reference: text of at most ${MAX_REMITTANCE} characters`);
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
      throw new SandboxControlError('amount must be a positive whole number of minor units');
    if (!/^[A-Z]{3}$/.test(input.currency)) throw new SandboxControlError('currency: three capital letters');
    if (input.senderIban !== undefined && !ibanValid(input.senderIban))
      throw new SandboxControlError('senderIban is not a valid IBAN');
    const now = this.settings.now();
    const credit: TBankCredit = {
      transferId: `sct_in_${randomHex(12)}`,
      remittance: input.reference,
      amount: input.amount,
      currency: input.currency,
      senderName: input.senderName?.slice(0, 70) ?? null,
      senderIban: input.senderIban ? compactIban(input.senderIban) : null,
      receivedAt: now,
      bookAt: now + drawMs(this.settings, this.settings.creditDelayMs),
      booked: false,
    };
    this.commit({ op: 'credit.received', credit });
    this.armBooking(credit.transferId);
    return { transferId: credit.transferId };
  }

  protected apply(entry: TBankEntry): void {
    switch (entry.op) {
      case 'deposit.opened':
        this.deposits.set(entry.deposit.depositId, { ...entry.deposit });
        this.byReference.set(entry.deposit.reference, entry.deposit.depositId);
        return;
      case 'deposit.expired': {
        const deposit = this.deposits.get(entry.depositId);
        if (deposit) deposit.status = 'expired';
        return;
      }
      case 'credit.received':
        this.credits.set(entry.credit.transferId, { ...entry.credit });
        return;
      case 'credit.booked': {
        const credit = this.credits.get(entry.transferId);
        if (credit) credit.booked = true;
        const deposit = entry.depositId ? this.deposits.get(entry.depositId) : undefined;
        if (deposit) deposit.status = 'paid';
        return;
      }
    }
  }

  protected resume(): void {
    for (const deposit of this.deposits.values())
      if (deposit.status === 'open') this.armExpiry(deposit.depositId);
    for (const credit of this.credits.values()) if (!credit.booked) this.armBooking(credit.transferId);
  }

  protected payoutRef(_payout: TPayoutStart): string {
    return `sct_${randomHex(12)}`;
  }

  /** `iban:<IBAN>|<name>`: a bad IBAN fails `invalid_destination`; one ending in 0000, `account_closed`. */
  protected payoutFailure(payout: TSandboxPayout): string | null {
    const iban = /^iban:([^|]+)\|(.+)$/.exec(payout.destination)?.[1];
    if (!iban || !ibanValid(iban)) return 'invalid_destination';
    return compactIban(iban).endsWith('0000') ? 'account_closed' : null;
  }

  private started(deposit: TBankDeposit): TDepositStarted {
    return {
      kind: 'reference',
      reference: deposit.reference,
      bank: {
        name: SANDBOX_BANK_NAME,
        iban: deposit.iban,
        bic: SANDBOX_BIC,
        beneficiary: deposit.beneficiary,
      },
      expiresAt: new Date(deposit.expiresAt),
    };
  }

  /** Timers name deposits and credits by id: the state is what `apply` keeps, never a caller's copy. */
  private armExpiry(depositId: string): void {
    const expiresAt = this.deposits.get(depositId)?.expiresAt ?? 0;
    this.timers.after(expiresAt - this.settings.now(), () => {
      const deposit = this.deposits.get(depositId);
      if (deposit?.status !== 'open') return;
      const now = this.settings.now();
      if (now < deposit.expiresAt) return this.armExpiry(depositId);
      this.commit({
        op: 'deposit.expired',
        depositId: deposit.depositId,
        at: now,
        events: [
          this.event({
            type: 'deposit.failed',
            sequence: 1,
            data: { depositId: deposit.depositId, providerRef: deposit.reference, reason: 'expired' },
          }),
        ],
      });
    });
  }

  private armBooking(transferId: string): void {
    const bookAt = this.credits.get(transferId)?.bookAt ?? 0;
    this.timers.after(bookAt - this.settings.now(), () => this.bookCredit(transferId));
  }

  /** Books a credit: to the open deposit whose reference it names, else as unmatched. */
  private bookCredit(transferId: string): void {
    const credit = this.credits.get(transferId);
    if (!credit || credit.booked) return;
    const now = this.settings.now();
    const deposit = referencesIn(credit.remittance)
      .map((reference) => this.deposits.get(this.byReference.get(reference) ?? ''))
      .find((d) => d?.status === 'open' && d.expiresAt > now);
    const money = { providerRef: credit.transferId, amount: credit.amount, currency: credit.currency };
    this.commit({
      op: 'credit.booked',
      transferId: credit.transferId,
      depositId: deposit?.depositId ?? null,
      at: now,
      events: [
        deposit
          ? this.event({
              type: 'deposit.succeeded',
              sequence: 1,
              data: { depositId: deposit.depositId, ...money },
            })
          : this.event({
              type: 'payment.unmatched',
              sequence: 1,
              data: { ...money, reference: credit.remittance },
            }),
      ],
    });
  }
}

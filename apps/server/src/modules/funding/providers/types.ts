/**
 * The payment-provider interface: what the funding use cases need from a card acquirer, an e-wallet,
 * a blockchain watcher or a bank. Amounts are integer minor units of the method currency (cents of
 * USD, cents of USDT); never floats. A real provider plugs in by implementing this interface and
 * being registered in `providers/index.ts` (docs/funding.md, "Plugging in a real provider").
 */

export type TProviderKind = 'hosted' | 'chain' | 'bank';

/** What the funding module asks a provider to start for one deposit. */
export interface TDepositStart {
  /** Our deposit id: the provider echoes it back in every webhook (merchant reference). */
  depositId: string;
  tenantId: string;
  userId: string;
  /** Minor units of the method currency (what the trader pays, fee included). */
  amount: number;
  currency: string;
  /** Absolute URL the hosted page sends the trader back to, success or not. */
  returnUrl: string;
  /** For a chain provider serving several networks: which one (else it is read from `currency`). */
  network?: 'trc20' | 'erc20';
  /** The broker's name as the hosted page and the bank details show it. */
  merchantName?: string;
}

export type TDepositStarted =
  /** A hosted payment page: send the trader there. `sessionId` is the provider's reference. */
  | { kind: 'redirect'; sessionId: string; redirectUrl: string; expiresAt: Date }
  /** A chain deposit address (one per user and chain, reused), and the confirmations needed. */
  | { kind: 'address'; address: string; confirmations: number; expiresAt: Date }
  /** A bank transfer: the reference the trader writes on the transfer and where to send it. */
  | {
      kind: 'reference';
      reference: string;
      bank: { name: string; iban: string; bic: string; beneficiary: string };
      expiresAt: Date;
    };

/**
 * A verified event from a provider's webhook. `eventId` is unique per provider event (deliveries of
 * one event repeat it: duplicates are recognised by it). `sequence` orders the events of one
 * payment (a late `pending` after `succeeded` must not undo it).
 */
export type TProviderEvent =
  | {
      type: 'deposit.succeeded';
      eventId: string;
      sequence: number;
      depositId: string;
      providerRef: string;
      /** What was actually paid (minor units); may differ from the request on chains. */
      amount: number;
      currency: string;
      occurredAt: Date;
    }
  | {
      type: 'deposit.failed';
      eventId: string;
      sequence: number;
      depositId: string;
      providerRef: string;
      /** declined, expired, cancelled, timeout, risk. */
      reason: string;
      occurredAt: Date;
    }
  | {
      /** A chain payment seen with some confirmations, not yet final. */
      type: 'deposit.confirming';
      eventId: string;
      sequence: number;
      depositId: string;
      providerRef: string;
      amount: number;
      currency: string;
      confirmations: number;
      occurredAt: Date;
    }
  | {
      /** Money received that the provider could not tie to a deposit (unknown reference or address). */
      type: 'payment.unmatched';
      eventId: string;
      sequence: number;
      providerRef: string;
      /** The bank reference or the receiving address, as received. */
      reference: string;
      amount: number;
      currency: string;
      occurredAt: Date;
    }
  | {
      type: 'payout.completed' | 'payout.failed';
      eventId: string;
      sequence: number;
      /** Our withdrawal id. */
      withdrawalId: string;
      providerRef: string;
      reason: string | null;
      occurredAt: Date;
    };

/** Why a webhook was refused; recorded with the delivery. */
export type TWebhookRefusal = 'bad_signature' | 'stale' | 'malformed' | 'unknown_provider';

export class WebhookRefused extends Error {
  constructor(readonly reason: TWebhookRefusal) {
    super(`webhook refused: ${reason}`);
  }
}

export interface TPayoutStart {
  withdrawalId: string;
  tenantId: string;
  userId: string;
  /** Minor units of the method currency. */
  amount: number;
  currency: string;
  /** Where to: `card:<depositId>` (return to source), a chain address, or `iban:<IBAN>|<name>`. */
  destination: string;
  /** The original deposit's provider reference, for return-to-source (refund-style payouts). */
  sourceRef: string | null;
  /** For a chain provider serving several networks (else it is read from the address). */
  network?: 'trc20' | 'erc20';
}

/** A provider's own record of one money movement, for the daily reconciliation. */
export interface TProviderRecord {
  /** Our deposit or withdrawal id. */
  reference: string;
  direction: 'in' | 'out';
  amount: number;
  currency: string;
  at: Date;
}

export interface TPaymentProvider {
  /** Stable id: `sandboxcard`, `sandboxwallet`, `sandboxchain`, `sandboxbank`, or a real provider's. */
  readonly id: string;
  readonly kind: TProviderKind;
  /** The funding methods it serves (`card`, `ewallet`, `usdt_trc20`, `usdt_erc20`, `bank`), when it says. */
  readonly methods?: readonly string[];
  /** The currency its amounts are in (`USD`, `USDT`), when it says. */
  readonly currency?: string;
  /** Starts a deposit. Idempotent on `depositId`: a retry answers the same session or address. */
  startDeposit(input: TDepositStart): Promise<TDepositStarted>;
  /**
   * Checks a webhook delivery (signature over the raw body, timestamp window) and answers its event.
   * Throws `WebhookRefused` for a forged, stale or malformed delivery.
   */
  verifyWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): TProviderEvent;
  /**
   * Sends a payout. Idempotent on `withdrawalId`: a retry after a crash never pays twice; it answers
   * the payout already made. The result comes later by webhook (`payout.completed` / `payout.failed`).
   */
  startPayout(input: TPayoutStart): Promise<{ providerRef: string }>;
  /** The provider's records of a UTC day, for reconciliation. */
  records(day: string): Promise<TProviderRecord[]>;
  /** Stops timers (webhook retries, block production). */
  stop(): void;
}

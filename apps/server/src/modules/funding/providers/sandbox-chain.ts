import {
  canonicalAddress,
  chainAccount,
  depositAddress,
  isTxHash,
  networkOf,
  newTxHash,
  type TChainNetwork,
} from './chain-addresses';
import { assertMinorUnits, SandboxProvider, type TSandboxPayout } from './sandbox-provider';
import { SandboxControlError, type TSandboxSettings } from './sandbox-runtime';
import type { TDepositStart, TDepositStarted, TPayoutStart } from './types';
import type { TSandboxWireEvent } from './webhook-signing';

const CURRENCY = 'USDT';

interface TChainDeposit {
  depositId: string;
  tenantId: string;
  userId: string;
  network: TChainNetwork;
  /** As compared (Ethereum addresses in lower case). */
  address: string;
  amount: number;
  createdAt: number;
  expiresAt: number;
  status: 'open' | 'matched' | 'expired';
  txHash: string | null;
}

interface TChainTransfer {
  txHash: string;
  network: TChainNetwork;
  address: string;
  amount: number;
  sentAt: number;
  /** The block it is in: confirmations = height - includedHeight + 1. */
  includedHeight: number;
  /** Confirmations needed when it was sent. */
  required: number;
  depositId: string | null;
  /** Confirmations already announced. */
  confirmations: number;
}

type TChainEntry =
  | { op: 'deposit.opened'; deposit: TChainDeposit }
  | { op: 'deposit.expired'; depositId: string; at: number; events: TSandboxWireEvent[] }
  | { op: 'transfer.seen'; transfer: TChainTransfer }
  | {
      op: 'transfer.confirmed';
      txHash: string;
      confirmations: number;
      at: number;
      events: TSandboxWireEvent[];
    };

/** A simulated wallet sending USDT (minor units: USDT cents). */
export interface TChainSend {
  network: TChainNetwork;
  address: string;
  amount: number;
  /** A hash of the chain's form, to replay a send; a new one is made when left out. */
  txHash?: string;
}

export interface TChainSent {
  txHash: string;
  /** The deposit the watcher tied it to, or null (it is announced as `payment.unmatched`). */
  depositId: string | null;
  includedHeight: number;
  confirmationsRequired: number;
}

/** `usdt_trc20`, `USDT-TRC20`, … → the network; null when the currency does not say. */
function networkFromCurrency(currency: string): TChainNetwork | null {
  if (/trc-?20/i.test(currency)) return 'trc20';
  if (/erc-?20/i.test(currency)) return 'erc20';
  return null;
}

/** The 20 account bytes end in 0xdead: the documented test destination whose payouts fail. */
const isBlocked = (account: Buffer) => account.toString('hex').endsWith('dead');

/**
 * A USDT watcher like an exchange's, on two simulated chains (TRON TRC-20 and Ethereum ERC-20): each
 * user has one deposit address per network, reused; a block comes every `blockMs` (the height is the
 * clock divided by it, so it goes on across restarts); a transfer is in the next block and announced
 * with `deposit.confirming` at each confirmation, then `deposit.succeeded` with the amount actually
 * sent at the confirmations required. A transfer with no open deposit to tie to is `payment.unmatched`
 * once final. A deposit window not paid by its end fails with `expired`.
 */
export class ChainProvider extends SandboxProvider<TChainEntry> {
  readonly kind = 'chain' as const;
  readonly methods = ['usdt_trc20', 'usdt_erc20'] as const;
  readonly currency = CURRENCY;
  private readonly deposits = new Map<string, TChainDeposit>();
  /** By hash (the two chains' hashes differ in form, so they never collide). */
  private readonly transfers = new Map<string, TChainTransfer>();

  constructor(settings: TSandboxSettings) {
    super('sandboxchain', settings);
    this.load();
  }

  /** The current block height of the simulated chains. */
  height(): number {
    return Math.floor(this.settings.now() / this.settings.blockMs);
  }

  /** A user's deposit address on a network (the one `startDeposit` answers). */
  addressFor(input: { tenantId: string; userId: string; network: TChainNetwork }): string {
    return depositAddress(this.settings.secret, input);
  }

  async startDeposit(input: TDepositStart): Promise<TDepositStarted> {
    assertMinorUnits(input.amount);
    const known = this.deposits.get(input.depositId);
    if (known) {
      if (known.amount !== input.amount)
        throw new Error(`${this.id}: deposit ${input.depositId} was already started with other details`);
      return this.started(known);
    }
    const network = input.network ?? networkFromCurrency(input.currency);
    if (network !== 'trc20' && network !== 'erc20')
      throw new Error(
        `${this.id}: which network? pass network 'trc20' or 'erc20' (currency ${input.currency})`,
      );
    const now = this.settings.now();
    const deposit: TChainDeposit = {
      depositId: input.depositId,
      tenantId: input.tenantId,
      userId: input.userId,
      network,
      address: canonicalAddress(network, this.addressFor({ ...input, network })),
      amount: input.amount,
      createdAt: now,
      expiresAt: now + this.settings.chainWindowMs,
      status: 'open',
      txHash: null,
    };
    this.commit({ op: 'deposit.opened', deposit });
    return this.started(deposit);
  }

  /**
   * A wallet sends USDT to an address: the watcher sees it in the next block and ties it to the
   * oldest open deposit on that address of the same amount, else the oldest open one, else nothing.
   * Replaying a `txHash` answers the transfer already seen.
   */
  send(input: TChainSend): TChainSent {
    if (input.network !== 'trc20' && input.network !== 'erc20')
      throw new SandboxControlError('network must be trc20 or erc20');
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
      throw new SandboxControlError('amount must be a positive whole number of USDT cents');
    if (!chainAccount(input.network, input.address))
      throw new SandboxControlError(`not a ${input.network.toUpperCase()} address: ${input.address}`);
    if (input.txHash !== undefined && !isTxHash(input.network, input.txHash))
      throw new SandboxControlError(`not a ${input.network.toUpperCase()} transaction hash`);
    const txHash = input.txHash ?? newTxHash(input.network);
    const address = canonicalAddress(input.network, input.address);
    const seen = this.transfers.get(txHash);
    if (seen) {
      if (seen.address !== address || seen.amount !== input.amount)
        throw new SandboxControlError(`transaction ${txHash} was already sent with other details`);
      return this.sent(seen);
    }
    const now = this.settings.now();
    const open = [...this.deposits.values()]
      .filter(
        (d) =>
          d.network === input.network && d.address === address && d.status === 'open' && d.expiresAt > now,
      )
      .sort((a, b) => a.createdAt - b.createdAt);
    const deposit = open.find((d) => d.amount === input.amount) ?? open[0] ?? null;
    const transfer: TChainTransfer = {
      txHash,
      network: input.network,
      address,
      amount: input.amount,
      sentAt: now,
      includedHeight: this.height() + 1,
      required: this.settings.confirmations[input.network],
      depositId: deposit?.depositId ?? null,
      confirmations: 0,
    };
    this.commit({ op: 'transfer.seen', transfer });
    return this.sent(transfer);
  }

  protected apply(entry: TChainEntry): void {
    switch (entry.op) {
      case 'deposit.opened':
        this.deposits.set(entry.deposit.depositId, { ...entry.deposit });
        return;
      case 'deposit.expired': {
        const deposit = this.deposits.get(entry.depositId);
        if (deposit) deposit.status = 'expired';
        return;
      }
      case 'transfer.seen': {
        const transfer = { ...entry.transfer };
        this.transfers.set(transfer.txHash, transfer);
        const deposit = transfer.depositId ? this.deposits.get(transfer.depositId) : undefined;
        if (deposit) Object.assign(deposit, { status: 'matched', txHash: transfer.txHash });
        return;
      }
      case 'transfer.confirmed': {
        const transfer = this.transfers.get(entry.txHash);
        if (transfer) transfer.confirmations = entry.confirmations;
        return;
      }
    }
  }

  protected resume(): void {
    this.timers.every(this.settings.blockMs, () => this.onBlock());
  }

  protected payoutRef(payout: TPayoutStart): string {
    return newTxHash(payout.network ?? networkOf(payout.destination) ?? 'erc20');
  }

  protected payoutFailure(payout: TSandboxPayout): string | null {
    const network = payout.network ?? networkOf(payout.destination);
    const account = network ? chainAccount(network, payout.destination) : null;
    if (!account) return 'invalid_destination';
    return isBlocked(account) ? 'address_blocked' : null;
  }

  private started(deposit: TChainDeposit): TDepositStarted {
    return {
      kind: 'address',
      address: deposit.address,
      confirmations: this.settings.confirmations[deposit.network],
      expiresAt: new Date(deposit.expiresAt),
    };
  }

  private sent(transfer: TChainTransfer): TChainSent {
    return {
      txHash: transfer.txHash,
      depositId: transfer.depositId,
      includedHeight: transfer.includedHeight,
      confirmationsRequired: transfer.required,
    };
  }

  /** A new block: announces new confirmations, then closes deposit windows that ran out. */
  private onBlock(): void {
    const now = this.settings.now();
    const height = this.height();
    for (const transfer of this.transfers.values()) {
      if (transfer.confirmations >= transfer.required) continue;
      const reached = Math.min(height - transfer.includedHeight + 1, transfer.required);
      if (reached <= transfer.confirmations) continue;
      const events: TSandboxWireEvent[] = [];
      const common = { providerRef: transfer.txHash, amount: transfer.amount, currency: CURRENCY };
      const { depositId } = transfer;
      if (depositId)
        for (let n = transfer.confirmations + 1; n <= reached; n++)
          events.push(
            n < transfer.required
              ? this.event({
                  type: 'deposit.confirming',
                  sequence: n,
                  data: { depositId, ...common, confirmations: n },
                })
              : this.event({ type: 'deposit.succeeded', sequence: n, data: { depositId, ...common } }),
          );
      else if (reached === transfer.required)
        events.push(
          this.event({
            type: 'payment.unmatched',
            sequence: 1,
            data: { ...common, reference: transfer.address },
          }),
        );
      // An unmatched transfer says nothing until final: nothing to journal before.
      if (events.length === 0) continue;
      this.commit({
        op: 'transfer.confirmed',
        txHash: transfer.txHash,
        confirmations: reached,
        at: now,
        events,
      });
    }
    for (const deposit of this.deposits.values())
      if (deposit.status === 'open' && deposit.expiresAt <= now)
        this.commit({
          op: 'deposit.expired',
          depositId: deposit.depositId,
          at: now,
          events: [
            this.event({
              type: 'deposit.failed',
              sequence: 1,
              data: { depositId: deposit.depositId, providerRef: deposit.address, reason: 'expired' },
            }),
          ],
        });
  }
}

import type { TSandboxLog } from './journal';
import { BankProvider, type TBankTransfer } from './sandbox-bank';
import { ChainProvider, type TChainSend, type TChainSent } from './sandbox-chain';
import { CARD_BRAND, HostedProvider, type TSandboxPageAnswer, WALLET_BRAND } from './sandbox-hosted';
import type { TSandboxSettings } from './sandbox-runtime';
import type { TPaymentProvider } from './types';

export { ibanValid, makeIban } from './bank-details';
export { chainAccount, networkOf, type TChainNetwork, tronAddress } from './chain-addresses';
export type { TSandboxLog } from './journal';
export type { TBankTransfer } from './sandbox-bank';
export type { TChainSend, TChainSent } from './sandbox-chain';
export { SANDBOX_TEST_CARDS, SANDBOX_TEST_WALLETS, type TSandboxPageAnswer } from './sandbox-hosted';
export { SandboxControlError } from './sandbox-runtime';
export * from './types';
export {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  sandboxWebhookSecret,
  signSandboxWebhook,
  type TSandboxWireEvent,
} from './webhook-signing';

export interface TSandboxOptions {
  /** The sandbox keeps its own store under `${dataDir}/sandbox-payments/` (one journal per provider). */
  dataDir: string;
  /** Master secret: each provider's webhook secret and the chain addresses are derived from it. */
  secret: string;
  /** Absolute URL each provider POSTs its webhooks to. */
  webhookUrl: (providerId: string) => string;
  /** Base URL of the sandbox pages (the server's own public URL). */
  publicUrl: () => string;
  now?: () => number;
  /** For tests: the source of chance (delays, duplicates). */
  random?: () => number;
  /** Delay before a webhook is first sent, [min, max] ms. Default [200, 1200]. */
  webhookDelayMs?: readonly [number, number];
  /** Share of delivered webhooks delivered a second time (same event id), 0..1. Default 0.1. */
  duplicateRate?: number;
  /** Events of one payment due together are sent in reverse order. Default false. */
  reorder?: boolean;
  /** First retry after this; doubling each time up to `retryCapMs`. Default 1000. */
  retryBaseMs?: number;
  retryCapMs?: number;
  /** Tries per webhook before it is abandoned (journaled and logged). Default 8. */
  maxAttempts?: number;
  /** A block every so often on the simulated chains. Default 1000. */
  blockMs?: number;
  /** Confirmations a chain deposit needs. Default TRC-20 3, ERC-20 6. */
  confirmations?: { trc20?: number; erc20?: number };
  /** From `startPayout` to its result, [min, max] ms. Default [500, 2000]. */
  payoutDelayMs?: readonly [number, number];
  /** From an incoming bank credit to its booking, [min, max] ms. Default: `payoutDelayMs`. */
  creditDelayMs?: readonly [number, number];
  /** A hosted payment page's life. Default 30 min. */
  sessionTtlMs?: number;
  /** How long a chain deposit stays open for a transfer. Default 24 h. */
  chainWindowMs?: number;
  /** How long a bank reference stays open. Default 7 days. */
  bankWindowMs?: number;
  /** Serve `POST /sandbox/chain/send` and `POST /sandbox/bank/transfer` (demo mode only). */
  enableControls?: boolean;
  log?: TSandboxLog;
}

/** The sandbox's hands: what a wallet or a bank customer would do, for tests and the demo portal. */
export interface TSandboxControls {
  /** A wallet sends USDT to an address (see `ChainProvider.send`). */
  chainSend(input: TChainSend): TChainSent;
  /** An incoming SEPA credit (see `BankProvider.transfer`). */
  bankTransfer(input: TBankTransfer): { transferId: string };
  /** A user's deposit address on a network, without opening a deposit. */
  depositAddress(input: { tenantId: string; userId: string; network: 'trc20' | 'erc20' }): string;
  /** The simulated chains' block height. */
  chainHeight(): number;
}

/** The hosted payment pages, for `registerSandboxPay` (http/sandbox-pay.ts). */
export interface TSandboxPages {
  show(sessionId: string): TSandboxPageAnswer;
  submit(sessionId: string, form: Record<string, string>): TSandboxPageAnswer;
}

export interface TSandboxProviders {
  /** `sandboxcard`, `sandboxwallet`, `sandboxchain`, `sandboxbank`. */
  providers: Map<string, TPaymentProvider>;
  controls: TSandboxControls;
  pages: TSandboxPages;
  controlsEnabled: boolean;
  stop(): void;
}

const DAY_MS = 86_400_000;

function settingsOf(options: TSandboxOptions): TSandboxSettings {
  const payoutDelayMs = options.payoutDelayMs ?? [500, 2000];
  return {
    dataDir: options.dataDir,
    secret: options.secret,
    webhookUrl: options.webhookUrl,
    publicUrl: options.publicUrl,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    webhookDelayMs: options.webhookDelayMs ?? [200, 1200],
    duplicateRate: Math.min(1, Math.max(0, options.duplicateRate ?? 0.1)),
    reorder: options.reorder ?? false,
    retryBaseMs: options.retryBaseMs ?? 1000,
    retryCapMs: options.retryCapMs ?? 60_000,
    maxAttempts: Math.max(1, options.maxAttempts ?? 8),
    blockMs: Math.max(1, options.blockMs ?? 1000),
    confirmations: {
      trc20: Math.max(1, options.confirmations?.trc20 ?? 3),
      erc20: Math.max(1, options.confirmations?.erc20 ?? 6),
    },
    payoutDelayMs,
    creditDelayMs: options.creditDelayMs ?? payoutDelayMs,
    sessionTtlMs: options.sessionTtlMs ?? 30 * 60_000,
    chainWindowMs: options.chainWindowMs ?? DAY_MS,
    bankWindowMs: options.bankWindowMs ?? 7 * DAY_MS,
    log: options.log,
  };
}

/**
 * The built-in sandbox payment providers, standing in for a card acquirer, an e-wallet, a USDT
 * watcher and a bank (docs/funding-providers.md). Each reloads its journal from `dataDir` and
 * resumes what was under way (webhooks not yet delivered, payouts not yet finished, expiries).
 */
export function createSandboxProviders(options: TSandboxOptions): TSandboxProviders {
  if (options.secret.length < 16)
    throw new Error('sandbox providers: the secret must be 16 characters or more');
  const settings = settingsOf(options);
  const card = new HostedProvider(CARD_BRAND, settings);
  const wallet = new HostedProvider(WALLET_BRAND, settings);
  const chain = new ChainProvider(settings);
  const bank = new BankProvider(settings);
  const all = [card, wallet, chain, bank];
  const hostedOf = (sessionId: string) => (wallet.hasSession(sessionId) ? wallet : card);
  return {
    providers: new Map<string, TPaymentProvider>(all.map((provider) => [provider.id, provider])),
    controls: {
      chainSend: (input) => chain.send(input),
      bankTransfer: (input) => bank.transfer(input),
      depositAddress: (input) => chain.addressFor(input),
      chainHeight: () => chain.height(),
    },
    pages: {
      show: (sessionId) => hostedOf(sessionId).show(sessionId),
      submit: (sessionId, form) => hostedOf(sessionId).submit(sessionId, form),
    },
    controlsEnabled: options.enableControls ?? false,
    stop: () => {
      for (const provider of all) provider.stop();
    },
  };
}

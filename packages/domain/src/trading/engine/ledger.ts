/** The double-entry ledger: counter-accounts, and every balance change as a two-legged transaction. */
import type { TLedgerKind } from './events';
import { type Account, type EngineState, emit } from './state';
import { syncRisk } from './views';

/** Double-entry counter-accounts; a trader's own balance is `trader:<accountId>`. */
export const LedgerAccount = {
  BROKER_PNL: 'broker:pnl',
  BROKER_COMMISSION: 'broker:commission',
  BROKER_SWAP: 'broker:swap',
  BROKER_NBP: 'broker:negative_balance_protection',
  BROKER_ADJUSTMENT: 'broker:adjustment',
  BROKER_DEMO_CREDIT: 'broker:demo_credit',
  EXTERNAL_FUNDING: 'external:funding',
  /** Withdrawals asked for and held until paid out (or released back). */
  BROKER_WITHDRAWAL_HOLD: 'broker:withdrawal_hold',
  /** Withdrawal fees the broker keeps. */
  BROKER_FUNDING_FEES: 'broker:funding_fees',
  /** Coins exchanged into experience accounts: the broker's promotion cost. */
  BROKER_COINS: 'broker:coins',
  /** Money moved between accounts in different currencies (a copy fee): each leg balances here. */
  BROKER_CONVERSION: 'broker:conversion',
} as const;

export function traderLedgerAccount(accountId: number): string {
  return `trader:${accountId}`;
}

/** A balance change as a two-legged ledger transaction: the trader's balance against `counter`. */
export function post(
  st: EngineState,
  account: Account,
  kind: TLedgerKind,
  amount: number,
  counter: string,
  positionId: number | null,
): void {
  if (amount === 0) return;
  account.balance += amount;
  syncRisk(st, account);
  emit(st, {
    type: 'ledger',
    txId: st.nextTxId++,
    accountId: account.id,
    kind,
    currency: account.currency,
    postings: [
      { ledgerAccount: traderLedgerAccount(account.id), amount },
      { ledgerAccount: counter, amount: -amount },
    ],
    balanceAfter: account.balance,
    positionId,
    time: st.now,
  });
}

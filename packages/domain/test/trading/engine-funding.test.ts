import { describe, expect, it } from 'vitest';
import { AccountType } from '../../src/trading/calculations';
import { LedgerAccount, TradingEngine } from '../../src/trading/engine-core';
import { engineConfig, Harness, ledgerEvents } from './harness';

function withSub(purpose: 'copy' | 'strategy' = 'copy') {
  const h = new Harness();
  h.seedQuotes();
  h.createAccount(1, { accountType: AccountType.REAL, initialBalance: 1_000_000 });
  h.ok({
    type: 'create_account',
    accountId: 2,
    accountType: AccountType.REAL,
    tradeType: 1,
    currency: 'USD',
    leverage: 100,
    initialBalance: 0,
    parentId: 1,
    purpose,
  });
  return h;
}

describe('sub-accounts and transfers', () => {
  it('moves money to a copy account and back as one two-legged transaction, profit untouched', () => {
    const h = withSub();
    const { events } = h.ok({
      type: 'transfer',
      accountId: 1,
      toAccountId: 2,
      transferType: 'transfer_follow_out',
      amount: 300_000,
    });
    const legs = ledgerEvents(events);
    expect(legs).toHaveLength(2);
    expect(new Set(legs.map((l) => l.txId)).size).toBe(1);
    expect(legs.flatMap((l) => l.postings)).toEqual([
      { ledgerAccount: 'trader:1', amount: -300_000 },
      { ledgerAccount: 'trader:2', amount: 300_000 },
    ]);
    expect(h.engine.account(1)).toMatchObject({
      balance: 700_000,
      followEquity: 300_000,
      totalEquity: 1_000_000,
      accountProfit: 0,
      usableMargin: 700_000,
    });
    expect(h.engine.account(2)).toMatchObject({
      balance: 300_000,
      totalInAmount: -300_000,
      accountProfit: 0,
    });
    h.ok({
      type: 'transfer',
      accountId: 2,
      toAccountId: 1,
      transferType: 'transfer_follow_in',
      amount: 100_000,
    });
    expect(h.engine.account(1)).toMatchObject({ balance: 800_000, followEquity: 200_000, accountProfit: 0 });
    expect(h.engine.account(2)).toMatchObject({
      balance: 200_000,
      totalOutAmount: 100_000,
      accountProfit: 0,
    });
  });

  it('refuses transfers beyond free margin, to a stranger, or with the wrong type', () => {
    const h = withSub('strategy');
    h.createAccount(9, { accountType: AccountType.REAL, initialBalance: 1_000 });
    const refused = (c: Record<string, unknown>) =>
      (
        h.run({ type: 'transfer', accountId: 1, toAccountId: 2, amount: 100, ...c } as never) as {
          error?: string;
        }
      ).error;
    expect(refused({ transferType: 'transfer_strategy_out', amount: 1_000_001 })).toBe('INSUFFICIENT_FUNDS');
    expect(refused({ transferType: 'transfer_follow_out' })).toBe('ACCOUNT_NOT_FOUND');
    expect(refused({ transferType: 'transfer_strategy_out', toAccountId: 9 })).toBe('ACCOUNT_NOT_FOUND');
    expect(refused({ transferType: 'transfer_strategy_in' })).toBe('ACCOUNT_NOT_FOUND');
    // Margin in use on the main account is not transferable.
    h.ok({ type: 'open_market', accountId: 1, symbol: 'EURUSD', side: 'buy', volume: 100 });
    const free = h.engine.account(1)!.usableMargin;
    expect(refused({ transferType: 'transfer_strategy_out', amount: free + 1 })).toBe('INSUFFICIENT_FUNDS');
    expect(refused({ transferType: 'transfer_strategy_out', amount: free })).toBeUndefined();
  });

  it('holds a withdrawal, then releases it or settles it out with the fee to the broker', () => {
    const h = new Harness();
    h.seedQuotes();
    h.createAccount(1, { accountType: AccountType.REAL, initialBalance: 100_000 });
    h.ok({ type: 'withdraw', accountId: 1, amount: 40_000 });
    expect(h.engine.account(1)).toMatchObject({ balance: 60_000, totalOutAmount: 40_000 });
    const released = ledgerEvents(h.ok({ type: 'release_withdrawal', accountId: 1, amount: 40_000 }).events);
    expect(released[0]?.postings).toEqual([
      { ledgerAccount: 'trader:1', amount: 40_000 },
      { ledgerAccount: LedgerAccount.BROKER_WITHDRAWAL_HOLD, amount: -40_000 },
    ]);
    expect(h.engine.account(1)).toMatchObject({ balance: 100_000, totalOutAmount: 0, accountProfit: 0 });
    h.ok({ type: 'withdraw', accountId: 1, amount: 30_000 });
    const settled = ledgerEvents(
      h.ok({ type: 'settle_withdrawal', accountId: 1, amount: 30_000, fee: 500 }).events,
    );
    expect(settled[0]?.postings).toEqual([
      { ledgerAccount: LedgerAccount.BROKER_WITHDRAWAL_HOLD, amount: -30_000 },
      { ledgerAccount: LedgerAccount.EXTERNAL_FUNDING, amount: 29_500 },
      { ledgerAccount: LedgerAccount.BROKER_FUNDING_FEES, amount: 500 },
    ]);
    expect(h.engine.account(1)).toMatchObject({ balance: 70_000, totalOutAmount: 30_000, accountProfit: 0 });
  });

  it('credits coins to an experience account only, within its cap', () => {
    const h = new Harness();
    h.seedQuotes();
    h.createAccount(3, { accountType: AccountType.EXPERIENCE, currency: 'USC', initialBalance: 0 });
    h.createAccount(1, { accountType: AccountType.REAL, initialBalance: 0 });
    expect(h.run({ type: 'coin_credit', accountId: 1, amount: 100 })).toEqual({
      ok: false,
      error: 'INVALID_AMOUNT',
    });
    h.ok({ type: 'coin_credit', accountId: 3, amount: 10_000 });
    h.ok({ type: 'deposit', accountId: 3, amount: 990_000 });
    expect(h.run({ type: 'coin_credit', accountId: 3, amount: 1 })).toEqual({
      ok: false,
      error: 'DEPOSIT_CAP_EXCEEDED',
    });
    expect(h.engine.account(3)).toMatchObject({ balance: 1_000_000, accountProfit: 0 });
  });

  it('keeps sub-accounts and their link across a snapshot', () => {
    const h = withSub();
    h.ok({
      type: 'transfer',
      accountId: 1,
      toAccountId: 2,
      transferType: 'transfer_follow_out',
      amount: 5_000,
    });
    const restored = TradingEngine.restore(structuredClone(h.engine.snapshot()), engineConfig());
    expect(restored.account(2)).toMatchObject({ parentId: 1, purpose: 'copy', balance: 5_000 });
    expect(restored.account(1)).toMatchObject({ followEquity: 5_000, totalEquity: 1_000_000 });
  });
});

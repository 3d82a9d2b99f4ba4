import { describe, expect, it } from 'vitest';
import {
  accountsLoaded,
  chooseAccount,
  INITIAL_ACCOUNT_STATE,
  removeAccount,
  setConnection,
  setTradeType,
  type TAccountEntry,
} from '../../src/lib/trading/account-state';

const account = (id: number, type: number, tradeType = 2): TAccountEntry => ({
  account_id: id,
  account_type: type,
  trade_type: tradeType,
  is_abnormal: 0,
  equity: '0.00',
  balance: '0.00',
  currency: 'USD',
  currency_symbol: '$',
  leverage: 100,
  created_at: '2026-11-22T00:00:00.000Z',
});

describe('spec 4 account state', () => {
  it('keeps a saved choice that is still in the list', () => {
    const list = [account(1, 2), account(2, 1), account(3, 1)];
    const { state, cookie } = accountsLoaded(INITIAL_ACCOUNT_STATE, list, '3:1');
    expect(state).toMatchObject({ status: 2, accountId: 3, accountType: 1 });
    expect(state.demo?.account_id).toBe(2);
    expect(cookie).toEqual({ kind: 'keep' });
  });

  it('removes a stale cookie and picks the first type-1 account, else the first', () => {
    const stale = accountsLoaded(INITIAL_ACCOUNT_STATE, [account(1, 2), account(2, 1)], '9:1');
    expect(stale.state.accountId).toBe(2);
    expect(stale.cookie).toEqual({ kind: 'remove' });
    const wrongType = accountsLoaded(INITIAL_ACCOUNT_STATE, [account(1, 2), account(2, 1)], '1:1');
    expect(wrongType.cookie).toEqual({ kind: 'remove' });
    const noDemo = accountsLoaded(INITIAL_ACCOUNT_STATE, [account(5, 2), account(6, 4)], undefined);
    expect(noDemo.state.accountId).toBe(5);
    expect(noDemo.cookie).toEqual({ kind: 'keep' });
  });

  it('handles the empty list: status 1, id and type 0, nothing current', () => {
    const { state } = accountsLoaded(INITIAL_ACCOUNT_STATE, [], '4:1');
    expect(state).toMatchObject({ status: 1, accountId: 0, accountType: 0, current: null, demo: null });
  });

  it('saves a choice, removes the current account, sets the trade type and the connection status', () => {
    const loaded = accountsLoaded(INITIAL_ACCOUNT_STATE, [account(1, 1), account(2, 2)], undefined).state;
    const chosen = chooseAccount(loaded, 2);
    expect(chosen.cookie).toEqual({ kind: 'set', value: '2:2' });
    const removed = removeAccount(chosen.state, 2);
    expect(removed).toMatchObject({ status: 1, accountId: 0, current: null });
    expect(removed.accounts.map((a) => a.account_id)).toEqual([1]);
    const typed = setTradeType(loaded, 1);
    expect(typed.cookie).toBe('1');
    expect(typed.state.current?.trade_type).toBe(1);
    const abnormal = setConnection(loaded, 1, true);
    expect(abnormal.current?.is_abnormal).toBe(1);
    expect(abnormal.accounts[0]?.is_abnormal).toBe(1);
  });
});

/**
 * Spec 4 account state rules, as pure functions: user status, the `account` and `tradeType`
 * cookies, choosing the current account, removing it, the demo account and the connection status.
 */

export interface TAccountEntry {
  account_id: number;
  account_type: number;
  trade_type: number;
  is_abnormal: number;
  equity: string;
  balance: string;
  currency: string;
  currency_symbol: string;
  leverage: number;
  created_at: string;
}

/** 0 initial; 1 accounts loaded (or no current account); 2 an account is selected. */
export type TUserStatus = 0 | 1 | 2;

export interface TAccountState {
  status: TUserStatus;
  accounts: TAccountEntry[];
  /** 0 when none. */
  accountId: number;
  accountType: number;
  current: TAccountEntry | null;
  /** The demo account: always the first type-1 account. */
  demo: TAccountEntry | null;
  tradeType: number | null;
}

export const INITIAL_ACCOUNT_STATE: TAccountState = {
  status: 0,
  accounts: [],
  accountId: 0,
  accountType: 0,
  current: null,
  demo: null,
  tradeType: null,
};

export const ACCOUNT_COOKIE = 'account';
export const TRADE_TYPE_COOKIE = 'tradeType';

/** The `account` cookie holds the saved choice as "accountId:accountType". */
export function parseAccountCookie(
  value: string | undefined,
): { accountId: number; accountType: number } | null {
  const match = /^(\d+):(\d+)$/.exec(value ?? '');
  if (!match) return null;
  return { accountId: Number(match[1]), accountType: Number(match[2]) };
}

export const formatAccountCookie = (account: TAccountEntry) =>
  `${account.account_id}:${account.account_type}`;

export type TCookieAction = { kind: 'keep' } | { kind: 'remove' } | { kind: 'set'; value: string };

const demoOf = (accounts: TAccountEntry[]) => accounts.find((a) => a.account_type === 1) ?? null;

function withCurrent(state: TAccountState, current: TAccountEntry | null): TAccountState {
  if (!current) return { ...state, status: 1, accountId: 0, accountType: 0, current: null };
  return {
    ...state,
    status: 2,
    accountId: current.account_id,
    accountType: current.account_type,
    current,
    tradeType: current.trade_type,
  };
}

/**
 * Accounts loaded: the saved choice if it is still in the list; else the cookie is removed and the
 * first type-1 account is chosen, else the first account. An empty list: status 1, id and type 0,
 * no current account (the caller clears the symbols).
 */
export function accountsLoaded(
  state: TAccountState,
  accounts: TAccountEntry[],
  savedCookie: string | undefined,
): { state: TAccountState; cookie: TCookieAction } {
  const base: TAccountState = { ...state, accounts, demo: demoOf(accounts) };
  if (accounts.length === 0)
    return { state: withCurrent(base, null), cookie: savedCookie ? { kind: 'remove' } : { kind: 'keep' } };
  const saved = parseAccountCookie(savedCookie);
  const kept = saved
    ? accounts.find((a) => a.account_id === saved.accountId && a.account_type === saved.accountType)
    : undefined;
  if (kept) return { state: withCurrent(base, kept), cookie: { kind: 'keep' } };
  const chosen = demoOf(accounts) ?? (accounts[0] as TAccountEntry);
  return {
    state: withCurrent(base, chosen),
    cookie: savedCookie ? { kind: 'remove' } : { kind: 'keep' },
  };
}

/** Choosing an account saves the pair to the cookie. */
export function chooseAccount(
  state: TAccountState,
  accountId: number,
): { state: TAccountState; cookie: TCookieAction } {
  const account = state.accounts.find((a) => a.account_id === accountId);
  if (!account) return { state, cookie: { kind: 'keep' } };
  return { state: withCurrent(state, account), cookie: { kind: 'set', value: formatAccountCookie(account) } };
}

/** Removing the current account clears the selection, sets status 1 and removes it from the list. */
export function removeAccount(state: TAccountState, accountId: number): TAccountState {
  const accounts = state.accounts.filter((a) => a.account_id !== accountId);
  const next = { ...state, accounts, demo: demoOf(accounts) };
  return state.accountId === accountId ? withCurrent(next, null) : next;
}

/** Setting the trade type updates the current account and is saved in the tradeType cookie. */
export function setTradeType(
  state: TAccountState,
  tradeType: number,
): { state: TAccountState; cookie: string } {
  const current = state.current ? { ...state.current, trade_type: tradeType } : null;
  const accounts = state.accounts.map((a) =>
    a.account_id === state.accountId ? { ...a, trade_type: tradeType } : a,
  );
  return { state: { ...state, accounts, current, tradeType }, cookie: String(tradeType) };
}

/** The connection status also updates is_abnormal on the account info and on its list entry. */
export function setConnection(state: TAccountState, accountId: number, abnormal: boolean): TAccountState {
  const flag = abnormal ? 1 : 0;
  const accounts = state.accounts.map((a) => (a.account_id === accountId ? { ...a, is_abnormal: flag } : a));
  const current =
    state.current?.account_id === accountId ? { ...state.current, is_abnormal: flag } : state.current;
  return { ...state, accounts, current, demo: demoOf(accounts) };
}

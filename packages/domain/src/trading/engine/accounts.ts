/** Account commands: opening and closing accounts, balance operations, levels, restrictions, profiles. */
import { AccountType, totalEquity, usableMargin } from '../calculations';
import { CloseReason, checkRestriction, NO_RESTRICTIONS, validateClosing } from '../orders';
import type {
  TBalanceCommand,
  TCoinCreditCommand,
  TCreateAccountCommand,
  TOutcome,
  TSetExternalEquityCommand,
  TSetLevelsCommand,
  TSetProfileCommand,
  TSetRestrictionsCommand,
  TTransferCommand,
  TTransferType,
  TWithdrawalStepCommand,
} from './commands';
import { LedgerAccount, post, traderLedgerAccount } from './ledger';
import { closePosition, removeOrder } from './positions';
import { type Account, DEFAULT_MARGIN_CALL_BP, DEFAULT_STOP_OUT_BP, type EngineState, emit } from './state';
import { figuresOf, syncRisk } from './views';

function isAmount(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

/** Opens an account and posts its first balance (demo credit for a demo account, else funding). */
export function createAccount(st: EngineState, c: TCreateAccountCommand): TOutcome<null> {
  if (!Number.isSafeInteger(c.accountId) || c.accountId <= 0) return 'ACCOUNT_NOT_FOUND';
  if (st.accounts.has(c.accountId)) return 'ACCOUNT_EXISTS';
  if (!Number.isSafeInteger(c.initialBalance) || c.initialBalance < 0) return 'INVALID_AMOUNT';
  if (!Number.isSafeInteger(c.leverage) || c.leverage <= 0) return 'INVALID_AMOUNT';
  const parentId = c.parentId ?? null;
  if (parentId !== null) {
    // A sub-account hangs under a main account of the same type and currency and starts empty.
    const parent = st.accounts.get(parentId);
    if (parent === undefined || parent.parentId !== null) return 'ACCOUNT_NOT_FOUND';
    if (parent.closed) return 'ACCOUNT_CLOSED';
    if (!c.purpose || parent.type !== c.accountType || parent.currency !== c.currency)
      return 'INVALID_AMOUNT';
    if (c.initialBalance !== 0) return 'INVALID_AMOUNT';
  } else if (c.purpose) return 'INVALID_AMOUNT';
  const account = registerAccount(st, {
    id: c.accountId,
    slot: 0,
    type: c.accountType,
    tradeType: c.tradeType,
    currency: c.currency,
    leverage: c.leverage,
    balance: 0,
    followEquity: 0,
    strategyEquity: 0,
    initMoney: c.initialBalance,
    totalIn: 0,
    totalOut: 0,
    marginCallBp: c.marginCallBp ?? DEFAULT_MARGIN_CALL_BP,
    stopOutBp: c.stopOutBp ?? DEFAULT_STOP_OUT_BP,
    nbp:
      c.negativeBalanceProtection ??
      (c.accountType === AccountType.REAL || c.accountType === AccountType.EXPERIENCE),
    restrictions: { ...NO_RESTRICTIONS, ...c.restrictions },
    closed: false,
    profile: c.profile ?? null,
    parentId,
    purpose: parentId === null ? null : (c.purpose ?? null),
    children: [],
    positions: [],
    orders: new Set(),
    copy: null,
    followers: null,
    followersPaused: false,
    leaderSuspended: false,
    bot: null,
  });
  if (parentId !== null) st.accounts.get(parentId)?.children.push(account);
  emit(st, { type: 'account_created', accountId: account.id, time: st.now });
  const counter =
    c.accountType === AccountType.DEMO ? LedgerAccount.BROKER_DEMO_CREDIT : LedgerAccount.EXTERNAL_FUNDING;
  post(st, account, 'initial_balance', c.initialBalance, counter, null);
  return null;
}

/** Gives an account its risk-book slot and indexes it. */
export function registerAccount(st: EngineState, account: Account): Account {
  const slot = st.risk.addSlot();
  account.slot = slot;
  st.accounts.set(account.id, account);
  st.accountsBySlot[slot] = account;
  st.risk.marginCallBp[slot] = account.marginCallBp;
  st.risk.stopOutBp[slot] = account.stopOutBp;
  syncRisk(st, account);
  return account;
}

/** The broker changed the account group's margin-call and stop-out levels or its protection. */
export function setLevels(st: EngineState, account: Account, c: TSetLevelsCommand): TOutcome<null> {
  const { marginCallBp, stopOutBp } = c;
  if (!Number.isSafeInteger(marginCallBp) || !Number.isSafeInteger(stopOutBp)) return 'INVALID_AMOUNT';
  if (stopOutBp < 0 || marginCallBp <= stopOutBp) return 'INVALID_AMOUNT';
  account.marginCallBp = marginCallBp;
  account.stopOutBp = stopOutBp;
  account.nbp = c.negativeBalanceProtection;
  st.risk.marginCallBp[account.slot] = marginCallBp;
  st.risk.stopOutBp[account.slot] = stopOutBp;
  syncRisk(st, account);
  emit(st, { type: 'account_settings_changed', accountId: account.id, time: st.now });
  return null;
}

/** Deposit, withdrawal or balance adjustment (a demo reset among them). */
export function balanceOperation(st: EngineState, account: Account, c: TBalanceCommand): TOutcome<null> {
  if (c.type === 'adjust_balance') {
    if (!Number.isSafeInteger(c.amount) || c.amount === 0) return 'INVALID_AMOUNT';
    if (account.balance + c.amount < 0) return 'INSUFFICIENT_FUNDS';
    if (c.demoReset) {
      if (account.type !== AccountType.DEMO) return 'INVALID_AMOUNT';
      post(st, account, 'adjustment', c.amount, LedgerAccount.BROKER_DEMO_CREDIT, null);
      return null;
    }
    // Money the broker puts in or takes out is paid in or out, like a deposit or a withdrawal, so
    // the spec 5 account profit stays the trading result (signs as for deposits: in negative).
    if (c.amount > 0) account.totalIn -= c.amount;
    else account.totalOut -= c.amount;
    post(st, account, 'adjustment', c.amount, LedgerAccount.BROKER_ADJUSTMENT, null);
    return null;
  }
  if (!isAmount(c.amount)) return 'INVALID_AMOUNT';
  if (c.type === 'deposit') {
    if (
      account.type === AccountType.EXPERIENCE &&
      c.amount > st.experienceCap - totalEquity(figuresOf(st, account))
    )
      return 'DEPOSIT_CAP_EXCEEDED';
    account.totalIn -= c.amount;
    post(st, account, 'deposit', c.amount, LedgerAccount.EXTERNAL_FUNDING, null);
    return null;
  }
  const denied = checkRestriction(account.restrictions, 'withdraw');
  if (denied) return denied;
  if (c.amount > account.balance || c.amount > usableMargin(figuresOf(st, account)))
    return 'INSUFFICIENT_FUNDS';
  // Held from the request: the money leaves the balance at once and waits in the hold account until
  // it is paid out (settled) or given back (released).
  account.totalOut += c.amount;
  post(st, account, 'withdrawal', -c.amount, LedgerAccount.BROKER_WITHDRAWAL_HOLD, null);
  return null;
}

/** A held withdrawal goes back to the balance (rejected, failed, cancelled) or out to the payee. */
export function withdrawalStep(st: EngineState, account: Account, c: TWithdrawalStepCommand): TOutcome<null> {
  if (!isAmount(c.amount)) return 'INVALID_AMOUNT';
  if (c.type === 'release_withdrawal') {
    account.totalOut -= c.amount;
    post(st, account, 'withdrawal_release', c.amount, LedgerAccount.BROKER_WITHDRAWAL_HOLD, null);
    return null;
  }
  const fee = c.fee ?? 0;
  if (!Number.isSafeInteger(fee) || fee < 0 || fee > c.amount) return 'INVALID_AMOUNT';
  // Hold to payee (and the fee to the broker): the trader's balance does not move again.
  emit(st, {
    type: 'ledger',
    txId: st.nextTxId++,
    accountId: account.id,
    kind: 'withdrawal_settled',
    currency: account.currency,
    postings: [
      { ledgerAccount: LedgerAccount.BROKER_WITHDRAWAL_HOLD, amount: -c.amount },
      { ledgerAccount: LedgerAccount.EXTERNAL_FUNDING, amount: c.amount - fee },
      ...(fee > 0 ? [{ ledgerAccount: LedgerAccount.BROKER_FUNDING_FEES, amount: fee }] : []),
    ],
    balanceAfter: account.balance,
    positionId: null,
    time: st.now,
  });
  return null;
}

/** Coins into an experience account: paid in (not profit), within the experience deposit cap. */
export function coinCredit(st: EngineState, account: Account, c: TCoinCreditCommand): TOutcome<null> {
  if (!isAmount(c.amount)) return 'INVALID_AMOUNT';
  if (account.type !== AccountType.EXPERIENCE) return 'INVALID_AMOUNT';
  if (c.amount > st.experienceCap - totalEquity(figuresOf(st, account))) return 'DEPOSIT_CAP_EXCEEDED';
  account.totalIn -= c.amount;
  post(st, account, 'coin_exchange', c.amount, LedgerAccount.BROKER_COINS, null);
  return null;
}

const TRANSFER_DIRECTIONS: Record<TTransferType, { out: boolean; purpose: 'copy' | 'strategy' }> = {
  transfer_follow_out: { out: true, purpose: 'copy' },
  transfer_follow_in: { out: false, purpose: 'copy' },
  transfer_strategy_out: { out: true, purpose: 'strategy' },
  transfer_strategy_in: { out: false, purpose: 'strategy' },
};

/**
 * Moves money between a main account and its sub-account as one ledger transaction with a leg on
 * each (two ledger events sharing the transaction id). Only from the paying account's free margin.
 * The main account's profit is untouched (the money stays in its total equity through the
 * sub-account); for the sub-account it is paid in or out.
 */
export function transfer(st: EngineState, from: Account, c: TTransferCommand): TOutcome<null> {
  if (!isAmount(c.amount)) return 'INVALID_AMOUNT';
  const to = st.accounts.get(c.toAccountId);
  if (to === undefined || to.id === from.id) return 'ACCOUNT_NOT_FOUND';
  if (to.closed) return 'ACCOUNT_CLOSED';
  const direction = TRANSFER_DIRECTIONS[c.transferType];
  if (direction === undefined) return 'INVALID_AMOUNT';
  const [main, sub] = direction.out ? [from, to] : [to, from];
  if (sub.parentId !== main.id || sub.purpose !== direction.purpose) return 'ACCOUNT_NOT_FOUND';
  if (c.amount > from.balance || c.amount > usableMargin(figuresOf(st, from))) return 'INSUFFICIENT_FUNDS';
  if (direction.out) sub.totalIn -= c.amount;
  else sub.totalOut += c.amount;
  const txId = st.nextTxId++;
  for (const [account, amount] of [
    [from, -c.amount],
    [to, c.amount],
  ] as const) {
    account.balance += amount;
    syncRisk(st, account);
    emit(st, {
      type: 'ledger',
      txId,
      accountId: account.id,
      kind: c.transferType,
      currency: account.currency,
      postings: [{ ledgerAccount: traderLedgerAccount(account.id), amount }],
      balanceAfter: account.balance,
      positionId: null,
      time: st.now,
    });
  }
  return null;
}

/** Account cancellation: closes every position (reason 7), cancels every order, refuses anything after. */
export function closeAccount(st: EngineState, account: Account): TOutcome<null> {
  for (const p of account.positions) {
    const error = validateClosing(p.sym.terms, st.now);
    if (error) return error;
  }
  for (const p of [...account.positions].sort((a, b) => a.ticket - b.ticket))
    closePosition(st, p, p.volume, CloseReason.ACCOUNT_CANCELLATION);
  for (const order of [...account.orders].sort((a, b) => a.ticket - b.ticket))
    removeOrder(st, order, 'account_closed');
  // settle a negative balance now: the account will not be margin-checked again
  if (account.nbp && account.balance < 0)
    post(st, account, 'negative_balance_protection', -account.balance, LedgerAccount.BROKER_NBP, null);
  account.closed = true;
  emit(st, { type: 'account_closed', accountId: account.id, time: st.now });
  return null;
}

export function setRestrictions(st: EngineState, account: Account, c: TSetRestrictionsCommand): null {
  account.restrictions = { ...c.restrictions };
  emit(st, {
    type: 'restrictions_changed',
    accountId: account.id,
    restrictions: { ...account.restrictions },
    time: st.now,
  });
  return null;
}

export function setAccountProfile(st: EngineState, account: Account, c: TSetProfileCommand): TOutcome<null> {
  if (account.positions.length > 0 || account.orders.size > 0) return 'ACCOUNT_HAS_OPEN_TRADES';
  account.profile = c.profile;
  emit(st, { type: 'account_settings_changed', accountId: account.id, time: st.now });
  return null;
}

export function setExternalEquity(
  st: EngineState,
  account: Account,
  c: TSetExternalEquityCommand,
): TOutcome<null> {
  if (!Number.isSafeInteger(c.followEquity) || !Number.isSafeInteger(c.strategyEquity))
    return 'INVALID_AMOUNT';
  account.followEquity = c.followEquity;
  account.strategyEquity = c.strategyEquity;
  syncRisk(st, account);
  emit(st, {
    type: 'external_equity_changed',
    accountId: account.id,
    followEquity: c.followEquity,
    strategyEquity: c.strategyEquity,
    time: st.now,
  });
  return null;
}

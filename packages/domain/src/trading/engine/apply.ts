/** Applying a command: idempotency, validation before any change, and the margin check after it. */
import {
  balanceOperation,
  closeAccount,
  coinCredit,
  createAccount,
  setAccountProfile,
  setExternalEquity,
  setLevels,
  setRestrictions,
  transfer,
  withdrawalStep,
} from './accounts';
import { fingerprint, idempotencyKeyOf, type TCommand, type TOutcome } from './commands';
import { pauseCopy, setCopy, setLeader, settleCopyFee, stopCopy } from './copy';
import type { TApplyResult, TEngineEvent } from './events';
import {
  cancelOrder,
  closeAll,
  closeCommand,
  modifyOrder,
  modifyPosition,
  openMarket,
  placePending,
} from './order-entry';
import { rollover } from './rollover';
import type { EngineState } from './state';
import { startStrategy, stopStrategy } from './strategy/run';
import { checkMargins, followLeaders, followStrategies } from './triggers';

/** The fingerprint recorded when this command's key was applied (no recomputing), else its own. */
export function recordedFingerprint(st: EngineState, command: TCommand): string {
  return st.idempotency.get(idempotencyKeyOf(command))?.fingerprint ?? fingerprint(command);
}

/**
 * The result a repeated key answers: the first result, except that a leader's command keeps only its
 * own events, not its followers' copies (theirs to see, and a thousand of them would stay in memory).
 */
export function recordedResult(st: EngineState, command: TCommand): TApplyResult | undefined {
  return st.idempotency.get(idempotencyKeyOf(command))?.result;
}

/** Applies one command. A repeated client key returns the first result and changes nothing. */
export function applyCommand(st: EngineState, command: TCommand): TApplyResult {
  const key = idempotencyKeyOf(command);
  const print = fingerprint(command);
  const prior = st.idempotency.get(key);
  if (prior !== undefined)
    return prior.fingerprint === print ? prior.result : { ok: false, error: 'IDEMPOTENCY_CONFLICT' };
  st.now = command.time;
  st.out = null;
  st.risk.begin();
  let ticket: number | null = null;
  const outcome = execute(st, command);
  let result: TApplyResult;
  let kept: TApplyResult;
  if (typeof outcome === 'string') {
    result = { ok: false, error: outcome };
    kept = result;
  } else {
    ticket = outcome;
    checkMargins(st);
    const own = eventsSoFar(st).length;
    followLeaders(st);
    followStrategies(st, null, undefined);
    const events = eventsSoFar(st);
    result = { ok: true, events, ticket };
    kept = events.length > own ? { ok: true, events: events.slice(0, own), ticket } : result;
  }
  st.out = null;
  st.idempotency.set(key, { fingerprint: print, result: kept });
  return result;
}

/** The events of the command being applied so far (read through a call: the parts append to them). */
function eventsSoFar(st: EngineState): TEngineEvent[] {
  return st.out ?? [];
}

/** Validates everything first and only then changes state: an error leaves the engine untouched. */
function execute(st: EngineState, command: TCommand): TOutcome<number | null> {
  if (command.type === 'create_account') return createAccount(st, command);
  if (command.type === 'rollover') return rollover(st);
  const account = st.accounts.get(command.accountId);
  if (account === undefined) return 'ACCOUNT_NOT_FOUND';
  // A cancelled account's last withdrawal still settles or comes back to it.
  if (account.closed && command.type !== 'release_withdrawal' && command.type !== 'settle_withdrawal')
    return 'ACCOUNT_CLOSED';
  switch (command.type) {
    case 'open_market':
      return openMarket(st, account, command);
    case 'place_pending':
      return placePending(st, account, command);
    case 'modify_position':
      return modifyPosition(st, account, command);
    case 'modify_order':
      return modifyOrder(st, account, command);
    case 'cancel_order':
      return cancelOrder(st, account, command);
    case 'close_position':
      return closeCommand(st, account, command);
    case 'close_all':
      return closeAll(st, account, command);
    case 'deposit':
    case 'withdraw':
    case 'adjust_balance':
      return balanceOperation(st, account, command);
    case 'set_restrictions':
      return setRestrictions(st, account, command);
    case 'set_levels':
      return setLevels(st, account, command);
    case 'set_profile':
      return setAccountProfile(st, account, command);
    case 'set_external_equity':
      return setExternalEquity(st, account, command);
    case 'close_account':
      return closeAccount(st, account);
    case 'transfer':
      return transfer(st, account, command);
    case 'release_withdrawal':
    case 'settle_withdrawal':
      return withdrawalStep(st, account, command);
    case 'coin_credit':
      return coinCredit(st, account, command);
    case 'set_copy':
      return setCopy(st, account, command);
    case 'stop_copy':
      return stopCopy(st, account, command);
    case 'pause_copy':
    case 'resume_copy':
      return pauseCopy(st, account, command);
    case 'set_leader':
      return setLeader(st, account, command);
    case 'settle_copy_fee':
      return settleCopyFee(st, account);
    case 'start_strategy':
      return startStrategy(st, account, command);
    case 'stop_strategy':
      return stopStrategy(st, account, command);
  }
}

/**
 * Copy trading inside the single writer: copy relations (a follower's copy sub-account copying a
 * leader's main account), their commands, and the followers' side of every leader trade, applied in
 * the same engine step as the leader's so that both are committed together.
 *
 * After a command or a tick has run (and its margin checks), `copyFollowers` walks the step's events:
 * a leader's position opened (market order or pending fill) is copied to each follower, sized by the
 * relation's mode; a leader's close (full or partial, whatever its reason: manual, stop-out,
 * take-profit, account closed) closes the linked copies in proportion with close reason 4; a leader's
 * take-profit/stop-loss change is copied onto the copies when the relation copies stops. Whatever a
 * follower does not copy is reported as a `copy_skipped` event with its reason. Copies link to the
 * leader's position by `parentTicket`; a copy whose leader position is gone is always closed or
 * unlinked in the same step.
 */
import { usableMargin } from '../calculations';
import { tierLeverage } from '../instrument-terms';
import { convert, marginMinor, mulDiv } from '../money';
import {
  CloseReason,
  minDistance,
  type TSide,
  validateClosing,
  validateOpening,
  validateStops,
  validateTrailing,
} from '../orders';
import type {
  TCopySettings,
  TOutcome,
  TPauseCopyCommand,
  TSetCopyCommand,
  TSetLeaderCommand,
  TStopCopyCommand,
} from './commands';
import { COPY_MODES } from './commands';
import type {
  TCopyRelationView,
  TCopySkipReason,
  TCopyStatus,
  TCopyStopReason,
  TPositionView,
} from './events';
import { LedgerAccount, traderLedgerAccount } from './ledger';
import { converterFor, stateFor } from './market';
import { marginAllows, openingCosts } from './order-entry';
import {
  addPositionTriggers,
  closePosition,
  openPosition,
  removePositionTriggers,
  unlinkCopy,
} from './positions';
import {
  type Account,
  type CopyRelation,
  type EngineState,
  emit,
  type Position,
  type SymbolState,
} from './state';
import { figuresOf, positionView, riskEquity, syncCopyThresholds, syncRisk } from './views';

/** The leader's trade a follower copies: a position just opened, or open when the relation starts. */
type TLeaderTrade = Pick<
  TPositionView,
  | 'positionId'
  | 'accountId'
  | 'symbol'
  | 'side'
  | 'volume'
  | 'openPrice'
  | 'takeProfit'
  | 'stopLoss'
  | 'trailingStop'
>;

const isCount = (value: number) => Number.isSafeInteger(value) && value > 0;
const nullOr = (value: number | null | undefined, valid: (v: number) => boolean) =>
  value === undefined || value === null || valid(value);

/** The command's settings with their defaults, or null when one is out of range. */
function settingsOf(c: TSetCopyCommand): TCopySettings | null {
  if (!COPY_MODES.includes(c.mode)) return null;
  const value = c.modeValue;
  const valueValid =
    c.mode === 'equity'
      ? value === 0
      : c.mode === 'ratio'
        ? isCount(value) && value <= 1_000_000
        : isCount(value);
  if (!valueValid) return null;
  if (
    !nullOr(c.maxVolume, isCount) ||
    !nullOr(c.maxPositions, isCount) ||
    !nullOr(c.maxSlippagePoints, (v) => Number.isSafeInteger(v) && v >= 0) ||
    !nullOr(c.stopLossBp, (v) => isCount(v) && v <= 10_000) ||
    !nullOr(c.takeProfitBp, (v) => isCount(v) && v <= 1_000_000) ||
    !nullOr(c.feeBp, (v) => Number.isSafeInteger(v) && v >= 0 && v <= MAX_FEE_BP)
  )
    return null;
  return {
    mode: c.mode,
    modeValue: value,
    maxVolume: c.maxVolume ?? null,
    maxPositions: c.maxPositions ?? null,
    maxSlippagePoints: c.maxSlippagePoints ?? null,
    stopLossBp: c.stopLossBp ?? null,
    takeProfitBp: c.takeProfitBp ?? null,
    copyStops: c.copyStops ?? true,
    copyExisting: c.copyExisting ?? false,
    feeBp: c.feeBp ?? 0,
  };
}

/** The highest performance fee: 30 % of the profit above the high-water mark. */
export const MAX_FEE_BP = 3_000;

export function relationView(
  relation: CopyRelation,
  status: TCopyStatus = relation.paused ? 'paused' : 'active',
  stopReason: TCopyStopReason | null = null,
): TCopyRelationView {
  return {
    accountId: relation.follower.id,
    leaderAccountId: relation.leader.id,
    ...relation.settings,
    status,
    stopReason,
    createdAt: relation.createdAt,
    updatedAt: relation.updatedAt,
    hwm: relation.hwm,
    feesPaid: relation.feesPaid,
  };
}

function emitRelation(
  st: EngineState,
  relation: CopyRelation,
  status?: TCopyStatus,
  stopReason: TCopyStopReason | null = null,
): void {
  emit(st, {
    type: 'copy_relation_changed',
    accountId: relation.follower.id,
    relation: relationView(relation, status, stopReason),
    time: st.now,
  });
}

function skip(
  st: EngineState,
  relation: CopyRelation,
  leaderPositionId: number,
  action: 'open' | 'close' | 'modify',
  reason: TCopySkipReason,
  volume: number | null = null,
): void {
  emit(st, {
    type: 'copy_skipped',
    accountId: relation.follower.id,
    leaderAccountId: relation.leader.id,
    leaderPositionId,
    action,
    reason,
    volume,
    time: st.now,
  });
}

/** Hooks a relation into the indexes: the copy account's, the leader's (copy-account id order), the engine's. */
export function attachRelation(st: EngineState, relation: CopyRelation): void {
  const { follower, leader } = relation;
  follower.copy = relation;
  const list = leader.followers ?? [];
  let at = list.length;
  while (at > 0 && list[at - 1]!.follower.id > follower.id) at--;
  list.splice(at, 0, relation);
  leader.followers = list;
  st.copyRelations.set(follower.id, relation);
  syncCopyThresholds(st, follower);
}

function detachRelation(st: EngineState, relation: CopyRelation): void {
  const { follower, leader } = relation;
  follower.copy = null;
  const list = leader.followers;
  if (list !== null) {
    const at = list.indexOf(relation);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) leader.followers = null;
  }
  st.copyRelations.delete(follower.id);
  syncCopyThresholds(st, follower);
}

// ---------------------------------------------------------------- commands

/**
 * Starts or changes the relation of a copy account. A new one needs a leader that is another
 * owner's main account of the same account type and trade type (spec 5: same mode), taking
 * followers, below its 1,000 followers, and a follower main account below its 10 leaders (spec 9),
 * all counted here in the single writer. With `copyExisting`, the leader's open positions are copied
 * at once (slippage measured from their open prices).
 */
export function setCopy(st: EngineState, follower: Account, c: TSetCopyCommand): TOutcome<null> {
  const settings = settingsOf(c);
  if (settings === null) return 'INVALID_AMOUNT';
  if (follower.purpose !== 'copy' || follower.parentId === null) return 'COPY_NOT_ALLOWED';
  const leader = st.accounts.get(c.leaderAccountId);
  if (leader === undefined) return 'ACCOUNT_NOT_FOUND';
  if (leader.closed) return 'ACCOUNT_CLOSED';
  if (leader.parentId !== null || leader.id === follower.parentId || leader.type !== follower.type)
    return 'COPY_NOT_ALLOWED';
  if (leader.tradeType !== follower.tradeType) return 'COPY_MODE_MISMATCH';
  const existing = follower.copy;
  if (existing !== null) {
    if (existing.leader !== leader) return 'COPY_NOT_ALLOWED';
    // whether the start copied open positions is history, and the fee terms are locked at the start
    existing.settings = {
      ...settings,
      copyExisting: existing.settings.copyExisting,
      feeBp: existing.settings.feeBp,
    };
    existing.updatedAt = st.now;
    syncCopyThresholds(st, follower);
    emitRelation(st, existing);
    return null;
  }
  if (leader.followersPaused || leader.leaderSuspended) return 'COPY_LEADER_PAUSED';
  if ((leader.followers?.length ?? 0) >= st.maxFollowers) return 'COPY_FOLLOWERS_LIMIT';
  const main = st.accounts.get(follower.parentId);
  let followed = 0;
  for (const child of main?.children ?? []) {
    if (child.copy === null) continue;
    if (child.copy.leader === leader) return 'COPY_ALREADY_FOLLOWING';
    followed++;
  }
  if (followed >= st.maxFollowedLeaders) return 'COPY_FOLLOWING_LIMIT';
  const relation: CopyRelation = {
    follower,
    leader,
    settings,
    paused: false,
    createdAt: st.now,
    updatedAt: st.now,
    openCopies: 0,
    // the mark starts at the copy account's profit so far: a leader is paid only for its own
    hwm: follower.balance + follower.totalIn + follower.totalOut,
    feesPaid: 0,
  };
  attachRelation(st, relation);
  emitRelation(st, relation);
  if (settings.copyExisting) {
    const open = [...leader.positions].sort((a, b) => a.ticket - b.ticket);
    for (const p of open) copyOpen(st, relation, positionView(p));
  }
  return null;
}

/** The copy account's linked copies, in ticket order. */
function copiesOf(relation: CopyRelation): Position[] {
  return relation.follower.positions
    .filter((p) => p.parentTicket !== null)
    .sort((a, b) => a.ticket - b.ticket);
}

/**
 * Ends a copy account's relation at the follower's request: its copies are closed at the market with
 * close reason 4 (like any close the follower asks for: their markets open, the account allowed to
 * close), or kept, unlinked, as the follower's own positions.
 */
export function stopCopy(st: EngineState, follower: Account, c: TStopCopyCommand): TOutcome<null> {
  const relation = follower.copy;
  if (relation === null) return 'COPY_NOT_FOUND';
  const copies = copiesOf(relation);
  if (c.closePositions && copies.length > 0) {
    if (follower.restrictions.noClose) return 'ACCOUNT_RESTRICTED';
    for (const p of copies) {
      const error = validateClosing(p.sym.terms, st.now);
      if (error) return error;
      if (!p.sym.hasQuote || p.bucket.converter.rates === undefined) return 'NO_PRICE';
    }
  }
  relation.updatedAt = st.now;
  endRelation(st, relation, c.closePositions ? 'client_close' : 'client_keep', c.closePositions);
  return null;
}

/** Pause copies nothing new; the copies open follow the leader's closes and changes still. */
export function pauseCopy(st: EngineState, follower: Account, c: TPauseCopyCommand): TOutcome<null> {
  const relation = follower.copy;
  if (relation === null) return 'COPY_NOT_FOUND';
  const paused = c.type === 'pause_copy';
  if (relation.paused === paused) return null;
  relation.paused = paused;
  relation.updatedAt = st.now;
  emitRelation(st, relation);
  return null;
}

/** A leader's main account stops or resumes taking new followers. */
export function setLeader(st: EngineState, account: Account, c: TSetLeaderCommand): TOutcome<null> {
  if (account.parentId !== null) return 'COPY_NOT_ALLOWED';
  const suspended = c.suspended ?? account.leaderSuspended;
  if (account.followersPaused === c.followersPaused && account.leaderSuspended === suspended) return null;
  account.followersPaused = c.followersPaused;
  account.leaderSuspended = suspended;
  emit(st, { type: 'account_settings_changed', accountId: account.id, time: st.now });
  return null;
}

/**
 * The leader's performance fee of a copy account (see `TSettleCopyFeeCommand`): profit before fees
 * P = balance − allocated + fees paid, where allocated = money moved in − money moved out. Above the
 * mark, fee = floor((P − mark) × feeBp / 10,000), at most what the copy account's free margin and
 * balance allow; the mark rises to P when the whole fee was paid, else by the profit paid for. The
 * fee is one ledger transaction: a leg on the copy account and one (converted to its currency, at
 * the engine's rate) on the leader's.
 */
export function settleCopyFee(st: EngineState, follower: Account): TOutcome<null> {
  const relation = follower.copy;
  if (relation === null) return 'COPY_NOT_FOUND';
  return chargeFee(st, relation, 'period');
}

/** The fee settlement of a relation (see `settleCopyFee`), weekly or as the relation ends. */
function chargeFee(st: EngineState, relation: CopyRelation, reason: 'period' | 'stop'): TOutcome<null> {
  const follower = relation.follower;
  const leader = relation.leader;
  const allocated = -follower.totalIn - follower.totalOut;
  const profit = follower.balance - allocated + relation.feesPaid;
  const markBefore = relation.hwm;
  const bp = relation.settings.feeBp;
  let fee = 0;
  let credited = 0;
  let markAfter = markBefore;
  let txId: number | null = null;
  if (profit > markBefore && bp > 0) {
    const due = mulDiv(profit - markBefore, bp, 10_000, 'floor');
    const payable = Math.max(0, Math.min(follower.balance, usableMargin(figuresOf(st, follower))));
    fee = Math.min(due, payable);
    if (leader.currency !== follower.currency) {
      const rates = converterFor(st, follower.currency, leader.currency)?.rates;
      if (rates === undefined) return 'NO_PRICE';
      credited = convert(fee, rates);
    } else credited = fee;
    markAfter = fee === due ? profit : markBefore + mulDiv(fee, 10_000, bp, 'floor');
    if (fee > 0) {
      txId = st.nextTxId++;
      const legs = [
        [follower, -fee],
        [leader, credited],
      ] as const;
      for (const [account, amount] of legs) {
        account.balance += amount;
        syncRisk(st, account);
        emit(st, {
          type: 'ledger',
          txId,
          accountId: account.id,
          kind: 'copy_fee',
          currency: account.currency,
          // across currencies each leg balances against the broker's conversion account
          postings:
            leader.currency === follower.currency
              ? [{ ledgerAccount: traderLedgerAccount(account.id), amount }]
              : [
                  { ledgerAccount: traderLedgerAccount(account.id), amount },
                  { ledgerAccount: LedgerAccount.BROKER_CONVERSION, amount: -amount },
                ],
          balanceAfter: account.balance,
          positionId: null,
          time: st.now,
        });
      }
    }
  }
  emit(st, {
    type: 'copy_fee_settled',
    accountId: follower.id,
    leaderAccountId: leader.id,
    reason,
    profit,
    markBefore,
    markAfter,
    fee,
    credited,
    ledgerTxId: txId,
    time: st.now,
  });
  if (markAfter !== markBefore || fee > 0) {
    relation.hwm = markAfter;
    relation.feesPaid += fee;
    relation.updatedAt = st.now;
    syncCopyThresholds(st, follower);
    emitRelation(st, relation);
  }
  return null;
}

/**
 * Closes (reason 4) or unlinks every copy of a relation, then removes it. Closes are the engine's here
 * (copy stop-loss, take-profit): they ignore sessions and restrictions like a stop-out; a copy that
 * cannot be priced is unlinked rather than left pointing at nothing.
 */
function endRelation(st: EngineState, relation: CopyRelation, reason: TCopyStopReason, close: boolean): void {
  for (const p of copiesOf(relation)) {
    if (close && p.sym.hasQuote && p.bucket.converter.rates !== undefined)
      closePosition(st, p, p.volume, CloseReason.COPY_TRADE);
    else unlinkCopy(st, p);
  }
  // the leader's fee on what the copy realised, closes included (spec: at unfollow); not when an
  // account closed (the leader's can take nothing; the follower's is being paid out)
  if (reason !== 'leader_closed' && reason !== 'follower_closed') chargeFee(st, relation, 'stop');
  detachRelation(st, relation);
  emitRelation(st, relation, 'stopped', reason);
}

/** After a margin check found the copy account's copy stop-loss or take-profit reached. */
export function stopOnThreshold(st: EngineState, account: Account): void {
  const relation = account.copy;
  if (relation === null) return;
  const below = riskEquity(st, account) < st.risk.copyStopEquity[account.slot]!;
  relation.updatedAt = st.now;
  endRelation(st, relation, below ? 'stop_loss' : 'take_profit', true);
}

// ---------------------------------------------------------------- following the leader

/**
 * Applies the followers' side of the leader trades among the events of the step so far (see the
 * file comment). Copies are followers' events: they never lead, so one pass is enough.
 */
export function copyFollowers(st: EngineState): void {
  const out = st.out;
  if (out === null) return;
  const end = out.length;
  for (let i = 0; i < end; i++) {
    const event = out[i]!;
    switch (event.type) {
      case 'position_opened': {
        const followers = st.accounts.get(event.position.accountId)?.followers;
        if (followers) for (const relation of followers) copyOpen(st, relation, event.position);
        break;
      }
      case 'position_closed':
        if (st.copiesByParent.has(event.positionId))
          copyClose(st, event.positionId, event.volume, event.volume + event.remainingVolume);
        break;
      case 'position_modified':
        if (st.copiesByParent.has(event.positionId))
          copyStops(st, event.positionId, event.takeProfit, event.stopLoss, event.trailingStop ?? 0);
        break;
      case 'account_closed': {
        const account = st.accounts.get(event.accountId);
        if (account?.copy) endRelation(st, account.copy, 'follower_closed', true);
        if (account?.followers)
          for (const relation of [...account.followers]) endRelation(st, relation, 'leader_closed', true);
        break;
      }
      default:
        break;
    }
  }
}

/** Rounds a volume down onto the symbol's steps (min + k x step); below the minimum gives 0. */
function onSteps(volume: number, minVolume: number, volumeStep: number): number {
  if (volume < minVolume) return 0;
  return minVolume + Math.floor((volume - minVolume) / volumeStep) * volumeStep;
}

/** Margin of one lot (100 hundredths) at `price`, at the leverage a position of `atVolume` gets. */
function marginPerLot(
  st: EngineState,
  account: Account,
  sym: SymbolState,
  price: number,
  atVolume: number,
): number | undefined {
  const terms = sym.terms;
  const rates = converterFor(st, terms.marginInQuote ? terms.quote : terms.base, account.currency)?.rates;
  if (rates === undefined) return undefined;
  const margin = marginMinor({
    volume: 100,
    contractSize: terms.contractSize,
    digits: terms.digits,
    price,
    marginInQuote: terms.marginInQuote,
    leverage: Math.min(account.leverage, tierLeverage(terms, atVolume)),
    conversion: rates,
  });
  return Math.max(margin, 1);
}

/** The volume the relation's mode makes of the leader's, before limits and steps; or why there is none. */
function scaledVolume(
  st: EngineState,
  relation: CopyRelation,
  trade: TLeaderTrade,
  sym: SymbolState,
  price: number,
): number | TCopySkipReason {
  const { mode, modeValue } = relation.settings;
  switch (mode) {
    case 'fixed_lot':
      return modeValue;
    case 'ratio':
      return mulDiv(trade.volume, modeValue, 10_000, 'floor');
    case 'equity': {
      const follower = relation.follower;
      const leader = relation.leader;
      const followerEquity = riskEquity(st, follower);
      let leaderEquity = riskEquity(st, leader);
      if (leader.currency !== follower.currency) {
        const rates = converterFor(st, leader.currency, follower.currency)?.rates;
        if (rates === undefined) return 'no_price';
        leaderEquity = convert(leaderEquity, rates);
      }
      if (followerEquity <= 0 || leaderEquity <= 0) return 'no_equity';
      return mulDiv(trade.volume, followerEquity, leaderEquity, 'floor');
    }
    case 'fixed_margin': {
      const perLot = marginPerLot(st, relation.follower, sym, price, 100);
      if (perLot === undefined) return 'no_price';
      const volume = mulDiv(modeValue, 100, perLot, 'floor');
      // a larger position may fall in a lower leverage tier: size it again at that tier's margin
      const tierPerLot = marginPerLot(st, relation.follower, sym, price, volume);
      if (tierPerLot === undefined) return 'no_price';
      return tierPerLot > perLot ? mulDiv(modeValue, 100, tierPerLot, 'floor') : volume;
    }
  }
}

/** Whether the account's restrictions forbid setting or moving these levels (removing is allowed). */
function stopsRestricted(
  account: Account,
  takeProfit: number | null,
  stopLoss: number | null,
  before: { takeProfit: number | null; stopLoss: number | null } | null,
): boolean {
  return (
    (takeProfit !== null && takeProfit !== before?.takeProfit && account.restrictions.noTakeProfit) ||
    (stopLoss !== null && stopLoss !== before?.stopLoss && account.restrictions.noStopLoss)
  );
}

/**
 * Copies one leader trade into one follower's copy account at the follower's own quote, or reports
 * why not. The checks are those of a market order (restrictions, symbol, session, volume, stops,
 * margin) plus the relation's own (paused, most copies open, most volume, slippage).
 */
function copyOpen(st: EngineState, relation: CopyRelation, trade: TLeaderTrade): void {
  const refusal = openCopy(st, relation, trade);
  if (refusal !== null) skip(st, relation, trade.positionId, 'open', refusal.reason, refusal.volume);
}

/** Why a copy was not opened, and the volume it had got to (if any). */
interface TRefusal {
  reason: TCopySkipReason;
  volume: number | null;
}

function refuse(reason: TCopySkipReason, volume: number | null = null): TRefusal {
  return { reason, volume };
}

/** Opens the copy; null when it did, else why not. */
function openCopy(st: EngineState, relation: CopyRelation, trade: TLeaderTrade): TRefusal | null {
  if (relation.leader.leaderSuspended) return refuse('leader_suspended');
  if (relation.paused) return refuse('paused');
  const settings = relation.settings;
  if (settings.maxPositions !== null && relation.openCopies >= settings.maxPositions)
    return refuse('max_positions');
  const follower = relation.follower;
  if (follower.restrictions.noOpen) return refuse('restricted');
  const sym = stateFor(st, follower, trade.symbol);
  if (sym === undefined) return refuse('symbol_unavailable');
  const side: TSide = trade.side;
  const opening = validateOpening(sym.terms, side, st.now);
  if (opening !== null) return refuse(opening === 'MARKET_CLOSED' ? 'market_closed' : 'symbol_unavailable');
  if (!sym.hasQuote) return refuse('no_price');
  const price = side === 'buy' ? sym.ask : sym.bid;
  const scaled = scaledVolume(st, relation, trade, sym, price);
  if (typeof scaled === 'string') return refuse(scaled);
  const terms = sym.terms;
  const cap = Math.min(terms.maxVolume, settings.maxVolume ?? terms.maxVolume);
  const volume = onSteps(Math.min(scaled, cap), terms.minVolume, terms.volumeStep);
  if (volume === 0) return refuse(scaled < terms.minVolume ? 'below_min_volume' : 'max_volume', scaled);
  if (settings.maxSlippagePoints !== null) {
    const worse = side === 'buy' ? price - trade.openPrice : trade.openPrice - price;
    if (worse > settings.maxSlippagePoints) return refuse('slippage', volume);
  }
  const takeProfit = settings.copyStops ? trade.takeProfit : null;
  const stopLoss = settings.copyStops ? trade.stopLoss : null;
  // A copy of a trailing position trails by the same distance from its own price.
  const trailing = settings.copyStops ? (trade.trailingStop ?? 0) : 0;
  if (
    stopsRestricted(follower, takeProfit, stopLoss, null) ||
    (trailing > 0 && follower.restrictions.noStopLoss)
  )
    return refuse('restricted', volume);
  const stopsError =
    validateStops({
      side,
      reference: side === 'buy' ? sym.bid : sym.ask,
      takeProfit,
      stopLoss,
      distance: minDistance(terms),
    }) ?? validateTrailing(terms, trailing);
  if (stopsError) return refuse('invalid_stops', volume);
  const costs = openingCosts(st, follower, sym, side, volume, price);
  if (typeof costs === 'string') return refuse('no_price', volume);
  const marginError = marginAllows(st, follower, costs);
  if (marginError !== null)
    return refuse(marginError === 'INSUFFICIENT_MARGIN' ? 'insufficient_margin' : 'margin_level', volume);
  const ticket = st.nextTicket++;
  openPosition(
    st,
    follower,
    sym,
    ticket,
    side,
    volume,
    price,
    takeProfit,
    stopLoss,
    costs,
    null,
    trade.positionId,
    null,
    trailing,
  );
  return null;
}

/** Closes a copy with close reason 4, or unlinks it when it cannot be priced (just after a restore). */
function closeCopy(st: EngineState, copy: Position, volume: number, leaderTicket: number): void {
  if (copy.sym.hasQuote && copy.bucket.converter.rates !== undefined) {
    closePosition(st, copy, volume, CloseReason.COPY_TRADE);
    return;
  }
  const relation = copy.account.copy;
  if (relation !== null) skip(st, relation, leaderTicket, 'close', 'no_price', volume);
  if (volume === copy.volume) unlinkCopy(st, copy);
}

/**
 * The leader closed `closed` of `before` hundredths of a lot of a position: each copy closes the same
 * share of its own volume, rounded down onto its steps; a copy whose rest would not be a valid volume
 * closes whole, and a share below the minimum is skipped (reported). A full close closes every copy.
 */
function copyClose(st: EngineState, leaderTicket: number, closed: number, before: number): void {
  const copies = st.copiesByParent.get(leaderTicket);
  if (copies === undefined) return;
  if (closed === before) {
    // the whole list goes at once (each close would otherwise search it)
    st.copiesByParent.delete(leaderTicket);
    for (const copy of copies) closeCopy(st, copy, copy.volume, leaderTicket);
    return;
  }
  for (const copy of [...copies]) {
    const terms = copy.sym.terms;
    const share = mulDiv(copy.volume, closed, before, 'floor');
    let volume = onSteps(share, terms.minVolume, terms.volumeStep);
    if (volume === 0) {
      const relation = copy.account.copy;
      if (relation !== null) skip(st, relation, leaderTicket, 'close', 'below_min_volume', share);
      continue;
    }
    const rest = copy.volume - volume;
    if (rest > 0 && onSteps(rest, terms.minVolume, terms.volumeStep) !== rest) volume = copy.volume;
    closeCopy(st, copy, volume, leaderTicket);
  }
}

/**
 * The leader moved a position's take-profit, stop-loss or trailing stop: the copies that copy stops
 * follow (a trailing stop's own moves are not copied: each copy trails from its own price).
 */
function copyStops(
  st: EngineState,
  leaderTicket: number,
  takeProfit: number | null,
  stopLoss: number | null,
  trailing: number,
): void {
  const copies = st.copiesByParent.get(leaderTicket);
  if (copies === undefined) return;
  for (const copy of copies) {
    const relation = copy.account.copy;
    if (relation === null || !relation.settings.copyStops) continue;
    if (copy.takeProfit === takeProfit && copy.stopLoss === stopLoss && copy.trailing === trailing) continue;
    const newTrailing = trailing > 0 && trailing !== copy.trailing;
    if (
      stopsRestricted(copy.account, takeProfit, stopLoss, copy) ||
      (newTrailing && copy.account.restrictions.noStopLoss)
    ) {
      skip(st, relation, leaderTicket, 'modify', 'restricted');
      continue;
    }
    const sym = copy.sym;
    const stopsError =
      validateStops({
        side: copy.side,
        reference: copy.side === 'buy' ? sym.bid : sym.ask,
        takeProfit,
        stopLoss,
        distance: minDistance(sym.terms),
      }) ?? validateTrailing(sym.terms, trailing);
    if (stopsError) {
      skip(st, relation, leaderTicket, 'modify', 'invalid_stops');
      continue;
    }
    removePositionTriggers(copy);
    copy.takeProfit = takeProfit;
    copy.stopLoss = stopLoss;
    copy.trailing = trailing;
    addPositionTriggers(copy);
    emit(st, {
      type: 'position_modified',
      positionId: copy.ticket,
      accountId: copy.account.id,
      takeProfit,
      stopLoss,
      trailingStop: trailing > 0 ? trailing : null,
      time: st.now,
    });
  }
}

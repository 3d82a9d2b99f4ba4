import type { TCopy, TCopyControls, TCopyMode } from '@broker/contracts/copy-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TCopySettings } from '@broker/domain/trading/engine/commands';
import type { TCopyRelationView } from '@broker/domain/trading/engine/events';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import { transferFunds } from '../funding';
import { userNames } from '../identity';
import {
  actorAccount,
  copySkipCounts,
  fromScaled,
  mainAccount,
  money,
  openSubAccount,
  storedCopyRelation,
  submitOrThrow,
  toScaled,
  traderOf,
  unitsToLots,
} from '../trading';
import { recordSettlements, settledOf } from './fees';
import { approvedLeader, bpPercent, percentBp } from './leaders';
import type { TCopyPorts } from './ports';

/** A user follows at most 10 traders (spec 9): the copy sub-account limit counts them too. */
export const FOLLOW_LIMIT = 10;

/** The mode's value as the engine takes it: hundredths of a lot, minor units, basis points, 0. */
export function modeValueOf(mode: TCopyMode, value: string): number {
  switch (mode) {
    case 'fixed_lot': {
      const units = toScaled(value, 2, 'value', 'volumeFormat');
      if (units <= 0 || units > 100_000) throw AppError.invalid({ value: 'volumeFormat' });
      return units;
    }
    case 'fixed_margin': {
      const minor = toScaled(value, 2, 'value', 'amountFormat');
      if (minor <= 0) throw AppError.invalid({ value: 'amountFormat' });
      return minor;
    }
    case 'ratio': {
      // a multiplier of the leader's volume, 0.01 to 100, as basis points
      const bp = toScaled(value, 4, 'value', 'ratioFormat');
      if (bp < 100 || bp > 1_000_000) throw AppError.invalid({ value: 'ratioRange' });
      return bp;
    }
    case 'equity':
      return 0;
  }
}

/** The value as the trader entered it, from the engine's integer. */
export function modeValueText(mode: TCopyMode, modeValue: number): string {
  switch (mode) {
    case 'fixed_lot':
      return unitsToLots(modeValue);
    case 'fixed_margin':
      return money(modeValue);
    case 'ratio':
      return fromScaled(modeValue, 4).replace(/\.?0+$/, '');
    case 'equity':
      return '0';
  }
}

/** The follower's controls as the engine's settings (null: no limit). */
export function controlsOf(controls: TCopyControls | undefined) {
  const c = controls ?? {};
  const maxVolume =
    c.maxVolume === undefined || c.maxVolume === null
      ? null
      : toScaled(c.maxVolume, 2, 'maxVolume', 'volumeFormat');
  if (maxVolume !== null && maxVolume <= 0) throw AppError.invalid({ maxVolume: 'volumeFormat' });
  const stopLossBp =
    c.stopLossPercent === undefined || c.stopLossPercent === null
      ? null
      : percentBp(c.stopLossPercent, 'stopLossPercent', 10_000);
  const takeProfitBp =
    c.takeProfitPercent === undefined || c.takeProfitPercent === null
      ? null
      : percentBp(c.takeProfitPercent, 'takeProfitPercent', 1_000_000);
  if (stopLossBp === 0) throw AppError.invalid({ stopLossPercent: 'percentRange' });
  if (takeProfitBp === 0) throw AppError.invalid({ takeProfitPercent: 'percentRange' });
  return {
    maxVolume,
    maxPositions: c.maxPositions ?? null,
    maxSlippagePoints: c.maxSlippagePoints ?? null,
    stopLossBp,
    takeProfitBp,
    copyStops: c.copyStops ?? true,
  };
}

/** A relation as stored (a stopped one is only in the database). */
async function storedRelation(ports: TCopyPorts, accountId: number): Promise<TCopyRelationView | undefined> {
  const running = ports.host.core.copyRelation(accountId);
  if (running) return running;
  let stored = await storedCopyRelation(ports.db, accountId);
  // gone from the engine but still running in the database: its end (a tick's copy stop-loss, say)
  // is being committed; answer what it committed
  if (stored && stored.status !== 'stopped') {
    await ports.host.idle();
    stored = await storedCopyRelation(ports.db, accountId);
  }
  return stored;
}

/** The copies (copy sub-accounts with a relation, running or stopped) as the trader sees them. */
async function copyViews(
  ports: TCopyPorts,
  tenantId: string,
  items: readonly { view: TAccountView; relation: TCopyRelationView }[],
): Promise<TCopy[]> {
  if (items.length === 0) return [];
  const leaderUsers = items.map((i) => ports.host.ownerOf(i.relation.leaderAccountId)?.userId ?? '');
  const names = await userNames(ports.db, { tenantId, ids: leaderUsers.filter(Boolean) });
  const skips = await copySkipCounts(
    ports.db,
    items.map((i) => i.view.accountId),
  );
  return items.map(({ view, relation }, i): TCopy => {
    const allocated = -view.totalInAmount - view.totalOutAmount;
    const copies = ports.host.core.positionsOf(view.accountId).filter((p) => p.parentTicket !== null);
    return {
      copy_account_id: view.accountId,
      account_id: view.parentId ?? 0,
      leader_id: relation.leaderAccountId,
      leaderNick: names.get(leaderUsers[i]!)?.name ?? '',
      currency: view.currency,
      status: relation.status,
      stopReason: relation.stopReason,
      mode: relation.mode,
      value: modeValueText(relation.mode, relation.modeValue),
      controls: {
        maxVolume: relation.maxVolume === null ? null : unitsToLots(relation.maxVolume),
        maxPositions: relation.maxPositions,
        maxSlippagePoints: relation.maxSlippagePoints,
        stopLossPercent: relation.stopLossBp === null ? null : bpPercent(relation.stopLossBp),
        takeProfitPercent: relation.takeProfitBp === null ? null : bpPercent(relation.takeProfitBp),
        copyStops: relation.copyStops,
      },
      allocated: money(allocated),
      balance: money(view.balance),
      equity: money(view.equity),
      profit: money(view.equity - allocated),
      feesPaid: money(relation.feesPaid),
      highWaterMark: money(relation.hwm),
      feePercent: bpPercent(relation.feeBp),
      openPositions: copies.length,
      withdrawable: money(Math.max(0, Math.min(view.balance, view.usableMargin))),
      skipped: skips.get(view.accountId) ?? 0,
      createdAt: new Date(relation.createdAt).toISOString(),
    };
  });
}

/** A copy account of the actor's trader with its relation (running, or stopped when `stopped`). */
async function ownCopy(ports: TCopyPorts, actor: TActor, copyAccountId: number) {
  const view = actorAccount(ports, actor, copyAccountId);
  if (view.purpose !== 'copy' || view.parentId === null) throw new AppError(AppErrorCode.COPY_NOT_FOUND);
  const relation = await storedRelation(ports, copyAccountId);
  if (!relation) throw new AppError(AppErrorCode.COPY_NOT_FOUND);
  return { view, relation };
}

export async function copyView(ports: TCopyPorts, actor: TActor, copyAccountId: number): Promise<TCopy> {
  const own = await ownCopy(ports, actor, copyAccountId);
  const fresh = { view: ports.host.core.account(copyAccountId) ?? own.view, relation: own.relation };
  const [copy] = await copyViews(ports, actor.tenantId, [fresh]);
  return copy!;
}

function audit(ports: TCopyPorts, actor: TActor, action: string, target: number, details: object) {
  return recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action,
    target: String(target),
    ip: actor.ip,
    details: { ...details, ...(actor.kind === 'user' ? {} : { onBehalfOf: actor.onBehalfOf }) },
  });
}

/**
 * followstart: a copy sub-account of the follower's main account (opened by the key), funded by
 * transfer_follow_out, then the relation with the leader's fee terms locked. Every step is keyed by
 * the request's idempotency key, so a retry finishes what a first attempt left and doubles nothing.
 * A relation the engine refuses (limits counted in the single writer) sends the money back and
 * closes the empty copy account.
 */
export async function startCopy(
  ports: TCopyPorts,
  input: {
    actor: TActor;
    account_id: number;
    leader_id: number;
    mode: TCopyMode;
    value: string;
    amount: string;
    controls?: TCopyControls | undefined;
    copyExisting?: boolean | undefined;
    idempotencyKey: string;
  },
): Promise<TCopy> {
  const userId = traderOf(input.actor);
  // spec 9 counts a user's followed traders over all their accounts: one start per user at a time
  const previous = starting.get(userId) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => startCopyNow(ports, input));
  starting.set(userId, run);
  try {
    return await run;
  } finally {
    if (starting.get(userId) === run) starting.delete(userId);
  }
}

const starting = new Map<string, Promise<unknown>>();

async function startCopyNow(ports: TCopyPorts, input: Parameters<typeof startCopy>[1]): Promise<TCopy> {
  const { actor } = input;
  const userId = traderOf(actor);
  const main = mainAccount(ports, actor, input.account_id);
  const { leader, view: leaderView } = await approvedLeader(ports, actor.tenantId, input.leader_id);
  if (leader.userId === userId) throw new AppError(AppErrorCode.COPY_NOT_ALLOWED);
  if (leaderView.accountType !== main.accountType) throw new AppError(AppErrorCode.COPY_NOT_ALLOWED);
  if (leaderView.tradeType !== main.tradeType) throw new AppError(AppErrorCode.COPY_MODE_MISMATCH);
  const modeValue = modeValueOf(input.mode, input.value);
  const controls = controlsOf(input.controls);
  const amount = toScaled(input.amount, 2, 'amount', 'amountFormat');
  if (amount <= 0) throw AppError.invalid({ amount: 'amountFormat' });
  if (leaderView.currency === main.currency && amount < leader.minCopyAmount)
    throw new AppError(AppErrorCode.COPY_AMOUNT_TOO_LOW);
  const key = `follow:${input.idempotencyKey}`;
  const following = ports.host
    .accountsOf(actor.tenantId, userId)
    .filter((id) => ports.host.core.copyRelation(id) !== undefined).length;
  const repeat = ports.host.accountForKey(`sub:${actor.tenantId}:${userId}:${main.accountId}:${key}`);
  if (following >= FOLLOW_LIMIT && repeat === undefined)
    throw new AppError(AppErrorCode.COPY_FOLLOWING_LIMIT);
  const sub = await openSubAccount(ports, {
    actor,
    accountId: main.accountId,
    purpose: 'copy',
    idempotencyKey: key,
  });
  const running = ports.host.core.copyRelation(sub.accountId);
  if (running) {
    if (running.leaderAccountId !== input.leader_id) throw new AppError(AppErrorCode.IDEMPOTENCY_CONFLICT);
    return copyView(ports, actor, sub.accountId);
  }
  try {
    await transferFunds(ports, {
      actor,
      type: 'transfer_follow_out',
      account_id: main.accountId,
      sub_account_id: sub.accountId,
      amount: input.amount,
      idempotencyKey: `${key}:fund`,
    });
  } catch (error) {
    // not funded (not enough free margin): the empty copy account is closed, not left counting
    if ((ports.host.core.account(sub.accountId)?.balance ?? 0) === 0)
      await submitOrThrow(ports.host, {
        type: 'close_account',
        clientKey: `${key}:unfunded`,
        time: Date.now(),
        accountId: sub.accountId,
      }).catch(() => undefined);
    throw error;
  }
  const settings: TCopySettings = {
    mode: input.mode,
    modeValue,
    ...controls,
    copyExisting: input.copyExisting ?? false,
    feeBp: leader.feeBp,
  };
  try {
    await submitOrThrow(ports.host, {
      type: 'set_copy',
      clientKey: key,
      time: Date.now(),
      accountId: sub.accountId,
      leaderAccountId: input.leader_id,
      ...settings,
    });
  } catch (error) {
    // refused (a limit reached meanwhile, the leader paused): the money goes back, the account closes
    const left = ports.host.core.account(sub.accountId)?.balance ?? 0;
    if (left > 0)
      await transferFunds(ports, {
        actor,
        type: 'transfer_follow_in',
        account_id: main.accountId,
        sub_account_id: sub.accountId,
        amount: money(left),
        idempotencyKey: `${key}:refund`,
      });
    await submitOrThrow(ports.host, {
      type: 'close_account',
      clientKey: `${key}:close`,
      time: Date.now(),
      accountId: sub.accountId,
    }).catch(() => undefined);
    throw error;
  }
  await audit(ports, actor, 'copy.follow.start', sub.accountId, {
    leader: input.leader_id,
    mode: input.mode,
    modeValue,
    amount,
    feeBp: leader.feeBp,
  });
  return copyView(ports, actor, sub.accountId);
}

/** followupdate: new mode and controls for a running copy (the leader and the fee terms stay). */
export async function updateCopy(
  ports: TCopyPorts,
  input: {
    actor: TActor;
    copy_account_id: number;
    mode: TCopyMode;
    value: string;
    controls?: TCopyControls | undefined;
  },
): Promise<TCopy> {
  const { actor } = input;
  const { relation } = await ownCopy(ports, actor, input.copy_account_id);
  if (relation.status === 'stopped') throw new AppError(AppErrorCode.COPY_NOT_FOUND);
  const modeValue = modeValueOf(input.mode, input.value);
  const controls = controlsOf(input.controls);
  await submitOrThrow(ports.host, {
    type: 'set_copy',
    clientKey: `update:${input.copy_account_id}:${crypto.randomUUID()}`,
    time: Date.now(),
    accountId: input.copy_account_id,
    leaderAccountId: relation.leaderAccountId,
    mode: input.mode,
    modeValue,
    ...controls,
  });
  await audit(ports, actor, 'copy.follow.update', input.copy_account_id, {
    mode: input.mode,
    modeValue,
    ...controls,
  });
  return copyView(ports, actor, input.copy_account_id);
}

/** followpause / followresume. */
export async function pauseCopy(
  ports: TCopyPorts,
  input: { actor: TActor; copy_account_id: number; pause: boolean },
): Promise<TCopy> {
  const { relation } = await ownCopy(ports, input.actor, input.copy_account_id);
  if (relation.status === 'stopped') throw new AppError(AppErrorCode.COPY_NOT_FOUND);
  await submitOrThrow(ports.host, {
    type: input.pause ? 'pause_copy' : 'resume_copy',
    clientKey: `${input.pause ? 'pause' : 'resume'}:${input.copy_account_id}:${crypto.randomUUID()}`,
    time: Date.now(),
    accountId: input.copy_account_id,
  });
  await audit(
    ports,
    input.actor,
    input.pause ? 'copy.follow.pause' : 'copy.follow.resume',
    input.copy_account_id,
    {},
  );
  return copyView(ports, input.actor, input.copy_account_id);
}

/**
 * followstop: the relation ends, closing the copies (reason 4) or keeping them as the follower's
 * own, and the engine settles the leader's fee in the same step on the realised profit. With no position left, the
 * whole balance goes back to the main account (transfer_follow_in) and the empty copy account is
 * closed; kept positions keep their money (take it back later with followfunds).
 */
export async function stopCopy(
  ports: TCopyPorts,
  input: { actor: TActor; copy_account_id: number; closePositions: boolean; idempotencyKey: string },
) {
  const { actor } = input;
  const { view, relation } = await ownCopy(ports, actor, input.copy_account_id);
  const key = `stop:${input.idempotencyKey}`;
  let fee = 0;
  if (relation.status !== 'stopped') {
    // the engine settles the leader's fee as the relation ends, on everything realised, closes included
    const result = await submitOrThrow(ports.host, {
      type: 'stop_copy',
      clientKey: key,
      time: Date.now(),
      accountId: view.accountId,
      closePositions: input.closePositions,
    });
    await recordSettlements(ports, result.events);
    fee = settledOf(result.events)?.fee ?? 0;
    await audit(ports, actor, 'copy.follow.stop', view.accountId, {
      leader: relation.leaderAccountId,
      closePositions: input.closePositions,
      fee,
    });
  }
  let returned = 0;
  const after = ports.host.core.account(view.accountId);
  if (after && !after.closed && ports.host.core.positionsOf(view.accountId).length === 0) {
    if (after.balance > 0) {
      await transferFunds(ports, {
        actor,
        type: 'transfer_follow_in',
        account_id: view.parentId ?? 0,
        sub_account_id: view.accountId,
        amount: money(after.balance),
        idempotencyKey: `${key}:return`,
      });
      returned = after.balance;
    }
    if ((ports.host.core.account(view.accountId)?.balance ?? 0) === 0)
      await submitOrThrow(ports.host, {
        type: 'close_account',
        clientKey: `${key}:close`,
        time: Date.now(),
        accountId: view.accountId,
      });
  }
  const copy = (
    await copyViews(ports, actor.tenantId, [
      {
        view: ports.host.core.account(view.accountId) ?? view,
        relation: (await storedRelation(ports, view.accountId)) ?? relation,
      },
    ])
  )[0]!;
  return { copy, returned: money(returned), fee: money(fee) };
}

/** followfunds: more money into a copy, or free money back out (a stopped copy with kept positions too). */
export async function moveCopyFunds(
  ports: TCopyPorts,
  input: {
    actor: TActor;
    copy_account_id: number;
    direction: 'add' | 'withdraw';
    amount: string;
    idempotencyKey: string;
  },
): Promise<TCopy> {
  const { actor } = input;
  const { view, relation } = await ownCopy(ports, actor, input.copy_account_id);
  if (input.direction === 'add' && relation.status === 'stopped')
    throw new AppError(AppErrorCode.COPY_NOT_FOUND);
  await transferFunds(ports, {
    actor,
    type: input.direction === 'add' ? 'transfer_follow_out' : 'transfer_follow_in',
    account_id: view.parentId ?? 0,
    sub_account_id: view.accountId,
    amount: input.amount,
    idempotencyKey: `funds:${input.idempotencyKey}`,
  });
  // a stopped copy whose kept positions are gone and whose money is back is closed (it no longer
  // counts among the main account's copy accounts)
  const after = ports.host.core.account(view.accountId);
  if (
    relation.status === 'stopped' &&
    after &&
    !after.closed &&
    after.balance === 0 &&
    ports.host.core.positionsOf(view.accountId).length === 0
  )
    await submitOrThrow(ports.host, {
      type: 'close_account',
      clientKey: `funds:${input.idempotencyKey}:close`,
      time: Date.now(),
      accountId: view.accountId,
    });
  return copyView(ports, actor, input.copy_account_id);
}

/** followmine: the trader's copies (running and paused; stopped ones too when asked). */
export async function myCopies(ports: TCopyPorts, input: { actor: TActor; includeStopped: boolean }) {
  const { actor } = input;
  const userId = traderOf(actor);
  const items: { view: TAccountView; relation: TCopyRelationView }[] = [];
  for (const id of ports.host.accountsOf(actor.tenantId, userId)) {
    const view = ports.host.core.account(id);
    if (view?.purpose !== 'copy') continue;
    const relation = await storedRelation(ports, id);
    if (!relation) continue;
    if (relation.status === 'stopped' && !input.includeStopped) continue;
    items.push({ view, relation });
  }
  items.sort((a, b) => b.relation.createdAt - a.relation.createdAt);
  const followed = items.filter((i) => i.relation.status !== 'stopped').length;
  return { items: await copyViews(ports, actor.tenantId, items), followed, limit: FOLLOW_LIMIT };
}

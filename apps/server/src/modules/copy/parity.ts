import type { TCopyControls, TCopyMode, TParity, TWhatIf } from '@broker/contracts/copy-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../actor';
import {
  accountDeals,
  accountLedger,
  actorAccount,
  copySkipsOf,
  fromScaled,
  mainAccount,
  money,
  storedCopyRelation,
  toScaled,
  traderOf,
  unitsToLots,
} from '../trading';
import { nextPeriodEnd } from './fees';
import { controlsOf, modeValueOf } from './follow';
import { approvedLeader, leaderStats } from './leaders';
import type { TCopyPorts } from './ports';
import { dayOf, dayText, percent, returnSince, tradesOf } from './stats';

type TSkipReason = NonNullable<TParity['trades'][number]['reason']>;

/**
 * The copy parity report (docs/copy-trading.md): every leader trade since the copy started, beside
 * what the copy did with it (the copy's volume, prices and result, the slippage) or why it did not
 * copy it; and a summary of why the two results differ.
 */
export async function parityReport(
  ports: TCopyPorts,
  input: { actor: TActor; copy_account_id: number; page: number; size: number },
): Promise<TParity> {
  const { actor } = input;
  const view = actorAccount(ports, actor, input.copy_account_id);
  if (view.purpose !== 'copy') throw new AppError(AppErrorCode.COPY_NOT_FOUND);
  const relation =
    ports.host.core.copyRelation(view.accountId) ?? (await storedCopyRelation(ports.db, view.accountId));
  if (!relation) throw new AppError(AppErrorCode.COPY_NOT_FOUND);
  const leaderId = relation.leaderAccountId;
  const since = relation.createdAt;
  const leaderView = ports.host.core.account(leaderId);
  const [leaderDeals, copyDeals, skips] = await Promise.all([
    accountDeals(ports.db, leaderId, since),
    accountDeals(ports.db, view.accountId, since),
    copySkipsOf(ports.db, view.accountId, since),
  ]);
  // the leader's trades: closed (grouped by position) and still open, opened since the copy started
  type TLeaderTrade = {
    positionId: number;
    symbol: string;
    side: 'buy' | 'sell';
    volume: number;
    openPrice: number;
    closePrice: number | null;
    openTime: number;
    closeTime: number | null;
    net: number | null;
  };
  const leaderTrades = new Map<number, TLeaderTrade>();
  for (const t of tradesOf(leaderDeals)) {
    leaderTrades.set(t.positionId, {
      positionId: t.positionId,
      symbol: t.symbol,
      side: t.side as 'buy' | 'sell',
      volume: t.volume,
      openPrice: t.openPrice,
      closePrice: t.closePrice,
      openTime: t.openTime,
      closeTime: t.closeTime,
      net: t.net,
    });
  }
  for (const p of ports.host.core.positionsOf(leaderId)) {
    const closedPart = leaderTrades.get(p.positionId);
    leaderTrades.set(p.positionId, {
      positionId: p.positionId,
      symbol: p.symbol,
      side: p.side,
      volume: p.volume + (closedPart?.volume ?? 0),
      openPrice: p.openPrice,
      closePrice: null,
      openTime: p.openTime,
      closeTime: null,
      net: null,
    });
  }
  // the copies by their leader position: closed parts and open rests
  type TCopyTrade = {
    volume: number;
    openPrice: number;
    closePrice: number | null;
    net: number | null;
    open: boolean;
  };
  const copies = new Map<number, TCopyTrade>();
  for (const t of tradesOf(copyDeals.filter((d) => d.parentTicket !== null)))
    copies.set(t.parentTicket!, {
      volume: t.volume,
      openPrice: t.openPrice,
      closePrice: t.closePrice,
      net: t.net,
      open: false,
    });
  for (const p of ports.host.core.positionsOf(view.accountId)) {
    if (p.parentTicket === null) continue;
    const closed = copies.get(p.parentTicket);
    copies.set(p.parentTicket, {
      volume: p.volume + (closed?.volume ?? 0),
      openPrice: p.openPrice,
      closePrice: closed?.closePrice ?? null,
      net: closed?.net ?? null,
      open: true,
    });
  }
  const skipped = new Map(skips.map((s) => [s.leaderPositionId, s.reason as TSkipReason]));
  const rows = [...leaderTrades.values()]
    .filter((t) => t.openTime >= since || copies.has(t.positionId))
    .sort((a, b) => b.openTime - a.openTime || b.positionId - a.positionId);
  const reasons = new Map<string, number>();
  const count = (reason: string) => reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  let slippageCost = 0;
  let copied = 0;
  let skippedCount = 0;
  const trades: TParity['trades'] = rows.map((t) => {
    const digits = ports.host.digits(t.symbol) ?? 5;
    const price = (v: number | null) => (v === null ? null : fromScaled(v, digits));
    const copy = copies.get(t.positionId);
    const reason = copy ? null : (skipped.get(t.positionId) ?? null);
    let slippage: number | null = null;
    if (copy) {
      copied++;
      slippage = t.side === 'buy' ? copy.openPrice - t.openPrice : t.openPrice - copy.openPrice;
      if (slippage > 0) count('slippage');
      // a point's money for this copy, from its own result (its close against its open)
      const move =
        copy.closePrice === null ? 0 : (copy.closePrice - copy.openPrice) * (t.side === 'buy' ? 1 : -1);
      if (move !== 0 && copy.net !== null) slippageCost += Math.round((copy.net / move) * slippage);
    } else if (reason) {
      skippedCount++;
      count(`skipped:${reason}`);
    }
    return {
      leaderPositionId: t.positionId,
      symbol: t.symbol,
      side: t.side,
      status: copy ? (copy.open ? 'open' : 'copied') : 'skipped',
      reason,
      leaderVolume: unitsToLots(t.volume),
      leaderOpenPrice: fromScaled(t.openPrice, digits),
      leaderClosePrice: price(t.closePrice),
      leaderProfit: t.net === null ? null : money(t.net),
      followerVolume: copy ? unitsToLots(copy.volume) : null,
      followerOpenPrice: copy ? fromScaled(copy.openPrice, digits) : null,
      followerClosePrice: copy ? price(copy.closePrice) : null,
      followerProfit: copy?.net === null || copy === undefined ? null : money(copy.net),
      slippagePoints: slippage,
      openTime: new Date(t.openTime).toISOString(),
      closeTime: t.closeTime === null ? null : new Date(t.closeTime).toISOString(),
    };
  });
  const fees = relation.feesPaid;
  if (fees > 0) count('fees');
  if (copied > 0) count('sizing');
  const allocated = -view.totalInAmount - view.totalOutAmount;
  const followerProfit = view.equity - allocated;
  let leaderReturn: string | null = null;
  if (leaderView) {
    const { points } = await leaderStats(ports, leaderView);
    const r = returnSince(points, dayOf(since));
    leaderReturn = r === null ? null : percent(r);
  }
  const start = (input.page - 1) * input.size;
  return {
    copy_account_id: view.accountId,
    leader_id: leaderId,
    currency: view.currency,
    leaderCurrency: leaderView?.currency ?? view.currency,
    summary: {
      leaderReturn,
      followerReturn: allocated > 0 ? percent(followerProfit / allocated) : null,
      followerProfit: money(followerProfit),
      fees: money(fees),
      copied,
      skipped: skippedCount,
      slippageCost: money(slippageCost),
      reasons: [...reasons]
        .map(([reason, n]) => ({ reason, count: n }))
        .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    },
    trades: trades.slice(start, start + input.size),
    total: trades.length,
  };
}

/**
 * followwhatif: the leader's closed trades of the last 90 days replayed with the follower's mode,
 * amount and controls (docs/copy-trading.md, "What-if"): each trade's volume scaled, cut to the
 * maximum volume, rounded down onto the symbol's steps (skipped below the minimum), at most the
 * maximum open copies at once, its result scaled from the leader's; the copy stop-loss and
 * take-profit stop the replay; fees settle weekly above the high-water mark. Fixed margin sizes at
 * today's margin of a lot (the history does not keep it); slippage is not simulated.
 */
export async function whatIf(
  ports: TCopyPorts,
  input: {
    actor: TActor;
    leader_id: number;
    mode: TCopyMode;
    value: string;
    amount: string;
    controls?: TCopyControls | undefined;
  },
): Promise<TWhatIf> {
  const { actor } = input;
  traderOf(actor);
  const { leader, view: leaderView } = await approvedLeader(ports, actor.tenantId, input.leader_id);
  const modeValue = modeValueOf(input.mode, input.value);
  const controls = controlsOf(input.controls);
  const amount = toScaled(input.amount, 2, 'amount', 'amountFormat');
  if (amount <= 0) throw AppError.invalid({ amount: 'amountFormat' });
  const now = Date.now();
  const since = now - 90 * 86_400_000;
  const [deals, ledger] = await Promise.all([
    accountDeals(ports.db, leaderView.accountId, since),
    accountLedger(ports.db, leaderView.accountId),
  ]);
  const trades = tradesOf(deals).sort((a, b) => a.openTime - b.openTime);
  const specs = ports.host.specsForAccount(leaderView.accountId);
  // the leader's balance at a moment, from its ledger (equity mode scales by it)
  const balanceAt = (time: number) => {
    let balance = 0;
    for (const row of ledger) {
      if (row.time > time) break;
      balance = row.balanceAfter;
    }
    return balance;
  };
  // the margin of one lot now, from one of the trader's main accounts of the leader's type, else the leader's
  const own = ports.host
    .accountsOf(actor.tenantId, traderOf(actor))
    .map((id) => ports.host.core.account(id))
    .find((v) => v && !v.closed && v.parentId === null && v.accountType === leaderView.accountType);
  const marginAccount = own ? mainAccount(ports, actor, own.accountId) : leaderView;
  const marginPerLot = new Map<string, number>();
  const lotMargin = (symbol: string, side: 'buy' | 'sell') => {
    if (!marginPerLot.has(symbol)) {
      const preview = ports.host.core.previewOpen(marginAccount.accountId, symbol, side, 100);
      marginPerLot.set(symbol, 'margin' in preview ? Math.max(1, preview.margin) : 0);
    }
    return marginPerLot.get(symbol) ?? 0;
  };
  const skipped = new Map<TSkipReason, number>();
  const skip = (reason: TSkipReason) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  type TEvent = { time: number; kind: 'open' | 'close'; index: number };
  const events: TEvent[] = [];
  trades.forEach((t, index) => {
    events.push({ time: t.openTime, kind: 'open', index }, { time: t.closeTime, kind: 'close', index });
  });
  events.sort((a, b) => a.time - b.time || (a.kind === 'close' ? -1 : 1));
  const volumes = new Map<number, number>();
  let open = 0;
  let balance = amount;
  let feesPaid = 0;
  let mark = 0;
  let peak = amount;
  let worst = 0;
  let stoppedAt: number | null = null;
  let copied = 0;
  let periodEnd = nextPeriodEnd(trades[0]?.openTime ?? now);
  const curve = new Map<number, number>();
  const settleUntil = (time: number) => {
    while (periodEnd <= time) {
      const profit = balance - amount + feesPaid;
      if (profit > mark && leader.feeBp > 0) {
        const fee = Math.floor(((profit - mark) * leader.feeBp) / 10_000);
        balance -= fee;
        feesPaid += fee;
        mark = profit;
      }
      periodEnd = nextPeriodEnd(periodEnd);
    }
  };
  for (const e of events) {
    if (stoppedAt !== null) break;
    settleUntil(e.time);
    const t = trades[e.index]!;
    if (e.kind === 'open') {
      const spec = specs?.get(t.symbol);
      const min = spec ? toScaled(spec.minVolume, 2, 'v') : 1;
      const step = spec ? toScaled(spec.volumeStep, 2, 'v') : 1;
      const max = spec ? toScaled(spec.maxVolume, 2, 'v') : Number.MAX_SAFE_INTEGER;
      if (controls.maxPositions !== null && open >= controls.maxPositions) {
        skip('max_positions');
        continue;
      }
      let volume: number;
      if (input.mode === 'fixed_lot') volume = modeValue;
      else if (input.mode === 'ratio') volume = Math.floor((t.volume * modeValue) / 10_000);
      else if (input.mode === 'equity') {
        const leaderBalance = balanceAt(t.openTime);
        if (leaderBalance <= 0 || balance <= 0) {
          skip('no_equity');
          continue;
        }
        volume = Math.floor((t.volume * balance) / leaderBalance);
      } else {
        const perLot = lotMargin(t.symbol, t.side as 'buy' | 'sell');
        if (perLot <= 0) {
          skip('no_price');
          continue;
        }
        volume = Math.floor((modeValue * 100) / perLot);
      }
      const capped = Math.min(volume, controls.maxVolume ?? Number.MAX_SAFE_INTEGER, max);
      const onSteps = capped < min ? 0 : min + Math.floor((capped - min) / step) * step;
      if (onSteps <= 0) {
        skip(
          controls.maxVolume !== null && volume >= min && capped < min ? 'max_volume' : 'below_min_volume',
        );
        continue;
      }
      volumes.set(e.index, onSteps);
      open++;
      copied++;
    } else {
      const volume = volumes.get(e.index);
      if (volume === undefined) continue;
      open--;
      balance += Math.round((t.net * volume) / Math.max(1, t.volume));
      peak = Math.max(peak, balance);
      if (peak > 0) worst = Math.max(worst, (peak - balance) / peak);
      curve.set(dayOf(e.time), balance);
      const loss = amount - balance;
      if (controls.stopLossBp !== null && loss * 10_000 >= amount * controls.stopLossBp) stoppedAt = e.time;
      if (controls.takeProfitBp !== null && -loss * 10_000 >= amount * controls.takeProfitBp)
        stoppedAt = e.time;
    }
  }
  settleUntil(stoppedAt ?? now);
  return {
    days: 90,
    leaderTrades: trades.length,
    copied,
    skipped: [...skipped].map(([reason, n]) => ({ reason, count: n })).sort((a, b) => b.count - a.count),
    amount: money(amount),
    profit: money(balance - amount),
    fees: money(feesPaid),
    returnPercent: percent((balance - amount) / amount),
    maxDrawdown: percent(worst),
    stoppedAt: stoppedAt === null ? null : new Date(stoppedAt).toISOString(),
    curve: [...curve].map(([day, value]) => ({ day: dayText(day), value: money(value) })),
  };
}

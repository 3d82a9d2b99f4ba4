import type { TRouteOutput } from '@broker/contracts/routes';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../../actor';
import type { TTradingPorts } from '../ports';
import { fromScaled, money } from '../units';
import { brokerAccounts, inScope, type TScope } from './exposure';
import { customerNames, groupsOf } from './lookups';

type TMarginCall = TRouteOutput<'adminriskmargincalls'>[number];

/** At or below the margin-call level (or flagged by the engine), with margin in use. */
export function isAtMarginCall(view: TAccountView): boolean {
  if (view.closed) return false;
  return view.marginCall || (view.margin > 0 && view.marginLevelBp <= view.marginCallBp);
}

/** Equity (minor units) that can still be lost before the margin level reaches the stop-out level. */
export function equityToStopOut(view: TAccountView): number {
  return view.totalEquity - Math.ceil((view.margin * view.stopOutBp) / 10_000);
}

const percent = (bp: number) => fromScaled(bp, 2);

/** The margin-call list: closest to stop-out (smallest margin-level distance) first. */
export async function marginCallReport(
  ports: TTradingPorts,
  { actor, scope }: { actor: TActor; scope: TScope },
): Promise<TMarginCall[]> {
  const accounts = brokerAccounts(ports.host, actor.tenantId).filter(
    (a) => inScope(a.view.accountType, scope) && isAtMarginCall(a.view),
  );
  if (accounts.length === 0) return [];
  const groups = await groupsOf(
    ports.db,
    actor.tenantId,
    accounts.map((a) => a.view.accountId),
  );
  const names = await customerNames(ports.db, actor.tenantId, [...new Set(accounts.map((a) => a.userId))]);
  return accounts
    .map(({ view, userId, positions }) => {
      const groupId = groups.accountGroup.get(view.accountId) ?? null;
      return {
        accountId: view.accountId,
        accountType: view.accountType,
        userId,
        name: names.get(userId)?.name ?? '',
        email: names.get(userId)?.email ?? '',
        groupId,
        groupName: groupId ? (groups.names.get(groupId) ?? null) : null,
        currency: view.currency,
        balance: money(view.balance),
        equity: money(view.totalEquity),
        margin: money(view.margin),
        freeMargin: money(view.usableMargin),
        marginLevel: percent(view.marginLevelBp),
        marginCallLevel: percent(view.marginCallBp),
        stopOutLevel: percent(view.stopOutBp),
        distanceToStopOut: percent(view.marginLevelBp - view.stopOutBp),
        equityToStopOut: money(equityToStopOut(view)),
        positions: positions.length,
        inCall: view.marginCall,
        distance: view.marginLevelBp - view.stopOutBp,
      };
    })
    .sort((a, b) => a.distance - b.distance || a.accountId - b.accountId)
    .map(({ distance: _distance, ...row }) => row);
}

import type { TActor } from '../../actor';
import { actorAccount, auditActing, engineKey } from './account-access';
import type { TRouteInput, TTradingPorts } from './ports';
import { applyOnTicket } from './tickets';
import { lotsToUnits } from './units';
import { closedSummary } from './views';

/** Closes an open position, whole or the given volume, at the market. */
export async function closePosition(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'positionclose'> & { actor: TActor },
) {
  const view = actorAccount(ports, actor, input.account_id);
  const command = {
    type: 'close_position' as const,
    clientKey: engineKey(actor, input.idempotencyKey),
    time: Date.now(),
    accountId: view.accountId,
    positionId: input.order_id,
    ...(input.volume ? { volume: lotsToUnits(input.volume) } : {}),
  };
  const retry = ports.host.knows(command);
  const summary = closedSummary(await applyOnTicket(ports, 'position', command), view.accountId);
  if (!retry)
    await auditActing(ports, actor, 'trading.position.close', String(input.order_id), {
      accountId: view.accountId,
      volume: input.volume ?? null,
      profit: summary.profit,
    });
  return summary;
}

import type { TActor } from '../../actor';
import { actorAccount, auditActing, engineKey } from './account-access';
import type { TRouteInput, TTradingPorts } from './ports';
import { unwrap } from './results';
import { closedSummary } from './views';

/** Closes every open position of an account, or of one symbol. */
export async function closeAll(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'closeall'> & { actor: TActor },
) {
  const view = actorAccount(ports, actor, input.account_id);
  const command = {
    type: 'close_all' as const,
    clientKey: engineKey(actor, input.idempotencyKey),
    time: Date.now(),
    accountId: view.accountId,
    ...(input.symbol ? { symbol: input.symbol.toUpperCase() } : {}),
  };
  const retry = ports.host.knows(command);
  const summary = closedSummary(unwrap(await ports.host.submit(command)), view.accountId);
  if (!retry)
    await auditActing(ports, actor, 'trading.position.closeall', String(view.accountId), {
      symbol: command.symbol ?? null,
      closed: summary.closed,
      profit: summary.profit,
    });
  return summary;
}

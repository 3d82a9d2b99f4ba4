import type { TActor } from '../../actor';
import { actorAccount, auditActing, engineKey } from './account-access';
import type { TRouteInput, TTradingPorts } from './ports';
import { applyOnTicket } from './tickets';

/** Cancels a pending order. */
export async function cancelOrder(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'ordercancel'> & { actor: TActor },
): Promise<{ ok: true }> {
  const view = actorAccount(ports, actor, input.account_id);
  const command = {
    type: 'cancel_order' as const,
    clientKey: engineKey(actor, input.idempotencyKey),
    time: Date.now(),
    accountId: view.accountId,
    orderId: input.order_id,
  };
  const retry = ports.host.knows(command);
  await applyOnTicket(ports, 'order', command);
  if (!retry)
    await auditActing(ports, actor, 'trading.order.cancel', String(input.order_id), {
      accountId: view.accountId,
    });
  return { ok: true as const };
}

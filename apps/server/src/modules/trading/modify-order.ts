import type { TActor } from '../../actor';
import { actorAccount, auditActing, engineKey } from './account-access';
import type { TRouteInput, TTradingPorts } from './ports';
import { unwrap } from './results';
import { notHeld } from './tickets';
import { priceOf } from './views';

/** Changes a pending order's price, limit price, take-profit and stop-loss. */
export async function modifyOrder(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'ordermodify'> & { actor: TActor },
): Promise<{ ok: true }> {
  const { host } = ports;
  const view = actorAccount(ports, actor, input.account_id);
  const order = host.core.order(input.order_id);
  if (!order || order.accountId !== view.accountId)
    throw await notHeld(ports, view.accountId, input.order_id, 'order');
  const command = {
    type: 'modify_order' as const,
    clientKey: engineKey(actor, input.idempotencyKey),
    time: Date.now(),
    accountId: view.accountId,
    orderId: input.order_id,
    price: priceOf(host, order.symbol, input.price, 'price') as number,
    limitPrice: priceOf(host, order.symbol, input.limit_price, 'limit_price'),
    takeProfit: priceOf(host, order.symbol, input.take_profit, 'take_profit'),
    stopLoss: priceOf(host, order.symbol, input.stop_loss, 'stop_loss'),
  };
  const retry = host.knows(command);
  unwrap(await host.submit(command));
  if (!retry)
    await auditActing(ports, actor, 'trading.order.modify', String(input.order_id), {
      accountId: view.accountId,
      price: input.price,
      limitPrice: input.limit_price ?? null,
      takeProfit: input.take_profit ?? null,
      stopLoss: input.stop_loss ?? null,
    });
  return { ok: true as const };
}

import type { TActor } from '../../actor';
import { actorAccount, auditActing, engineKey } from './account-access';
import type { TRouteInput, TTradingPorts } from './ports';
import { unwrap } from './results';
import { notHeld } from './tickets';
import { priceOf } from './views';

/**
 * Sets or clears an open position's take-profit and stop-loss, and its trailing stop when the call
 * names one (absent: unchanged; 0 or null: removed).
 */
export async function modifyPosition(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'positionmodify'> & { actor: TActor },
): Promise<{ ok: true }> {
  const { host } = ports;
  const view = actorAccount(ports, actor, input.account_id);
  const position = host.core.position(input.order_id);
  if (!position || position.accountId !== view.accountId)
    throw await notHeld(ports, view.accountId, input.order_id, 'position');
  const command = {
    type: 'modify_position' as const,
    clientKey: engineKey(actor, input.idempotencyKey),
    time: Date.now(),
    accountId: view.accountId,
    positionId: input.order_id,
    takeProfit: priceOf(host, position.symbol, input.take_profit, 'take_profit'),
    stopLoss: priceOf(host, position.symbol, input.stop_loss, 'stop_loss'),
    // Absent stays absent: the command (and its idempotency fingerprint) is then what it was before.
    ...(input.trailing_stop === undefined ? {} : { trailingStop: input.trailing_stop }),
  };
  const retry = host.knows(command);
  unwrap(await host.submit(command));
  if (!retry)
    await auditActing(ports, actor, 'trading.position.modify', String(input.order_id), {
      accountId: view.accountId,
      takeProfit: input.take_profit ?? null,
      stopLoss: input.stop_loss ?? null,
      ...(input.trailing_stop === undefined ? {} : { trailingStop: input.trailing_stop }),
    });
  return { ok: true as const };
}

import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TCommand } from '@broker/domain/trading/engine-core';
import type { TTradingPorts } from './ports';
import { unwrap } from './results';

/**
 * The answer for an order or position the engine does not hold: -3001 (order) or -3016 (position)
 * when the account's history has it (filled, cancelled or closed), -3005 when it never existed for
 * this account.
 */
export async function notHeld(
  ports: TTradingPorts,
  accountId: number,
  id: number,
  kind: 'order' | 'position',
): Promise<AppError> {
  const { db } = ports;
  const found =
    kind === 'order'
      ? await db
          .selectFrom('order_history')
          .select('id')
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .executeTakeFirst()
      : await db
          .selectFrom('deals')
          .select('id')
          .where('position_id', '=', id)
          .where('account_id', '=', accountId)
          .executeTakeFirst();
  if (!found) return new AppError(AppErrorCode.ORDER_NOT_FOUND);
  return new AppError(
    kind === 'order' ? AppErrorCode.ORDER_ALREADY_DONE : AppErrorCode.POSITION_ALREADY_CLOSED,
  );
}

/**
 * Applies a command on one order or position of an account. The engine only knows live ones: a
 * gone ticket answers -3001 (an order) or -3016 (a position) when the account's history has it,
 * -3005 when it never was the account's (the engine alone would say -3001 for any past ticket,
 * anyone's).
 */
export async function applyOnTicket(
  ports: TTradingPorts,
  kind: 'order' | 'position',
  command: Extract<TCommand, { type: 'cancel_order' | 'close_position' }>,
) {
  const result = await ports.host.submit(command);
  if (
    !result.ok &&
    (result.error === 'ORDER_NOT_FOUND' ||
      result.error === 'POSITION_NOT_FOUND' ||
      result.error === 'ORDER_ALREADY_CLOSED' ||
      result.error === 'POSITION_ALREADY_CLOSED')
  )
    throw await notHeld(
      ports,
      command.accountId,
      command.type === 'cancel_order' ? command.orderId : command.positionId,
      kind,
    );
  return unwrap(result);
}

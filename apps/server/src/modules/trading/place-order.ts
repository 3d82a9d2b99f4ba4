import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TCommand } from '@broker/domain/trading/engine-core';
import type { TPendingType } from '@broker/domain/trading/orders';
import type { TActor } from '../../actor';
import { actorAccount, auditActing, engineKey } from './account-access';
import { NONCE_KEEP_MS } from './engine-host';
import { checkOrderSignature } from './order-signature';
import type { TRouteInput, TTradingPorts } from './ports';
import { unwrap } from './results';
import { lotsToUnits } from './units';
import { priceOf } from './views';

const PENDING: Record<string, TPendingType> = {
  'buy:limit': 'buy_limit',
  'sell:limit': 'sell_limit',
  'buy:stop': 'buy_stop',
  'sell:stop': 'sell_stop',
  'buy:stop_limit': 'buy_stop_limit',
  'sell:stop_limit': 'sell_stop_limit',
};

/** An order as `ordersend` takes it; the signature is a trader's session's (other actors sign nothing). */
export type TPlaceOrderInput = Omit<TRouteInput<'ordersend'>, 'nonce' | 'signature'> & {
  nonce?: string | undefined;
  signature?: string | undefined;
};

/**
 * Opens a market position or places a pending order on an account the actor may trade, with the
 * engine's checks (restrictions, margin, market hours, volume and stops), the order signature when
 * the actor is a trader's session, and the idempotency key: a retry answers the first result.
 */
export async function placeOrder(
  ports: TTradingPorts,
  { actor, ...input }: TPlaceOrderInput & { actor: TActor },
): Promise<{ ticket: number; kind: 'position' | 'order' }> {
  const { host } = ports;
  const view = actorAccount(ports, actor, input.account_id);
  const volume = lotsToUnits(input.volume);
  const symbol = input.symbol.toUpperCase();
  const takeProfit = priceOf(host, symbol, input.take_profit, 'take_profit');
  const stopLoss = priceOf(host, symbol, input.stop_loss, 'stop_loss');
  // A trailing stop follows an open position's price: pending orders carry none (as in MT5).
  if (input.type !== 'market' && (input.trailing_stop ?? 0) > 0)
    throw new AppError(AppErrorCode.INVALID_TRAILING_STOP);
  const now = Date.now();
  const clientKey = engineKey(actor, input.idempotencyKey);
  let command: TCommand;
  if (input.type === 'market') {
    command = {
      type: 'open_market',
      clientKey,
      time: now,
      accountId: view.accountId,
      symbol,
      side: input.side,
      volume,
      takeProfit,
      stopLoss,
      ...(input.trailing_stop ? { trailingStop: input.trailing_stop } : {}),
    };
  } else {
    const price = priceOf(host, symbol, input.price, 'price');
    if (price === null) throw AppError.invalid({ price: 'required' });
    const limitPrice =
      input.type === 'stop_limit' ? priceOf(host, symbol, input.limit_price, 'limit_price') : null;
    if (input.type === 'stop_limit' && limitPrice === null)
      throw AppError.invalid({ limit_price: 'required' });
    command = {
      type: 'place_pending',
      clientKey,
      time: now,
      accountId: view.accountId,
      symbol,
      orderType: PENDING[`${input.side}:${input.type}`] as TPendingType,
      volume,
      price,
      limitPrice,
      takeProfit,
      stopLoss,
    };
  }
  // A retried request (same key) is answered from the first result without a new signature check.
  const retry = host.knows(command);
  let nonce: string | undefined;
  if (!retry) {
    nonce = checkOrderSignature(actor, view, input, now);
    // Single use, durably: the nonce is committed with the order and reloaded after a restart.
    if (nonce !== undefined && !host.claimNonce(nonce, now + NONCE_KEEP_MS))
      throw new AppError(AppErrorCode.ORDER_SIGNATURE_INVALID);
  }
  const result = unwrap(await host.submit(command, undefined, nonce));
  const answer = {
    ticket: result.ticket ?? 0,
    kind: input.type === 'market' ? ('position' as const) : ('order' as const),
  };
  if (!retry)
    await auditActing(ports, actor, 'trading.order.send', String(answer.ticket), {
      accountId: view.accountId,
      symbol,
      side: input.side,
      type: input.type,
      volume: input.volume,
      ...(input.trailing_stop ? { trailingStop: input.trailing_stop } : {}),
    });
  return answer;
}

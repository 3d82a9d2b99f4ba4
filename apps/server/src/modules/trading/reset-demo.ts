import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { AccountType } from '@broker/domain/trading/calculations';
import { DEMO_INITIAL_BALANCE_MINOR, type TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import { actorAccount, engineKey } from './account-access';
import type { EngineHost } from './engine-host';
import type { TRouteInput, TTradingPorts } from './ports';
import { unwrap } from './results';
import { accountInfoView } from './views';

/**
 * Closes every position, cancels every order and brings the balance back to 100,000; each step
 * keyed by `idempotencyKey`, so a retry finishes what is left. The caller checks owner and type.
 */
export async function resetDemoBalance(
  host: EngineHost,
  accountId: number,
  idempotencyKey: string,
): Promise<void> {
  const base = `reset:${idempotencyKey}`;
  const now = Date.now();
  unwrap(await host.submit({ type: 'close_all', clientKey: `${base}:close`, time: now, accountId }));
  for (const order of host.core.ordersOf(accountId))
    unwrap(
      await host.submit({
        type: 'cancel_order',
        clientKey: `${base}:cancel:${order.orderId}`,
        time: now,
        accountId,
        orderId: order.orderId,
      }),
    );
  const after = host.core.account(accountId) as TAccountView;
  const delta = DEMO_INITIAL_BALANCE_MINOR - after.balance;
  if (delta !== 0)
    unwrap(
      await host.submit({
        type: 'adjust_balance',
        clientKey: `${base}:balance`,
        time: now,
        accountId,
        amount: delta,
        demoReset: true,
      }),
    );
}

/** Demo reset: close every position, cancel every order, and bring the balance back to 100,000. */
export async function resetDemo(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'demoreset'> & { actor: TActor },
) {
  const view = actorAccount(ports, actor, input.account_id);
  if (view.accountType !== AccountType.DEMO) throw new AppError(AppErrorCode.FORBIDDEN);
  await resetDemoBalance(ports.host, view.accountId, engineKey(actor, input.idempotencyKey));
  await recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'trading.demo.reset',
    target: String(view.accountId),
    ip: actor.ip,
    ...(actor.kind === 'user' ? {} : { details: { onBehalfOf: actor.onBehalfOf } }),
  });
  return accountInfoView(actorAccount(ports, actor, view.accountId));
}

import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { AccountType } from '@broker/domain/trading/calculations';
import type { TActor } from '../../../actor';
import { recordAudit } from '../../audit';
import type { TTradingPorts } from '../ports';
import { resetDemoBalance } from '../reset-demo';
import { submitOrThrow } from '../results';
import { moveAccountToGroup } from '../terms-sync';
import { applyOnTicket } from '../tickets';
import { accountAnswer, customerAccount, type TDealerPorts } from './customer-accounts';

interface TAccountInput {
  userId: string;
  accountId: number;
}

type TRestrictionFlags = {
  noOpen: boolean;
  noClose: boolean;
  noTakeProfit: boolean;
  noStopLoss: boolean;
  noWithdraw: boolean;
};

type TDealerInput<T> = TAccountInput & T & { actor: TActor };

const audit = (
  ports: TTradingPorts,
  actor: TActor,
  action: string,
  input: TAccountInput,
  details: Record<string, unknown> = {},
) =>
  recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action,
    target: String(input.accountId),
    ip: actor.ip,
    details: { userId: input.userId, ...details },
  });

/**
 * Sets the account's restrictions through the engine: from the next command on, the engine refuses
 * what they forbid (-3008), and a restriction on opening also stops pending orders from filling.
 */
export async function restrictAccount(
  ports: TDealerPorts,
  { actor, ...input }: TDealerInput<{ restrictions: TRestrictionFlags; idempotencyKey: string }>,
) {
  const view = customerAccount(ports, actor, input.userId, input.accountId);
  const before = { ...view.restrictions };
  const { noWithdraw, ...rest } = input.restrictions;
  await submitOrThrow(ports.host, {
    type: 'set_restrictions',
    clientKey: `staff-restrict:${input.idempotencyKey}`,
    time: Date.now(),
    accountId: view.accountId,
    restrictions: { ...rest, noWithdrawal: noWithdraw },
  });
  await audit(ports, actor, 'customers.account.restrict', input, {
    before,
    after: { ...rest, noWithdrawal: noWithdraw },
  });
  return accountAnswer(ports, actor, input.userId, input.accountId);
}

/** Resets a demo account like the trader's own reset does; real money accounts are refused. */
export async function resetDemoAccount(
  ports: TDealerPorts,
  { actor, ...input }: TDealerInput<{ idempotencyKey: string }>,
) {
  const view = customerAccount(ports, actor, input.userId, input.accountId);
  if (view.accountType !== AccountType.DEMO)
    throw new AppError(AppErrorCode.FORBIDDEN, undefined, undefined, undefined, 'errors.-1009.demoOnly');
  const before = {
    balance: view.balance,
    positions: ports.host.core.positionsOf(view.accountId).length,
  };
  await resetDemoBalance(ports.host, view.accountId, `staff:${input.idempotencyKey}`);
  await audit(ports, actor, 'customers.account.demoreset', input, before);
  return accountAnswer(ports, actor, input.userId, input.accountId);
}

/** Moves the account to another group of this broker (the market configuration applies its terms). */
export async function moveAccount(
  ports: TDealerPorts,
  { actor, ...input }: TDealerInput<{ groupId: string }>,
) {
  customerAccount(ports, actor, input.userId, input.accountId);
  const { db } = ports;
  const [group, current] = await Promise.all([
    db
      .selectFrom('account_groups')
      .select(['id', 'name'])
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', input.groupId)
      .executeTakeFirst(),
    db
      .selectFrom('trading_accounts')
      .select('group_id')
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', input.accountId)
      .executeTakeFirst(),
  ]);
  if (!group) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  await moveAccountToGroup(ports.host, {
    tenantId: actor.tenantId,
    accountId: input.accountId,
    groupId: group.id,
  });
  await audit(ports, actor, 'customers.account.group', input, {
    before: current?.group_id ?? null,
    after: group.id,
    groupName: group.name,
  });
  return accountAnswer(ports, actor, input.userId, input.accountId);
}

/**
 * Closes a customer's position at the market as the broker's dealer: the engine's own close (the
 * account's restrictions still apply), recorded with close reason 2 (automatic, not the trader's)
 * and in the audit trail. The idempotency key makes a repeated click close once.
 */
export async function closePositionAsDealer(
  ports: TDealerPorts,
  { actor, ...input }: TDealerInput<{ positionId: number; idempotencyKey: string }>,
) {
  const view = customerAccount(ports, actor, input.userId, input.accountId);
  // The engine checks the position is this account's (-3005 otherwise) and answers a repeated key
  // with the first result; the audit records the close that happened, once.
  const found = ports.host.core.position(input.positionId);
  const position = found?.accountId === view.accountId ? found : undefined;
  const result = await applyOnTicket(ports, 'position', {
    type: 'close_position',
    clientKey: `staff-close:${input.idempotencyKey}`,
    time: Date.now(),
    accountId: view.accountId,
    positionId: input.positionId,
    reason: 2,
  });
  const closed = result.events.find((e) => e.type === 'position_closed');
  if (position)
    await audit(ports, actor, 'customers.position.close', input, {
      positionId: input.positionId,
      symbol: position.symbol,
      volume: position.volume,
      profit: closed?.type === 'position_closed' ? closed.profit : null,
    });
  return accountAnswer(ports, actor, input.userId, input.accountId);
}

/** Cancels a customer's pending order as the broker's dealer, recorded in the audit trail. */
export async function cancelOrderAsDealer(
  ports: TDealerPorts,
  { actor, ...input }: TDealerInput<{ orderId: number; idempotencyKey: string }>,
) {
  const view = customerAccount(ports, actor, input.userId, input.accountId);
  const found = ports.host.core.order(input.orderId);
  const order = found?.accountId === view.accountId ? found : undefined;
  await applyOnTicket(ports, 'order', {
    type: 'cancel_order',
    clientKey: `staff-cancel:${input.idempotencyKey}`,
    time: Date.now(),
    accountId: view.accountId,
    orderId: input.orderId,
  });
  if (order)
    await audit(ports, actor, 'customers.order.cancel', input, {
      orderId: input.orderId,
      symbol: order.symbol,
      type: order.type,
      volume: order.volume,
    });
  return accountAnswer(ports, actor, input.userId, input.accountId);
}

import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { AccountType } from '@broker/domain/trading/calculations';
import { CloseReason } from '@broker/domain/trading/orders';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import { engineKey, mainAccount, money, subAccountsOf, submitOrThrow, traderOf } from '../trading';
import type { TFundingPorts } from './ports';
import { loadWithdrawal, requestWithdrawal, withdrawalView } from './withdrawals';

/**
 * Spec 7.2 `cancellate`: closes a trading account. Its positions close with reason 7 and its orders
 * are cancelled; a real or experience account's remaining balance is paid out to the source of its
 * latest card or e-wallet deposit as a withdrawal (funding password, review, payout as usual);
 * then the account is closed. Sub-accounts must be emptied back first.
 */
export async function cancelAccount(
  ports: TFundingPorts,
  {
    actor,
    accountId,
    fundPassword,
    idempotencyKey,
    device,
  }: {
    actor: TActor;
    accountId: number;
    fundPassword?: string | undefined;
    idempotencyKey: string;
    device?: string | null;
  },
) {
  const { db, host } = ports;
  const userId = traderOf(actor);
  const view = mainAccount(ports, actor, accountId);
  const subs = subAccountsOf(ports, { actor, accountId });
  if (subs.some((s) => s.balance !== 0 || s.equity !== 0))
    throw new AppError(AppErrorCode.FUNDING_NOT_ALLOWED);
  const key = engineKey(actor, `cancellate:${idempotencyKey}`);
  const positions = host.core.positionsOf(accountId).length;
  if (positions > 0)
    await submitOrThrow(host, {
      type: 'close_all',
      clientKey: `${key}:close`,
      time: Date.now(),
      accountId,
      reason: CloseReason.ACCOUNT_CANCELLATION,
    });
  let withdrawal = null;
  const after = host.core.account(accountId);
  const paying = view.accountType === AccountType.REAL || view.accountType === AccountType.EXPERIENCE;
  if (paying && after && after.balance > 0) {
    if (!fundPassword) throw AppError.invalid({ fundPassword: 'required' });
    const source = await db
      .selectFrom('deposits')
      .select(['id', 'method'])
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .where('account_id', '=', accountId)
      .where('status', '=', 'completed')
      .where('method', 'in', ['card', 'ewallet'])
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!source) throw new AppError(AppErrorCode.DESTINATION_INVALID);
    const requested = await requestWithdrawal(ports, {
      actor,
      account_id: accountId,
      method: source.method as 'card' | 'ewallet',
      amount: money(Math.min(after.balance, after.usableMargin)),
      destination: { kind: 'source', depositId: source.id },
      fundPassword,
      idempotencyKey: `cancellate:${idempotencyKey}`,
      device: device ?? null,
    });
    withdrawal = withdrawalView(await loadWithdrawal(db, actor.tenantId, requested.id));
  }
  for (const sub of subs)
    await submitOrThrow(host, {
      type: 'close_account',
      clientKey: `${key}:sub`,
      time: Date.now(),
      accountId: sub.accountId,
    });
  await submitOrThrow(host, { type: 'close_account', clientKey: key, time: Date.now(), accountId });
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'trading.account.cancel',
    target: String(accountId),
    ip: actor.ip,
    details: { positionsClosed: positions, withdrawalId: withdrawal?.id ?? null },
  });
  return { closed: positions, withdrawal };
}

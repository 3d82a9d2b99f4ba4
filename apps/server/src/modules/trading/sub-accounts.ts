import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TSubAccountPurpose } from '@broker/domain/trading/engine/commands';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import { actorAccount, traderOf } from './account-access';
import type { TTradingPorts } from './ports';
import { unwrap } from './results';

/**
 * Sub-accounts a main account may hold: copy accounts one per followed leader (spec 9: at most 10
 * followed traders), strategy accounts one per running bot.
 */
export const SUB_ACCOUNT_LIMITS: Record<TSubAccountPurpose, number> = { copy: 10, strategy: 20 };

/** A main account of the actor's trader (never a sub-account), else "account not found". */
export function mainAccount(ports: TTradingPorts, actor: TActor, accountId: number): TAccountView {
  const view = actorAccount(ports, actor, accountId);
  if (view.parentId !== null) throw new AppError(AppErrorCode.ACCOUNT_NOT_FOUND);
  if (view.closed) throw new AppError(AppErrorCode.ACCOUNT_CLOSED);
  return view;
}

/** The open sub-accounts of a main account of the actor's trader. */
export function subAccountsOf(
  ports: TTradingPorts,
  { actor, accountId }: { actor: TActor; accountId: number },
): TAccountView[] {
  mainAccount(ports, actor, accountId);
  return ports.host
    .accountsOf(actor.tenantId, traderOf(actor))
    .map((id) => ports.host.core.account(id))
    .filter((v): v is TAccountView => v !== undefined && !v.closed && v.parentId === accountId);
}

/**
 * Opens an empty copy or strategy sub-account under a main account: same type, trade type, currency,
 * leverage and group; funded only by transfers. The per-purpose limit is counted in the engine's
 * single writer with the opening, and the idempotency key answers a repeat with the first account.
 */
export async function openSubAccount(
  ports: TTradingPorts,
  {
    actor,
    accountId,
    purpose,
    idempotencyKey,
  }: { actor: TActor; accountId: number; purpose: TSubAccountPurpose; idempotencyKey: string },
): Promise<TAccountView> {
  const { host, db } = ports;
  const userId = traderOf(actor);
  const parent = mainAccount(ports, actor, accountId);
  const key = `sub:${actor.tenantId}:${userId}:${accountId}:${idempotencyKey}`;
  const existing = host.accountForKey(key);
  if (existing !== undefined) return actorAccount(ports, actor, existing);
  const subId = await host.nextAccountId();
  unwrap(
    await host.openAccount(
      {
        type: 'create_account',
        clientKey: key,
        time: Date.now(),
        accountId: subId,
        accountType: parent.accountType,
        tradeType: parent.tradeType,
        currency: parent.currency,
        leverage: parent.leverage,
        initialBalance: 0,
        profile: parent.profile,
        marginCallBp: parent.marginCallBp,
        stopOutBp: parent.stopOutBp,
        negativeBalanceProtection: parent.negativeBalanceProtection,
        parentId: parent.accountId,
        purpose,
      },
      { accountId: subId, tenantId: actor.tenantId, userId },
      {
        perOwner: SUB_ACCOUNT_LIMITS[purpose],
        sameKind: (v) => v.parentId === parent.accountId && v.purpose === purpose,
        perBroker: null,
      },
    ),
  );
  const made = host.accountForKey(key) ?? subId;
  if (made === subId)
    await recordAudit(db, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'trading.subaccount.create',
      target: String(subId),
      ip: actor.ip,
      details: {
        parent: parent.accountId,
        purpose,
        ...(actor.kind === 'user' ? {} : { onBehalfOf: userId }),
      },
    });
  return actorAccount(ports, actor, made);
}

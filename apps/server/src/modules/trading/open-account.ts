import { AppError } from '@broker/domain/result-codes';
import { AccountType, type TAccountType, type TTradeType } from '@broker/domain/trading/calculations';
import { DEMO_INITIAL_BALANCE_MINOR, type TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import { packageMax } from '../entitlements';
import { actorAccount, traderOf } from './account-access';
import type { TRouteInput, TTradingPorts } from './ports';
import { unwrap } from './results';
import { protectedByGroup } from './terms-sync';
import { accountEntry } from './views';

/** Leverage a trader can choose; the symbol's own maximum still caps each position. */
export const LEVERAGES = [1, 10, 20, 50, 100, 200, 300, 400, 500] as const;
export const DEFAULT_LEVERAGE = 100;
/** Accounts of one type a trader may hold: demo and real up to 5, experience one per trade type. */
export const ACCOUNT_LIMITS: Record<1 | 2 | 3, number> = { 1: 5, 2: 5, 3: 1 };

/**
 * Opens a trading account for the trader the actor acts for: within the per-trader limits (checked
 * and counted in the engine's single writer) and the broker's plan, in the broker's default group,
 * demo accounts with their starting balance. The idempotency key answers a repeat with the first
 * account.
 */
export async function openAccount(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'accountcreate'> & { actor: TActor },
) {
  const { host, db } = ports;
  const userId = traderOf(actor);
  if (!(LEVERAGES as readonly number[]).includes(input.leverage))
    throw AppError.invalid({ leverage: 'leverageNotAllowed' });
  const key = `create:${actor.tenantId}:${userId}:${input.idempotencyKey}`;
  const existing = host.accountForKey(key);
  if (existing !== undefined) return accountEntry(host, actorAccount(ports, actor, existing));
  const perBroker = await packageMax(db, actor.tenantId, 'tradingAccounts');
  const accountId = await host.nextAccountId();
  const group = await host.groupForNewAccount(actor.tenantId);
  const sameKind = (v: TAccountView) =>
    v.parentId === null &&
    v.accountType === input.account_type &&
    (input.account_type !== AccountType.EXPERIENCE || v.tradeType === input.trade_type);
  unwrap(
    await host.openAccount(
      {
        type: 'create_account',
        clientKey: key,
        time: Date.now(),
        accountId,
        accountType: input.account_type as TAccountType,
        tradeType: input.trade_type as TTradeType,
        currency: input.account_type === AccountType.EXPERIENCE ? 'USC' : 'USD',
        leverage: input.leverage,
        initialBalance: input.account_type === AccountType.DEMO ? DEMO_INITIAL_BALANCE_MINOR : 0,
        profile: group.id,
        marginCallBp: group.marginCallBp,
        stopOutBp: group.stopOutBp,
        negativeBalanceProtection: protectedByGroup(group, input.account_type),
      },
      { accountId, tenantId: actor.tenantId, userId },
      { perOwner: ACCOUNT_LIMITS[input.account_type], sameKind, perBroker },
    ),
  );
  // A parallel request with the same key answers the account the first one made.
  const made = host.accountForKey(key) ?? accountId;
  if (made !== accountId) return accountEntry(host, actorAccount(ports, actor, made));
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'trading.account.create',
    target: String(accountId),
    ip: actor.ip,
    details: {
      accountType: input.account_type,
      tradeType: input.trade_type,
      leverage: input.leverage,
      ...(actor.kind === 'user' ? {} : { onBehalfOf: userId }),
    },
  });
  return accountEntry(host, actorAccount(ports, actor, accountId));
}

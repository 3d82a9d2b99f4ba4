import type { ZCustomerAccount } from '@broker/contracts/admin/customers-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { AccountType } from '@broker/domain/trading/calculations';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import { conversionPath, conversionRates, convert } from '@broker/domain/trading/money';
import type { z } from 'zod';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import type { EngineHost } from '../engine-host';
import type { TTradingPorts } from '../ports';
import { fromScaled, money } from '../units';

type TCustomerAccount = z.input<typeof ZCustomerAccount>;

/**
 * The live view of a trading account that belongs to this customer of this broker; anything else
 * (another customer's, another broker's, unknown) is "account not found".
 */
export function customerAccount(
  ports: TTradingPorts,
  actor: TActor,
  userId: string,
  accountId: number,
): TAccountView {
  const owner = ports.host.ownerOf(accountId);
  const view = ports.host.core.account(accountId);
  if (!owner || !view || owner.tenantId !== actor.tenantId || owner.userId !== userId)
    throw new AppError(AppErrorCode.ACCOUNT_NOT_FOUND);
  return view;
}

/**
 * What the dealer's account actions work with: trading's ports, and the broker's approval threshold
 * in US-dollar cents for their answer (a funding setting: funding depends on trading, so the
 * composition hands in its query).
 */
export interface TDealerPorts extends TTradingPorts {
  approvalThreshold: (db: TDb, tenantId: string) => Promise<number>;
}

/**
 * The threshold in minor units of an account's currency: pegged currencies (USC, USDT) by their
 * peg, others at the live rate. Demo money never needs a second approval (null). Without a rate
 * every adjustment waits for approval (0), which is the safe side.
 */
export function thresholdFor(host: EngineHost, view: TAccountView, usdMinor: number): number | null {
  if (view.accountType === AccountType.DEMO) return null;
  const hasSymbol = (symbol: string) => host.core.quote(symbol) !== undefined;
  const path = conversionPath('USD', view.currency, hasSymbol);
  if (!path) return 0;
  const rates = conversionRates(path, (symbol) => {
    const quote = host.core.quote(symbol);
    const digits = host.digits(symbol);
    return quote && digits !== undefined ? { bid: quote.bid, ask: quote.ask, digits } : undefined;
  });
  return rates ? convert(usdMinor, rates) : 0;
}

/** Account group of each of the customer's accounts, and the broker's groups. */
export async function accountGroups(db: TDb, tenantId: string, accountIds: number[]) {
  const [groups, rows] = await Promise.all([
    db
      .selectFrom('account_groups')
      .select(['id', 'name', 'is_default'])
      .where('tenant_id', '=', tenantId)
      .orderBy('is_default', 'desc')
      .orderBy('name')
      .execute(),
    accountIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('trading_accounts')
          .select(['id', 'group_id'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', accountIds)
          .execute(),
  ]);
  const groupOf = new Map(rows.map((r) => [Number(r.id), r.group_id]));
  return { groups, groupOf };
}

/** A trading account as the back office shows it. */
export function accountRow(
  host: EngineHost,
  view: TAccountView,
  extra: { group: { id: string; name: string } | null; usdThreshold: number },
): TCustomerAccount {
  const threshold = thresholdFor(host, view, extra.usdThreshold);
  return {
    accountId: view.accountId,
    accountType: view.accountType,
    tradeType: view.tradeType,
    currency: view.currency,
    leverage: view.leverage,
    balance: money(view.balance),
    equity: money(view.equity),
    margin: money(view.margin),
    freeMargin: money(view.usableMargin),
    marginLevel: fromScaled(view.marginLevelBp, 2),
    floatingProfit: money(view.totalProfit),
    marginCall: view.marginCall,
    closed: view.closed,
    createdAt: host.ownerOf(view.accountId)?.createdAt ?? new Date(0).toISOString(),
    groupId: extra.group?.id ?? null,
    groupName: extra.group?.name ?? null,
    restrictions: {
      noOpen: view.restrictions.noOpen,
      noClose: view.restrictions.noClose,
      noTakeProfit: view.restrictions.noTakeProfit,
      noStopLoss: view.restrictions.noStopLoss,
      noWithdraw: view.restrictions.noWithdrawal,
    },
    positions: host.core.positionsOf(view.accountId).length,
    orders: host.core.ordersOf(view.accountId).length,
    approvalThreshold: threshold === null ? null : money(threshold),
  };
}

/** One account of the customer, freshly read, as the back office shows it (the answer of actions). */
export async function accountAnswer(ports: TDealerPorts, actor: TActor, userId: string, accountId: number) {
  const view = customerAccount(ports, actor, userId, accountId);
  const [{ groups, groupOf }, usdThreshold] = await Promise.all([
    accountGroups(ports.db, actor.tenantId, [accountId]),
    ports.approvalThreshold(ports.db, actor.tenantId),
  ]);
  const groupId = groupOf.get(accountId) ?? null;
  const group = groups.find((g) => g.id === groupId) ?? null;
  return accountRow(ports.host, view, { group, usdThreshold });
}

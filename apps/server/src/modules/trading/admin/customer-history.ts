import { traderLedgerAccount } from '@broker/domain/trading/engine-core';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import { dealPage, finishedOrderPage } from '../history';
import type { TTradingPorts } from '../ports';
import { money } from '../units';
import { customerAccount } from './customer-accounts';

export interface THistoryInput {
  userId: string;
  accountId: number;
  from?: number | undefined;
  to?: number | undefined;
  page: number;
  size: number;
}

/** The account's history query after the ownership check; staff see all of it by default. */
function historyQuery(ports: TTradingPorts, actor: TActor, input: THistoryInput) {
  customerAccount(ports, actor, input.userId, input.accountId);
  return {
    accountId: input.accountId,
    from: input.from ?? 0,
    to: input.to ?? Date.now(),
    page: input.page,
    size: input.size,
  };
}

type THistoryCall = THistoryInput & { actor: TActor };

export const customerDeals = (ports: TTradingPorts, { actor, ...input }: THistoryCall) =>
  dealPage(ports, historyQuery(ports, actor, input));

export const customerFinishedOrders = (ports: TTradingPorts, { actor, ...input }: THistoryCall) =>
  finishedOrderPage(ports, historyQuery(ports, actor, input));

/** The account's side of every ledger transaction (deposits, adjustments, profits, charges). */
export async function customerLedger(ports: TTradingPorts, { actor, ...input }: THistoryCall) {
  const { accountId, from, to, page, size } = historyQuery(ports, actor, input);
  const query = ports.db
    .selectFrom('ledger_entries')
    .where('account_id', '=', accountId)
    .where('ledger_account', '=', traderLedgerAccount(accountId))
    .where('created_at', '>=', from)
    .where('created_at', '<=', to);
  const [count, rows] = await Promise.all([
    query.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    query
      .select(['tx_id', 'kind', 'amount', 'balance_after', 'created_at', 'position_id'])
      .orderBy('tx_id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
  ]);
  return {
    items: rows.map((r) => ({
      txId: Number(r.tx_id),
      kind: r.kind,
      amount: money(Number(r.amount)),
      balanceAfter: money(Number(r.balance_after)),
      time: Number(r.created_at),
      positionId: r.position_id === null ? null : Number(r.position_id),
    })),
    total: Number(count.total),
    page,
    size,
  };
}

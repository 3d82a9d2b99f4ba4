import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TTransferType } from '@broker/domain/trading/engine/commands';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';
import { newId } from '../../ids';
import { recordAudit } from '../audit';
import {
  mainAccount,
  money,
  openSubAccount,
  subAccountsOf,
  submitOrThrow,
  type TTradingPorts,
  traderOf,
} from '../trading';
import { minor } from './amounts';
import type { TFundingPorts } from './ports';

export function subAccountView(view: TAccountView, createdAt: Date | null = null) {
  return {
    account_id: view.accountId,
    parent_account_id: view.parentId ?? 0,
    purpose: (view.purpose ?? 'copy') as 'copy' | 'strategy',
    currency: view.currency,
    balance: money(view.balance),
    equity: money(view.equity),
    transferable: money(Math.max(0, Math.min(view.balance, view.usableMargin))),
    createdAt: (createdAt ?? new Date()).toISOString(),
  };
}

export function listSubAccounts(
  ports: TFundingPorts,
  { actor, accountId }: { actor: TActor; accountId: number },
) {
  return { items: subAccountsOf(ports, { actor, accountId }).map((v) => subAccountView(v)) };
}

export async function createSubAccount(
  ports: TFundingPorts,
  input: { actor: TActor; accountId: number; purpose: 'copy' | 'strategy'; idempotencyKey: string },
) {
  return subAccountView(await openSubAccount(ports, input));
}

/**
 * A transfer between a main account and one of its sub-accounts (spec 3, 4): recorded by its
 * idempotency key, then applied by the engine as one ledger transaction with a leg on each account,
 * only from the paying account's free margin. A refusal removes the record; a repeat of the key
 * answers the first transfer.
 */
export async function transferFunds(
  ports: TTradingPorts,
  {
    actor,
    ...input
  }: {
    actor: TActor;
    type: TTransferType;
    account_id: number;
    sub_account_id: number;
    amount: string;
    idempotencyKey: string;
  },
) {
  const { db } = ports;
  const userId = traderOf(actor);
  const main = mainAccount(ports, actor, input.account_id);
  const sub = subAccountsOf(ports, { actor, accountId: main.accountId }).find(
    (v) => v.accountId === input.sub_account_id,
  );
  if (!sub) throw new AppError(AppErrorCode.ACCOUNT_NOT_FOUND);
  const out = input.type.endsWith('_out');
  const amount = minor(input.amount);
  if (amount <= 0) throw AppError.invalid({ amount: 'amountFormat' });
  const [from, to] = out ? [main.accountId, sub.accountId] : [sub.accountId, main.accountId];
  const key = `${actor.kind}:${actor.id}:${input.idempotencyKey}`;
  const id = newId();
  const inserted = await db
    .insertInto('transfers')
    .values({
      id,
      tenant_id: actor.tenantId,
      user_id: userId,
      transfer_type: input.type,
      from_account: from,
      to_account: to,
      amount,
      currency: main.currency,
      idempotency_key: key,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'idempotency_key']).doNothing())
    .returning(['id', 'transfer_type', 'from_account', 'to_account', 'amount'])
    .executeTakeFirst();
  // The same key again: the first transfer answers (a different one under it is a conflict).
  const row =
    inserted ??
    (await db
      .selectFrom('transfers')
      .select(['id', 'transfer_type', 'from_account', 'to_account', 'amount'])
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirstOrThrow());
  if (
    !inserted &&
    (row.transfer_type !== input.type ||
      Number(row.from_account) !== from ||
      Number(row.to_account) !== to ||
      Number(row.amount) !== amount)
  )
    throw new AppError(AppErrorCode.IDEMPOTENCY_CONFLICT);
  let txId: number;
  try {
    const result = await submitOrThrow(ports.host, {
      type: 'transfer',
      clientKey: `transfer:${row.id}`,
      time: Date.now(),
      accountId: from,
      toAccountId: to,
      transferType: input.type,
      amount,
    });
    txId = result.events.find((e) => e.type === 'ledger')?.txId ?? 0;
  } catch (error) {
    await db.deleteFrom('transfers').where('id', '=', row.id).where('tx_id', 'is', null).execute();
    throw error;
  }
  if (inserted) {
    await db.updateTable('transfers').set({ tx_id: txId }).where('id', '=', row.id).execute();
    // A trader's own transfers are their financial record; one made for them by someone else (a
    // copy engine, a bot, staff, an API key) is also in the audit trail, naming who.
    if (actor.kind !== 'user')
      await recordAudit(db, {
        tenantId: actor.tenantId,
        actorKind: actor.kind,
        actorId: actor.id,
        action: `funding.${input.type}`,
        target: String(from),
        ip: actor.ip,
        details: { to, amount: money(amount), currency: main.currency, ledgerTx: txId, onBehalfOf: userId },
      });
  }
  const after = (id: number) => ports.host.core.account(id)?.balance ?? 0;
  return { txId, balance: money(after(main.accountId)), subBalance: money(after(sub.accountId)) };
}

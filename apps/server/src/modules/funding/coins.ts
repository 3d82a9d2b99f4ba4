import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { AccountType } from '@broker/domain/trading/calculations';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { recordAudit } from '../audit';
import { money, submitOrThrow, traderOf } from '../trading';
import { fundableAccount, type TFundingPorts } from './ports';

/** Spec 9: one exchange moves at most 10,000 cents. */
export const COIN_EXCHANGE_CAP = 10_000;

/**
 * Grants coins once per reason and reference (a first deposit, an approved KYC, a contest entry):
 * the entry and the balance change are one transaction, and a repeat changes nothing.
 */
export async function grantCoins(
  db: TDb,
  input: { tenantId: string; userId: string; coins: number; reason: string; ref: string },
): Promise<boolean> {
  if (!Number.isSafeInteger(input.coins) || input.coins <= 0) return false;
  return db.transaction().execute(async (trx) => {
    const entry = await trx
      .insertInto('coin_entries')
      .values({
        id: newId(),
        tenant_id: input.tenantId,
        user_id: input.userId,
        coins: input.coins,
        reason: input.reason,
        ref: input.ref,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'reason', 'ref']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!entry) return false;
    await trx
      .insertInto('coin_balances')
      .values({ tenant_id: input.tenantId, user_id: input.userId, balance: input.coins })
      .onConflict((oc) =>
        oc
          .columns(['tenant_id', 'user_id'])
          .doUpdateSet({ balance: sql`coin_balances.balance + ${input.coins}` }),
      )
      .execute();
    return true;
  });
}

async function balanceOf(db: TDb, tenantId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom('coin_balances')
    .select('balance')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? Number(row.balance) : 0;
}

/** The trader's coins and their history, newest first. */
export async function coinHistory(
  ports: TFundingPorts,
  { actor, page, size }: { actor: TActor; page: number; size: number },
) {
  const userId = traderOf(actor);
  const query = ports.db
    .selectFrom('coin_entries')
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', userId);
  const [balance, count, rows] = await Promise.all([
    balanceOf(ports.db, actor.tenantId, userId),
    query.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    query
      .select(['id', 'coins', 'reason', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
  ]);
  return {
    balance,
    exchangeCap: COIN_EXCHANGE_CAP,
    items: rows.map((r) => ({
      id: r.id,
      coins: Number(r.coins),
      reason: r.reason,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    total: Number(count.total),
  };
}

/**
 * Exchanges coins into an experience account (1 coin = 1 cent). The coins are taken in one
 * conditional update (never below zero, whatever runs in parallel) with the entry keyed by the
 * idempotency key, then credited through the engine with the entry id as its key; the engine's cap
 * refusal gives the coins back.
 */
export async function exchangeCoins(
  ports: TFundingPorts,
  { actor, ...input }: { actor: TActor; account_id: number; coins: number; idempotencyKey: string },
) {
  const { db } = ports;
  const userId = traderOf(actor);
  const view = fundableAccount(ports, actor, input.account_id);
  if (view.accountType !== AccountType.EXPERIENCE) throw new AppError(AppErrorCode.FUNDING_NOT_ALLOWED);
  if (!Number.isSafeInteger(input.coins) || input.coins < 1 || input.coins > COIN_EXCHANGE_CAP)
    throw AppError.invalid({ coins: 'coinsRange' });
  const ref = `${actor.kind}:${actor.id}:${input.idempotencyKey}`;
  const entryId = newId();
  const taken = await db.transaction().execute(async (trx) => {
    const entry = await trx
      .insertInto('coin_entries')
      .values({
        id: entryId,
        tenant_id: actor.tenantId,
        user_id: userId,
        coins: -input.coins,
        reason: 'exchange',
        ref,
        account_id: view.accountId,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'reason', 'ref']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!entry) return 'repeat' as const;
    const spent = await trx
      .updateTable('coin_balances')
      .set({ balance: sql`balance - ${input.coins}` })
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .where('balance', '>=', input.coins)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.COINS_INSUFFICIENT);
    return 'taken' as const;
  });
  const entry = await db
    .selectFrom('coin_entries')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', userId)
    .where('reason', '=', 'exchange')
    .where('ref', '=', ref)
    .executeTakeFirstOrThrow();
  if (
    taken === 'repeat' &&
    (Number(entry.account_id) !== view.accountId || -Number(entry.coins) !== input.coins)
  )
    throw new AppError(AppErrorCode.IDEMPOTENCY_CONFLICT);
  await creditCoins(ports, entry);
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'funding.coins.exchange',
    target: String(view.accountId),
    ip: actor.ip,
    details: { coins: input.coins },
  });
  return { balance: await balanceOf(db, actor.tenantId, userId), credited: money(input.coins) };
}

async function creditCoins(
  ports: TFundingPorts,
  entry: {
    id: string;
    tenant_id: string;
    user_id: string;
    coins: number | string;
    account_id: number | string | null;
    tx_id: number | string | null;
  },
) {
  if (entry.tx_id !== null) return;
  const coins = -Number(entry.coins);
  try {
    const result = await submitOrThrow(ports.host, {
      type: 'coin_credit',
      clientKey: `coins:${entry.id}`,
      time: Date.now(),
      accountId: Number(entry.account_id),
      amount: coins,
    });
    const txId = result.events.find((e) => e.type === 'ledger')?.txId ?? null;
    await ports.db.updateTable('coin_entries').set({ tx_id: txId }).where('id', '=', entry.id).execute();
  } catch (error) {
    // Refused (over the cap): the coins go back, and the exchange is undone in the history.
    await ports.db.transaction().execute(async (trx) => {
      const removed = await trx
        .deleteFrom('coin_entries')
        .where('id', '=', entry.id)
        .where('tx_id', 'is', null)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 1)
        await trx
          .updateTable('coin_balances')
          .set({ balance: sql`balance + ${coins}` })
          .where('tenant_id', '=', entry.tenant_id)
          .where('user_id', '=', entry.user_id)
          .execute();
    });
    throw error;
  }
}

/** Finishes exchanges whose engine credit was cut short (a crash). */
export async function finishCoinExchanges(ports: TFundingPorts): Promise<void> {
  const rows = await ports.db
    .selectFrom('coin_entries')
    .selectAll()
    .where('reason', '=', 'exchange')
    .where('tx_id', 'is', null)
    .execute();
  for (const row of rows) await creditCoins(ports, row).catch(() => undefined);
}

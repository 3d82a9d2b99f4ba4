import type { TDeposit, TFundingMethod } from '@broker/contracts/funding-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { AccountType } from '@broker/domain/trading/calculations';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { recordAudit } from '../audit';
import { findUser } from '../identity';
import { fromScaled, money, submitOrThrow, traderOf } from '../trading';
import { feeOf, minor, parseRate, rateMicros, rateText, toAccountMinor } from './amounts';
import { grantCoins } from './coins';
import { fundableAccount, providerOf, requireKyc, type TFundingPorts } from './ports';
import type { TDepositStarted } from './providers/types';
import type { DepositsTable } from './schema';
import { fundingSettings, METHOD_FACTS, methodSettings } from './settings';

type TDepositRow = {
  [K in keyof DepositsTable]: DepositsTable[K] extends { __select__: infer S } ? S : DepositsTable[K];
};

/** Experience accounts: 100 USDT in USC minor units (spec 9). */
export const EXPERIENCE_CAP_MINOR = 1_000_000;

const FINAL: TDeposit['status'][] = ['completed', 'failed', 'expired'];

export function depositView(row: TDepositRow): TDeposit {
  const facts = METHOD_FACTS[row.method as TFundingMethod];
  const final = FINAL.includes(row.status);
  const created = new Date(row.created_at);
  return {
    id: row.id,
    account_id: Number(row.account_id),
    method: row.method as TFundingMethod,
    status: row.status,
    amount: money(Number(row.amount)),
    fee: money(Number(row.fee)),
    methodCurrency: row.method_currency,
    credited: row.credited === null ? null : money(Number(row.credited)),
    accountCurrency: row.account_currency,
    rate: row.rate,
    redirectUrl: row.status === 'pending' ? row.redirect_url : null,
    address: row.address,
    reference: row.reference,
    bank: (typeof row.bank === 'string' ? JSON.parse(row.bank) : row.bank) as TDeposit['bank'],
    confirmations: row.confirmations,
    confirmationsNeeded: row.confirmations_needed,
    failure: row.failure,
    createdAt: created.toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    expectedAt: final
      ? null
      : new Date(created.getTime() + (facts?.depositMinutes ?? 0) * 60_000).toISOString(),
  };
}

async function loadDeposit(db: TDb, tenantId: string, id: string, userId?: string) {
  let query = db.selectFrom('deposits').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id);
  if (userId) query = query.where('user_id', '=', userId);
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return row as TDepositRow;
}

/** One deposit of the actor's trader. */
export async function depositDetail(ports: TFundingPorts, { actor, id }: { actor: TActor; id: string }) {
  return depositView(await loadDeposit(ports.db, actor.tenantId, id, traderOf(actor)));
}

/** The trader's deposits, newest first (the deposit page's recent list). */
export async function recentDeposits(db: TDb, tenantId: string, userId: string, limit = 20) {
  const rows = await db
    .selectFrom('deposits')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => depositView(r as TDepositRow));
}

/**
 * Starts a deposit: checks KYC, the account, the method's limits and (experience accounts) the cap,
 * records the deposit, and asks the method's provider for a hosted page, an address or a bank
 * reference. The idempotency key answers a repeat with the first deposit.
 */
export async function createDeposit(
  ports: TFundingPorts,
  {
    actor,
    ...input
  }: {
    actor: TActor;
    account_id: number;
    method: TFundingMethod;
    amount: string;
    idempotencyKey: string;
    returnPath?: string | undefined;
  },
) {
  const { db } = ports;
  const userId = traderOf(actor);
  const key = `${actor.kind}:${actor.id}:${input.idempotencyKey}`;
  const earlier = await db
    .selectFrom('deposits')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  const amount = minor(input.amount);
  if (earlier) {
    if (
      Number(earlier.account_id) !== input.account_id ||
      earlier.method !== input.method ||
      Number(earlier.amount) !== amount
    )
      throw new AppError(AppErrorCode.IDEMPOTENCY_CONFLICT);
    return depositView(earlier as TDepositRow);
  }
  await requireKyc(ports, actor, userId);
  const view = fundableAccount(ports, actor, input.account_id);
  const settings = await fundingSettings(db, actor.tenantId);
  const rules = methodSettings(settings, input.method);
  const facts = METHOD_FACTS[input.method];
  if (!rules.depositEnabled || !ports.providers.has(facts.provider))
    throw new AppError(AppErrorCode.METHOD_UNAVAILABLE);
  const min = minor(rules.depositMin);
  const max = minor(rules.depositMax);
  if (amount < min || amount > max)
    throw new AppError(AppErrorCode.AMOUNT_OUT_OF_LIMITS, {
      min: rules.depositMin,
      max: rules.depositMax,
      currency: facts.currency,
    });
  const rate = rateMicros(facts.currency, view.currency);
  const credit = toAccountMinor(amount, rate);
  const fee = feeOf(amount, rules.depositFeeBp, minor(rules.depositFeeFixed));
  const id = newId();
  const inserted = await db.transaction().execute(async (trx) => {
    if (view.accountType === AccountType.EXPERIENCE) {
      // Spec 9: one deposit at most the cap minus the net value, counting deposits still on their
      // way; checked and recorded under the account's lock so parallel deposits cannot all fit.
      await sql`select pg_advisory_xact_lock(${view.accountId}::bigint)`.execute(trx);
      const open = await trx
        .selectFrom('deposits')
        .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
        .where('account_id', '=', view.accountId)
        .where('status', 'in', ['pending', 'confirming'])
        .where('created_at', '>', new Date(Date.now() - 24 * 3_600_000))
        .executeTakeFirstOrThrow();
      const underway = toAccountMinor(Number(open.total), rate);
      if (credit + underway > EXPERIENCE_CAP_MINOR - view.totalEquity)
        throw new AppError(AppErrorCode.DEPOSIT_CAP_EXCEEDED, {
          room: money(Math.max(0, EXPERIENCE_CAP_MINOR - view.totalEquity - underway)),
        });
    }
    return trx
      .insertInto('deposits')
      .values({
        id,
        tenant_id: actor.tenantId,
        user_id: userId,
        account_id: view.accountId,
        method: input.method,
        provider: facts.provider,
        status: 'pending',
        amount,
        fee,
        method_currency: facts.currency,
        account_currency: view.currency,
        rate: rateText(rate),
        idempotency_key: key,
        bank: null,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
  });
  if (!inserted) return createDeposit(ports, { actor, ...input });
  let started: TDepositStarted;
  try {
    const returnPath = input.returnPath ?? '/en/personalCenter/deposit';
    const back = new URL(returnPath, ports.publicUrl());
    back.searchParams.set('deposit', id);
    started = await providerOf(ports, facts.provider).startDeposit({
      depositId: id,
      tenantId: actor.tenantId,
      userId,
      amount: amount + fee,
      currency: facts.currency,
      returnUrl: back.toString(),
      ...(facts.network ? { network: facts.network } : {}),
    });
  } catch (error) {
    ports.log?.error({ err: error, depositId: id }, 'deposit provider failed');
    await db
      .updateTable('deposits')
      .set({ status: 'failed', failure: 'provider_unavailable', updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    throw new AppError(AppErrorCode.PROVIDER_FAILED);
  }
  await db
    .updateTable('deposits')
    .set({
      redirect_url: started.kind === 'redirect' ? started.redirectUrl : null,
      provider_ref: started.kind === 'redirect' ? started.sessionId : null,
      address: started.kind === 'address' ? started.address : null,
      reference: started.kind === 'reference' ? started.reference : null,
      bank: started.kind === 'reference' ? JSON.stringify(started.bank) : null,
      confirmations: started.kind === 'address' ? 0 : null,
      confirmations_needed: started.kind === 'address' ? started.confirmations : null,
      expires_at: started.expiresAt,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'funding.deposit.create',
    target: String(view.accountId),
    ip: actor.ip,
    details: { depositId: id, method: input.method, amount: money(amount), currency: facts.currency },
  });
  return depositView(await loadDeposit(db, actor.tenantId, id));
}

/**
 * Credits a deposit the provider says was paid: claims it (pending or confirming to completed, in
 * one conditional update, so duplicate and concurrent deliveries credit once), then posts it through
 * the engine with the deposit id as the idempotency key. A crash between the two is finished by
 * `finishDeposits` at start. An experience account over its cap is refused by the engine: the
 * deposit fails as `cap_exceeded` and the money waits for staff to return it.
 */
export async function creditDeposit(
  ports: TFundingPorts,
  event: { depositId: string; providerRef: string; amount: number; sequence: number },
): Promise<'credited' | 'ignored'> {
  const { db } = ports;
  const row = await db
    .selectFrom('deposits')
    .selectAll()
    .where('id', '=', event.depositId)
    .executeTakeFirst();
  if (!row) return 'ignored';
  const credited = toAccountMinor(Math.max(0, event.amount - Number(row.fee)), parseRate(row.rate));
  const claimed = await db
    .updateTable('deposits')
    .set({
      status: 'completed',
      received: event.amount,
      credited,
      provider_ref: event.providerRef,
      last_sequence: event.sequence,
      // A chain deposit is final at its confirmations (a late "confirming" event cannot lower it).
      confirmations: row.confirmations_needed ?? row.confirmations,
      failure: null,
      updated_at: new Date(),
    })
    .where('id', '=', row.id)
    .where('status', 'in', ['pending', 'confirming', 'expired'])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return 'ignored';
  await postDeposit(ports, { ...(row as TDepositRow), credited });
  return 'credited';
}

async function postDeposit(ports: TFundingPorts, row: TDepositRow & { credited: number | string | null }) {
  const { db } = ports;
  const amount = Number(row.credited);
  if (amount <= 0) return;
  try {
    const result = await submitOrThrow(ports.host, {
      type: 'deposit',
      clientKey: `deposit:${row.id}`,
      time: Date.now(),
      accountId: Number(row.account_id),
      amount,
    });
    const txId = result.events.find((e) => e.type === 'ledger')?.txId ?? null;
    await db.updateTable('deposits').set({ ledger_tx_id: txId }).where('id', '=', row.id).execute();
    await recordAudit(db, {
      tenantId: row.tenant_id,
      actorKind: 'system',
      actorId: 'funding',
      action: 'funding.deposit.credit',
      target: String(row.account_id),
      ip: null,
      details: { depositId: row.id, credited: money(amount), currency: row.account_currency, ledgerTx: txId },
    });
    const settings = await fundingSettings(db, row.tenant_id);
    if (settings.coinRules.first_deposit > 0)
      await grantCoins(db, {
        tenantId: row.tenant_id,
        userId: row.user_id,
        coins: settings.coinRules.first_deposit,
        reason: 'first_deposit',
        ref: 'first',
      });
  } catch (error) {
    if (error instanceof AppError && error.code === AppErrorCode.DEPOSIT_CAP_EXCEEDED) {
      await db
        .updateTable('deposits')
        .set({ status: 'failed', failure: 'cap_exceeded', updated_at: new Date() })
        .where('id', '=', row.id)
        .execute();
      await db
        .insertInto('unmatched_payments')
        .values({
          id: newId(),
          tenant_id: row.tenant_id,
          provider: row.provider,
          method: row.method,
          amount: Number(row.received ?? row.amount),
          currency: row.method_currency,
          reference: row.reference ?? row.address ?? row.id,
          provider_ref: `${row.provider_ref ?? row.id}:cap`,
          suggested_deposit_id: row.id,
        })
        .onConflict((oc) => oc.columns(['provider', 'provider_ref']).doNothing())
        .execute();
      return;
    }
    throw error;
  }
}

/** A chain payment seen, not yet final: its confirmations (never going back to an earlier state). */
export async function confirmingDeposit(
  ports: TFundingPorts,
  event: { depositId: string; providerRef: string; amount: number; confirmations: number; sequence: number },
) {
  const result = await ports.db
    .updateTable('deposits')
    .set({
      status: 'confirming',
      confirmations: event.confirmations,
      received: event.amount,
      provider_ref: event.providerRef,
      last_sequence: event.sequence,
      updated_at: new Date(),
    })
    .where('id', '=', event.depositId)
    .where('status', 'in', ['pending', 'confirming'])
    .where('last_sequence', '<', event.sequence)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? 'applied' : 'ignored';
}

/** A declined, cancelled, timed-out or expired payment: final unless it already completed. */
export async function failDeposit(
  ports: TFundingPorts,
  event: { depositId: string; providerRef: string; reason: string; sequence: number },
) {
  const result = await ports.db
    .updateTable('deposits')
    .set({
      status: event.reason === 'expired' ? 'expired' : 'failed',
      failure: event.reason,
      provider_ref: event.providerRef,
      last_sequence: event.sequence,
      updated_at: new Date(),
    })
    .where('id', '=', event.depositId)
    .where('status', 'in', ['pending', 'confirming'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? 'applied' : 'ignored';
}

/** Finishes deposits claimed as completed whose engine credit was cut short (a crash). */
export async function finishDeposits(ports: TFundingPorts): Promise<number> {
  const rows = await ports.db
    .selectFrom('deposits')
    .selectAll()
    .where('status', '=', 'completed')
    .where('ledger_tx_id', 'is', null)
    .where('credited', '>', 0)
    .execute();
  for (const row of rows) await postDeposit(ports, row as TDepositRow);
  return rows.length;
}

/** The methods as a trader sees them, with the broker's limits and fees. */
export async function fundingMethods(ports: TFundingPorts, { actor }: { actor: TActor }) {
  const { db } = ports;
  const userId = traderOf(actor);
  const settings = await fundingSettings(db, actor.tenantId);
  const [user, password] = await Promise.all([
    findUser(db, { tenantId: actor.tenantId, id: userId }),
    db
      .selectFrom('fund_passwords')
      .select(['withdraw_locked_until'])
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .executeTakeFirst(),
  ]);
  const locked = password?.withdraw_locked_until;
  return {
    methods: settings.methods.map((m) => {
      const facts = METHOD_FACTS[m.method];
      const available = ports.providers.has(facts.provider);
      return {
        method: m.method,
        provider: facts.provider,
        currency: facts.currency,
        deposit: {
          enabled: available && m.depositEnabled,
          min: m.depositMin,
          max: m.depositMax,
          feeBp: m.depositFeeBp,
          feeFixed: m.depositFeeFixed,
          expectedMinutes: facts.depositMinutes,
        },
        withdraw: {
          enabled: available && m.withdrawEnabled,
          min: m.withdrawMin,
          max: m.withdrawMax,
          feeBp: m.withdrawFeeBp,
          feeFixed: m.withdrawFeeFixed,
          expectedMinutes: facts.withdrawMinutes,
        },
        confirmations: facts.network === 'trc20' ? 3 : facts.network === 'erc20' ? 6 : null,
      };
    }),
    kyc: user.kyc_status as 'none' | 'pending' | 'approved' | 'rejected',
    fundPasswordSet: password !== undefined,
    withdrawLockedUntil: locked && new Date(locked) > new Date() ? new Date(locked).toISOString() : null,
    experienceCap: money(EXPERIENCE_CAP_MINOR),
    rates: { USD: fromScaled(1_000_000, 6), USDT: rateText(rateMicros('USDT', 'USD')) },
  };
}

import type { TFundingMethod, TWithdrawal } from '@broker/contracts/funding-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { recordAudit } from '../audit';
import { closedDealsByCurrency, money, submitOrThrow, traderOf } from '../trading';
import { feeOf, minor, rateMicros, rateText, toMethodMinor, usdMinor } from './amounts';
import { checkFundPassword } from './fund-password';
import { fundableAccount, providerOf, requireKyc, type TFundingPorts } from './ports';
import { chainAccount } from './providers';
import type { TWithdrawalStatus, WithdrawalsTable } from './schema';
import { fundingSettings, METHOD_FACTS, methodSettings, REVIEW_MINUTES } from './settings';

export type TWithdrawalRow = {
  [K in keyof WithdrawalsTable]: WithdrawalsTable[K] extends { __select__: infer S }
    ? S
    : WithdrawalsTable[K];
};

export type TDestinationInput =
  | { kind: 'source'; depositId: string }
  | { kind: 'address'; address: string }
  | { kind: 'bank'; iban: string; beneficiary: string };

type TStep = { status: TWithdrawalStatus; at: string };

const parse = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export function withdrawalView(row: TWithdrawalRow): TWithdrawal {
  const steps = parse<TStep[]>(row.steps);
  const facts = METHOD_FACTS[row.method as TFundingMethod];
  const last = steps.at(-1);
  let expectedAt: string | null = null;
  if (last && (row.status === 'awaiting_review' || row.status === 'initiated'))
    expectedAt = new Date(
      new Date(last.at).getTime() + (REVIEW_MINUTES + facts.withdrawMinutes) * 60_000,
    ).toISOString();
  else if (last && row.status === 'processing')
    expectedAt = new Date(new Date(last.at).getTime() + facts.withdrawMinutes * 60_000).toISOString();
  return {
    id: row.id,
    account_id: Number(row.account_id),
    method: row.method as TFundingMethod,
    status: row.status,
    amount: money(Number(row.amount)),
    fee: money(Number(row.fee)),
    accountCurrency: row.account_currency,
    payout: money(Number(row.payout)),
    methodCurrency: row.method_currency,
    rate: row.rate,
    destination: row.destination_masked,
    toSource: row.to_source,
    rejectReason: row.reject_reason,
    failure: row.failure,
    steps,
    createdAt: new Date(row.created_at).toISOString(),
    expectedAt,
    cancellable: row.status === 'awaiting_review' && row.first_approved_by === null,
  };
}

export async function loadWithdrawal(db: TDb, tenantId: string, id: string, userId?: string) {
  let query = db.selectFrom('withdrawals').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id);
  if (userId) query = query.where('user_id', '=', userId);
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return row as TWithdrawalRow;
}

export async function withdrawalDetail(ports: TFundingPorts, { actor, id }: { actor: TActor; id: string }) {
  return withdrawalView(await loadWithdrawal(ports.db, actor.tenantId, id, traderOf(actor)));
}

const maskAddress = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** Where the payout goes: return-to-source for cards and e-wallets, an address, or a bank account. */
async function resolveDestination(
  ports: TFundingPorts,
  actor: TActor,
  userId: string,
  method: TFundingMethod,
  destination: TDestinationInput,
): Promise<{
  full: string;
  masked: string;
  toSource: boolean;
  sourceId: string | null;
  sourceRef: string | null;
}> {
  const network = METHOD_FACTS[method].network;
  if (method === 'card' || method === 'ewallet') {
    // Return-to-source: card and e-wallet money only goes back to a completed deposit of the same method.
    if (destination.kind !== 'source') throw AppError.invalid({ destination: 'sourceRequired' });
    const source = await ports.db
      .selectFrom('deposits')
      .select(['id', 'provider_ref', 'created_at'])
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .where('id', '=', destination.depositId)
      .where('method', '=', method)
      .where('status', '=', 'completed')
      .executeTakeFirst();
    if (!source) throw new AppError(AppErrorCode.DESTINATION_INVALID);
    return {
      full: `${method}:${source.id}`,
      masked: `${method === 'card' ? 'Card' : 'E-wallet'} · ${new Date(source.created_at).toISOString().slice(0, 10)}`,
      toSource: true,
      sourceId: source.id,
      sourceRef: source.provider_ref,
    };
  }
  if (network) {
    if (destination.kind !== 'address') throw AppError.invalid({ destination: 'addressFormat' });
    // The address must be one of the method's network, checksum included (TRON's base58check).
    if (!chainAccount(network, destination.address))
      throw AppError.invalid({ destination: 'addressNetwork' });
    return {
      full: destination.address,
      masked: maskAddress(destination.address),
      toSource: false,
      sourceId: null,
      sourceRef: null,
    };
  }
  if (destination.kind !== 'bank') throw AppError.invalid({ destination: 'ibanFormat' });
  const iban = destination.iban.replace(/\s+/g, '');
  return {
    full: `iban:${iban}|${destination.beneficiary}`,
    masked: `IBAN …${iban.slice(-4)}`,
    toSource: false,
    sourceId: null,
    sourceRef: null,
  };
}

/** The risk flags a reviewer sees (issue 17 item 9). */
async function riskFlags(
  ports: TFundingPorts,
  actor: TActor,
  userId: string,
  input: {
    destination: string;
    amountUsd: number;
    fourEyesUsd: number;
    passwordChangedAt: Date | null;
    device: string | null;
  },
): Promise<string[]> {
  const { db } = ports;
  const flags: string[] = [];
  const dayAgo = new Date(Date.now() - 24 * 3_600_000);
  const [earlier, recent, lastDeposit] = await Promise.all([
    db
      .selectFrom('withdrawals')
      .select(['destination', 'device'])
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .where('status', 'not in', ['rejected'])
      .execute(),
    db
      .selectFrom('withdrawals')
      .select(sql<string>`count(*)`.as('n'))
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .where('created_at', '>', dayAgo)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('deposits')
      .select('updated_at')
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .where('status', '=', 'completed')
      .orderBy('updated_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  if (input.device && earlier.length > 0 && !earlier.some((w) => w.device === input.device))
    flags.push('new_device');
  if (!input.destination.startsWith('card:') && !input.destination.startsWith('ewallet:'))
    if (!earlier.some((w) => w.destination === input.destination)) flags.push('new_destination');
  if (lastDeposit) {
    const deals = await closedDealsByCurrency(db, {
      tenantId: actor.tenantId,
      userId,
      since: new Date(lastDeposit.updated_at).getTime(),
    });
    if (deals.reduce((n, d) => n + Number(d.deals), 0) === 0) flags.push('no_trading');
  }
  if (Number(recent.n) >= 2) flags.push('velocity');
  if (input.passwordChangedAt && Date.now() - input.passwordChangedAt.getTime() < 72 * 3_600_000)
    flags.push('password_changed');
  if (input.amountUsd > input.fourEyesUsd) flags.push('four_eyes');
  return flags;
}

/**
 * A withdrawal request: KYC, the funding password (counted), the lock after a password change, the
 * method's limits, and the destination; the amount is held at once through the engine (which refuses
 * more than the free margin, and the account's no-withdrawal restriction), so of any number of
 * parallel requests only those the balance covers are accepted. It then waits for review.
 */
export async function requestWithdrawal(
  ports: TFundingPorts,
  {
    actor,
    ...input
  }: {
    actor: TActor;
    account_id: number;
    method: TFundingMethod;
    amount: string;
    destination: TDestinationInput;
    fundPassword: string;
    idempotencyKey: string;
    device?: string | null;
  },
) {
  const { db } = ports;
  const userId = traderOf(actor);
  const key = `${actor.kind}:${actor.id}:${input.idempotencyKey}`;
  const amount = minor(input.amount);
  const earlier = await db
    .selectFrom('withdrawals')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  if (earlier) {
    if (
      Number(earlier.account_id) !== input.account_id ||
      Number(earlier.amount) !== amount ||
      earlier.method !== input.method
    )
      throw new AppError(AppErrorCode.IDEMPOTENCY_CONFLICT);
    if (earlier.status === 'initiated') await holdWithdrawal(ports, earlier as TWithdrawalRow);
    return withdrawalView(await loadWithdrawal(db, actor.tenantId, earlier.id));
  }
  await requireKyc(ports, actor, userId);
  const view = fundableAccount(ports, actor, input.account_id);
  if (view.restrictions.noWithdrawal) throw new AppError(AppErrorCode.ACCOUNT_RESTRICTED);
  const password = await checkFundPassword(db, {
    tenantId: actor.tenantId,
    userId,
    password: input.fundPassword,
  });
  if (password.lockedUntil && password.lockedUntil > new Date())
    throw new AppError(AppErrorCode.WITHDRAW_LOCKED, { until: password.lockedUntil.toISOString() });
  const settings = await fundingSettings(db, actor.tenantId);
  const rules = methodSettings(settings, input.method);
  const facts = METHOD_FACTS[input.method];
  if (!rules.withdrawEnabled || !ports.providers.has(facts.provider))
    throw new AppError(AppErrorCode.METHOD_UNAVAILABLE);
  const rate = rateMicros(facts.currency, view.currency);
  const fee = feeOf(
    amount,
    rules.withdrawFeeBp,
    Number((BigInt(minor(rules.withdrawFeeFixed)) * rate) / 1_000_000n),
  );
  const payout = toMethodMinor(amount - fee, rate);
  if (payout < minor(rules.withdrawMin) || payout > minor(rules.withdrawMax) || fee >= amount)
    throw new AppError(AppErrorCode.AMOUNT_OUT_OF_LIMITS, {
      min: rules.withdrawMin,
      max: rules.withdrawMax,
      currency: facts.currency,
    });
  if (amount > view.usableMargin || amount > view.balance)
    throw new AppError(AppErrorCode.INSUFFICIENT_FUNDS);
  const destination = await resolveDestination(ports, actor, userId, input.method, input.destination);
  const amountUsd = usdMinor(amount, view.currency);
  const flags = await riskFlags(ports, actor, userId, {
    destination: destination.full,
    amountUsd,
    fourEyesUsd: minor(settings.fourEyesUsd),
    // Only a change counts (a change is what sets the withdrawal lock); setting it the first time does not.
    passwordChangedAt: password.lockedUntil ? password.changedAt : null,
    device: input.device ?? null,
  });
  const id = newId();
  const now = new Date().toISOString();
  const inserted = await db
    .insertInto('withdrawals')
    .values({
      id,
      tenant_id: actor.tenantId,
      user_id: userId,
      account_id: view.accountId,
      method: input.method,
      provider: facts.provider,
      status: 'initiated',
      amount,
      fee,
      payout,
      method_currency: facts.currency,
      account_currency: view.currency,
      rate: rateText(rate),
      amount_usd: amountUsd,
      destination: destination.full,
      destination_masked: destination.masked,
      to_source: destination.toSource,
      source_deposit_id: destination.sourceId,
      source_ref: destination.sourceRef,
      device: input.device ?? null,
      flags: JSON.stringify(flags),
      steps: JSON.stringify([{ status: 'initiated', at: now }]),
      idempotency_key: key,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return requestWithdrawal(ports, { actor, ...input });
  const row = await loadWithdrawal(db, actor.tenantId, id);
  await holdWithdrawal(ports, row);
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'funding.withdrawal.request',
    target: String(view.accountId),
    ip: actor.ip,
    details: {
      withdrawalId: id,
      method: input.method,
      amount: money(amount),
      currency: view.currency,
      flags,
    },
  });
  return withdrawalView(await loadWithdrawal(db, actor.tenantId, id));
}

/** Holds the amount through the engine (key: the withdrawal id); a refusal removes the request. */
async function holdWithdrawal(ports: TFundingPorts, row: TWithdrawalRow) {
  const { db } = ports;
  let txId: number | null = null;
  try {
    const result = await submitOrThrow(ports.host, {
      type: 'withdraw',
      clientKey: `wd-hold:${row.id}`,
      time: Date.now(),
      accountId: Number(row.account_id),
      amount: Number(row.amount),
    });
    txId = result.events.find((e) => e.type === 'ledger')?.txId ?? null;
  } catch (error) {
    await db.deleteFrom('withdrawals').where('id', '=', row.id).where('status', '=', 'initiated').execute();
    throw error;
  }
  await db
    .updateTable('withdrawals')
    .set({
      status: 'awaiting_review',
      hold_tx_id: txId,
      steps: sql`steps || ${JSON.stringify([{ status: 'awaiting_review', at: new Date().toISOString() }])}::jsonb`,
      updated_at: new Date(),
    })
    .where('id', '=', row.id)
    .where('status', '=', 'initiated')
    .execute();
}

/**
 * Moves a withdrawal from one state to a final or next one in one conditional update (so racing
 * reviewers, the trader's cancel and provider events decide it once), appending the step.
 */
export async function moveWithdrawal(
  db: TDb,
  id: string,
  from: TWithdrawalStatus[],
  to: TWithdrawalStatus,
  set: Partial<{ reject_reason: string; failure: string; decided_by: string; provider_ref: string }> = {},
): Promise<boolean> {
  const result = await db
    .updateTable('withdrawals')
    .set({
      ...set,
      status: to,
      steps: sql`steps || ${JSON.stringify([{ status: to, at: new Date().toISOString() }])}::jsonb`,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a held amount back to the balance (rejected, failed, cancelled); the key is the withdrawal. */
export async function releaseHold(ports: TFundingPorts, row: TWithdrawalRow) {
  const result = await submitOrThrow(ports.host, {
    type: 'release_withdrawal',
    clientKey: `wd-release:${row.id}`,
    time: Date.now(),
    accountId: Number(row.account_id),
    amount: Number(row.amount),
  });
  await markFinal(ports.db, row.id, result.events);
}

async function markFinal(db: TDb, id: string, events: readonly { type: string; txId?: number }[]) {
  const txId = events.find((e) => e.type === 'ledger')?.txId ?? 0;
  await db.updateTable('withdrawals').set({ final_tx_id: txId }).where('id', '=', id).execute();
}

/** Settles a paid-out withdrawal: the hold goes to the payee and the fee to the broker. */
export async function settleHold(ports: TFundingPorts, row: TWithdrawalRow) {
  const result = await submitOrThrow(ports.host, {
    type: 'settle_withdrawal',
    clientKey: `wd-settle:${row.id}`,
    time: Date.now(),
    accountId: Number(row.account_id),
    amount: Number(row.amount),
    fee: Number(row.fee),
  });
  await markFinal(ports.db, row.id, result.events);
}

/** The trader cancels a withdrawal still awaiting review: it fails as `cancelled` and is released. */
export async function cancelWithdrawal(ports: TFundingPorts, { actor, id }: { actor: TActor; id: string }) {
  const { db } = ports;
  const userId = traderOf(actor);
  const row = await loadWithdrawal(db, actor.tenantId, id, userId);
  if (row.first_approved_by !== null) throw new AppError(AppErrorCode.WITHDRAWAL_NOT_CANCELLABLE);
  const moved = await db
    .updateTable('withdrawals')
    .set({
      status: 'failed',
      failure: 'cancelled',
      steps: sql`steps || ${JSON.stringify([{ status: 'failed', at: new Date().toISOString() }])}::jsonb`,
      updated_at: new Date(),
    })
    .where('id', '=', row.id)
    .where('status', '=', 'awaiting_review')
    .where('first_approved_by', 'is', null)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.WITHDRAWAL_NOT_CANCELLABLE);
  await releaseHold(ports, row);
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'funding.withdrawal.cancel',
    target: String(row.account_id),
    ip: actor.ip,
    details: { withdrawalId: row.id, amount: money(Number(row.amount)) },
  });
  return withdrawalView(await loadWithdrawal(db, actor.tenantId, row.id));
}

/** Asks the provider to pay out (idempotent per withdrawal); the result comes back by webhook. */
export async function sendPayout(ports: TFundingPorts, row: TWithdrawalRow) {
  const provider = providerOf(ports, row.provider);
  const { providerRef } = await provider.startPayout({
    withdrawalId: row.id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    amount: Number(row.payout),
    currency: row.method_currency,
    destination: row.destination,
    sourceRef: row.source_ref,
    ...(METHOD_FACTS[row.method as TFundingMethod].network
      ? { network: METHOD_FACTS[row.method as TFundingMethod].network as 'trc20' | 'erc20' }
      : {}),
  });
  await ports.db
    .updateTable('withdrawals')
    .set({ provider_ref: providerRef })
    .where('id', '=', row.id)
    .where('provider_ref', 'is', null)
    .execute();
}

/** A payout the provider reports: completed settles the hold, failed releases it. */
export async function payoutResult(
  ports: TFundingPorts,
  event: { withdrawalId: string; providerRef: string; completed: boolean; reason: string | null },
): Promise<'applied' | 'ignored'> {
  const { db } = ports;
  const row = await db
    .selectFrom('withdrawals')
    .selectAll()
    .where('id', '=', event.withdrawalId)
    .executeTakeFirst();
  if (!row) return 'ignored';
  const moved = await moveWithdrawal(
    db,
    row.id,
    ['processing'],
    event.completed ? 'completed' : 'failed',
    event.completed
      ? { provider_ref: event.providerRef }
      : { failure: event.reason ?? 'payout_failed', provider_ref: event.providerRef },
  );
  if (!moved) return 'ignored';
  if (event.completed) await settleHold(ports, row as TWithdrawalRow);
  else await releaseHold(ports, row as TWithdrawalRow);
  await recordAudit(db, {
    tenantId: row.tenant_id,
    actorKind: 'system',
    actorId: row.provider,
    action: event.completed ? 'funding.withdrawal.paid' : 'funding.withdrawal.failed',
    target: String(row.account_id),
    ip: null,
    details: { withdrawalId: row.id, providerRef: event.providerRef, reason: event.reason },
  });
  return 'applied';
}

/**
 * Finishes what a crash cut short: held requests still `initiated`, payouts not yet sent, and the
 * ledger step of final withdrawals (every engine step is keyed by the withdrawal, so a repeat is a
 * no-op that answers the first result).
 */
export async function finishWithdrawals(ports: TFundingPorts): Promise<void> {
  const { db } = ports;
  const stale = new Date(Date.now() - 5_000);
  const initiated = await db
    .selectFrom('withdrawals')
    .selectAll()
    .where('status', '=', 'initiated')
    .where('created_at', '<', stale)
    .execute();
  for (const row of initiated) await holdWithdrawal(ports, row as TWithdrawalRow).catch(() => undefined);
  const unsent = await db
    .selectFrom('withdrawals')
    .selectAll()
    .where('status', '=', 'processing')
    .where('provider_ref', 'is', null)
    .execute();
  for (const row of unsent) await sendPayout(ports, row as TWithdrawalRow).catch(() => undefined);
  const final = await db
    .selectFrom('withdrawals')
    .selectAll()
    .where('status', 'in', ['rejected', 'failed', 'completed'])
    .where('final_tx_id', 'is', null)
    .execute();
  for (const row of final) {
    const step = row.status === 'completed' ? settleHold : releaseHold;
    await step(ports, row as TWithdrawalRow).catch(() => undefined);
  }
}

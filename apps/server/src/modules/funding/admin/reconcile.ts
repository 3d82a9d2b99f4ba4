import type { TFundingSettings } from '@broker/contracts/admin/funding-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../../actor';
import { recordAudit } from '../../audit';
import { isDefaultTenant } from '../../tenancy';
import { money } from '../../trading';
import { minor } from '../amounts';
import { creditDeposit, depositView } from '../deposits';
import type { TFundingPorts } from '../ports';
import { fundingSettings, type METHOD_FACTS } from '../settings';

type TUnmatchedRow = {
  id: string;
  method: string;
  amount: string | number;
  currency: string;
  reference: string;
  suggested_deposit_id: string | null;
  received_at: Date;
  status: 'unmatched' | 'matched' | 'returned';
};

const unmatchedView = (r: TUnmatchedRow) => ({
  id: r.id,
  method: r.method as keyof typeof METHOD_FACTS,
  amount: money(Number(r.amount)),
  currency: r.currency,
  reference: r.reference,
  suggestedDepositId: r.suggested_deposit_id,
  receivedAt: new Date(r.received_at).toISOString(),
  status: r.status,
});

/**
 * Payments no deposit claimed. The platform operator (the default broker, whose staff run the
 * providers' accounts) also sees those no broker could be told from.
 */
async function unmatchedQuery(ports: TFundingPorts, actor: TActor) {
  const platform = await isDefaultTenant(ports.db, actor.tenantId);
  return ports.db
    .selectFrom('unmatched_payments')
    .where((eb) =>
      platform
        ? eb.or([eb('tenant_id', '=', actor.tenantId), eb('tenant_id', 'is', null)])
        : eb('tenant_id', '=', actor.tenantId),
    );
}

export async function unmatchedPayments(
  ports: TFundingPorts,
  { actor, status }: { actor: TActor; status: 'unmatched' | 'matched' | 'returned' },
) {
  const rows = await (await unmatchedQuery(ports, actor))
    .selectAll()
    .where('status', '=', status)
    .orderBy('received_at', 'desc')
    .limit(200)
    .execute();
  return { items: rows.map((r) => unmatchedView(r as TUnmatchedRow)) };
}

/**
 * Reconciles one received payment: matched to a deposit of this broker that is still open (it is
 * credited once, with what was received), or marked returned with a reason. The payment is claimed in
 * one conditional update, so two staff members cannot both match it.
 */
export async function reconcilePayment(
  ports: TFundingPorts,
  {
    actor,
    ...input
  }: { actor: TActor; paymentId: string } & (
    | { action: 'match'; depositId: string }
    | { action: 'return'; reason: string }
  ),
) {
  const { db } = ports;
  const payment = await (await unmatchedQuery(ports, actor))
    .selectAll()
    .where('id', '=', input.paymentId)
    .executeTakeFirst();
  if (!payment) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  let deposit = null;
  if (input.action === 'match') {
    const target = await db
      .selectFrom('deposits')
      .selectAll()
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', input.depositId)
      .where('status', 'in', ['pending', 'confirming', 'expired'])
      .executeTakeFirst();
    if (!target) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    if (target.method_currency !== payment.currency)
      throw AppError.invalid({ depositId: 'currencyMismatch' });
    const claimed = await db
      .updateTable('unmatched_payments')
      .set({ status: 'matched', deposit_id: target.id, decided_by: actor.id, tenant_id: actor.tenantId })
      .where('id', '=', payment.id)
      .where('status', '=', 'unmatched')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    await creditDeposit(ports, {
      depositId: target.id,
      providerRef: payment.provider_ref,
      amount: Number(payment.amount),
      sequence: 1_000_000,
    });
    const after = await db
      .selectFrom('deposits')
      .selectAll()
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    deposit = depositView(after as Parameters<typeof depositView>[0]);
  } else {
    const claimed = await db
      .updateTable('unmatched_payments')
      .set({ status: 'returned', reason: input.reason, decided_by: actor.id })
      .where('id', '=', payment.id)
      .where('status', '=', 'unmatched')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
  }
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: `funding.reconcile.${input.action}`,
    target: payment.id,
    ip: actor.ip,
    details: {
      reference: payment.reference,
      amount: money(Number(payment.amount)),
      currency: payment.currency,
      ...(input.action === 'match' ? { depositId: input.depositId } : { reason: input.reason }),
    },
  });
  const row = await db
    .selectFrom('unmatched_payments')
    .selectAll()
    .where('id', '=', payment.id)
    .executeTakeFirstOrThrow();
  return { payment: unmatchedView(row as TUnmatchedRow), deposit };
}

/**
 * A UTC day's money in and out, per provider, as our records have it against the provider's own
 * records: totals, and every payment missing on either side or with a different amount. Our side is
 * what the ledger was posted for: completed deposits (what the provider received) and completed
 * withdrawals (what was paid out).
 */
export async function reconciliationReport(
  ports: TFundingPorts,
  { actor, day }: { actor: TActor; day: string },
) {
  const { db } = ports;
  const start = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(start.getTime())) throw AppError.invalid({ day: 'dateFormat' });
  const end = new Date(start.getTime() + 86_400_000);
  const [deposits, withdrawals] = await Promise.all([
    db
      .selectFrom('deposits')
      .select(['id', 'provider', 'received', 'method_currency', 'ledger_tx_id'])
      .where('tenant_id', '=', actor.tenantId)
      .where('status', '=', 'completed')
      .where('updated_at', '>=', start)
      .where('updated_at', '<', end)
      .execute(),
    db
      .selectFrom('withdrawals')
      .select(['id', 'provider', 'payout', 'method_currency', 'final_tx_id'])
      .where('tenant_id', '=', actor.tenantId)
      .where('status', '=', 'completed')
      .where('updated_at', '>=', start)
      .where('updated_at', '<', end)
      .execute(),
  ]);
  const providers = [];
  for (const provider of ports.providers.values()) {
    const records = (await provider.records(day)).filter((r) => r.at >= start && r.at < end);
    const ours = new Map<
      string,
      { amount: number; direction: 'in' | 'out'; currency: string; posted: boolean }
    >();
    for (const d of deposits)
      if (d.provider === provider.id)
        ours.set(d.id, {
          amount: Number(d.received ?? 0),
          direction: 'in',
          currency: d.method_currency,
          posted: d.ledger_tx_id !== null,
        });
    for (const w of withdrawals)
      if (w.provider === provider.id)
        ours.set(w.id, {
          amount: Number(w.payout),
          direction: 'out',
          currency: w.method_currency,
          posted: w.final_tx_id !== null,
        });
    const theirs = new Map(records.map((r) => [r.reference, r]));
    const mismatches: {
      reference: string;
      problem: string;
      ledgerAmount: string | null;
      providerAmount: string | null;
    }[] = [];
    let ledgerIn = 0;
    let ledgerOut = 0;
    let providerIn = 0;
    let providerOut = 0;
    for (const [reference, mine] of ours) {
      if (mine.direction === 'in') ledgerIn += mine.amount;
      else ledgerOut += mine.amount;
      const other = theirs.get(reference);
      if (!mine.posted)
        mismatches.push({
          reference,
          problem: 'missing_in_ledger',
          ledgerAmount: null,
          providerAmount: money(mine.amount),
        });
      else if (!other)
        mismatches.push({
          reference,
          problem: 'missing_at_provider',
          ledgerAmount: money(mine.amount),
          providerAmount: null,
        });
      else if (other.amount !== mine.amount)
        mismatches.push({
          reference,
          problem: 'amount_differs',
          ledgerAmount: money(mine.amount),
          providerAmount: money(other.amount),
        });
    }
    for (const record of records) {
      if (record.direction === 'in') providerIn += record.amount;
      else providerOut += record.amount;
      // The provider's records cover every broker: only this broker's references count as missing.
      if (!ours.has(record.reference)) {
        const known = await db
          .selectFrom(record.direction === 'in' ? 'deposits' : 'withdrawals')
          .select(['tenant_id', 'status'])
          .where('id', '=', record.reference)
          .executeTakeFirst();
        if (known?.tenant_id === actor.tenantId)
          mismatches.push({
            reference: record.reference,
            problem: 'missing_in_ledger',
            ledgerAmount: null,
            providerAmount: money(record.amount),
          });
        else if (record.direction === 'in') providerIn -= record.amount;
        else providerOut -= record.amount;
      }
    }
    providers.push({
      provider: provider.id,
      ledgerIn: money(ledgerIn),
      providerIn: money(providerIn),
      ledgerOut: money(ledgerOut),
      providerOut: money(providerOut),
      currency: provider.id === 'sandboxchain' ? 'USDT' : 'USD',
      mismatches,
    });
  }
  return { day, providers };
}

/** The broker's funding settings. */
export function readFundingSettings(ports: TFundingPorts, { actor }: { actor: TActor }) {
  return fundingSettings(ports.db, actor.tenantId);
}

/** Saves the broker's funding settings, audited with before and after. */
export async function saveFundingSettings(
  ports: TFundingPorts,
  { actor, settings }: { actor: TActor; settings: TFundingSettings },
) {
  const { db } = ports;
  for (const m of settings.methods) {
    if (minor(m.depositMin) > minor(m.depositMax))
      throw AppError.invalid({ [`${m.method}.depositMin`]: 'minAboveMax' });
    if (minor(m.withdrawMin) > minor(m.withdrawMax))
      throw AppError.invalid({ [`${m.method}.withdrawMin`]: 'minAboveMax' });
  }
  const before = await fundingSettings(db, actor.tenantId);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('funding_settings')
      .values({ tenant_id: actor.tenantId, settings: JSON.stringify(settings), updated_by: actor.id })
      .onConflict((oc) =>
        oc
          .column('tenant_id')
          .doUpdateSet({ settings: JSON.stringify(settings), updated_by: actor.id, updated_at: new Date() }),
      )
      .execute();
    await recordAudit(trx, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'funding.settings',
      target: actor.tenantId,
      ip: actor.ip,
      details: { before, after: settings },
    });
  });
  return fundingSettings(db, actor.tenantId);
}

import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { maskEmail } from '@broker/domain/identity/credentials';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import Big from 'big.js';
import type { TCallContext } from '../../../http/context';
import { newId } from '../../../ids';
import { recordAudit } from '../../audit/audit';
import { ensureDefaultGroup } from '../../trading/terms-sync';

type TRule = TRouteOutput<'adminriskrules'>['rules'][number];
type TRuleInput = TRouteInput<'adminriskrulesave'>;

const ruleColumns = [
  'r.id',
  'r.priority',
  'r.kind',
  'r.group_id',
  'r.user_id',
  'r.min_realized_profit',
  'r.min_win_rate_bp',
  'r.min_trades',
  'r.window_days',
  'r.book',
  'r.enabled',
  'r.note',
  'r.updated_at',
  'g.name as group_name',
  'u.display_name as user_name',
  'u.email as user_email',
] as const;

function rulesQuery(ctx: TCallContext) {
  return ctx.services.database.db
    .selectFrom('risk_book_rules as r')
    .leftJoin('account_groups as g', 'g.id', 'r.group_id')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .select(ruleColumns)
    .where('r.tenant_id', '=', ctx.tenant.id);
}

type TRuleRow = Awaited<ReturnType<ReturnType<typeof rulesQuery>['executeTakeFirstOrThrow']>>;

function toRule(r: TRuleRow): TRule {
  return {
    id: r.id,
    priority: r.priority,
    kind: r.kind,
    groupId: r.group_id,
    groupName: r.group_name,
    userId: r.user_id,
    userName: r.user_name,
    // Masked as on the customer list; the customer page shows it in full and records the look.
    userEmail: r.user_email ? maskEmail(r.user_email) : r.user_email,
    minRealizedProfitUsd: r.min_realized_profit === null ? null : new Big(r.min_realized_profit).toFixed(2),
    minWinRate: r.min_win_rate_bp === null ? null : new Big(r.min_win_rate_bp).div(100).toFixed(2),
    minTrades: r.min_trades,
    windowDays: r.window_days,
    book: r.book,
    enabled: r.enabled,
    note: r.note,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export async function listRules(ctx: TCallContext): Promise<TRouteOutput<'adminriskrules'>> {
  await ensureDefaultGroup(ctx.services.database.db, ctx.tenant.id);
  const rows = await rulesQuery(ctx).orderBy('r.priority').orderBy('r.id').execute();
  const groups = await ctx.services.database.db
    .selectFrom('account_groups')
    .select(['id', 'name'])
    .where('tenant_id', '=', ctx.tenant.id)
    .orderBy('is_default', 'desc')
    .orderBy('name')
    .execute();
  return { rules: rows.map(toRule), groups };
}

async function ruleById(ctx: TCallContext, id: string): Promise<TRule | undefined> {
  const row = await rulesQuery(ctx).where('r.id', '=', id).executeTakeFirst();
  return row ? toRule(row) : undefined;
}

/** The customer a rule names: a user id or an e-mail address of this broker's customers. */
async function findCustomer(ctx: TCallContext, text: string): Promise<string | undefined> {
  const row = await ctx.services.database.db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', ctx.tenant.id)
    .where((eb) => eb.or([eb('id', '=', text), eb(eb.fn('lower', ['email']), '=', text.toLowerCase())]))
    .executeTakeFirst();
  return row?.id;
}

/** Checks a rule's fields for its kind and turns them into columns. */
async function ruleColumnsOf(ctx: TCallContext, input: TRuleInput) {
  const columns = {
    priority: input.priority,
    kind: input.kind,
    group_id: null as string | null,
    user_id: null as string | null,
    min_realized_profit: null as string | null,
    min_win_rate_bp: null as number | null,
    min_trades: input.minTrades,
    window_days: input.windowDays,
    book: input.book,
    enabled: input.enabled,
    note: input.note,
  };
  if (input.kind === 'group') {
    if (!input.groupId) throw AppError.invalid({ groupId: 'required' });
    const group = await ctx.services.database.db
      .selectFrom('account_groups')
      .select('id')
      .where('tenant_id', '=', ctx.tenant.id)
      .where('id', '=', input.groupId)
      .executeTakeFirst();
    if (!group) throw AppError.invalid({ groupId: 'invalid' });
    columns.group_id = group.id;
  } else if (input.kind === 'customer') {
    if (!input.customer) throw AppError.invalid({ customer: 'required' });
    const userId = await findCustomer(ctx, input.customer);
    if (!userId) throw AppError.invalid({ customer: 'invalid' });
    columns.user_id = userId;
  } else {
    const profit = input.minRealizedProfitUsd ?? null;
    const winRate = input.minWinRate ?? null;
    if (profit === null && winRate === null)
      throw AppError.invalid({ minRealizedProfitUsd: 'required', minWinRate: 'required' });
    if (winRate !== null) {
      const bp = new Big(winRate).times(100);
      if (bp.gt(10_000)) throw AppError.invalid({ minWinRate: 'invalid' });
      columns.min_win_rate_bp = bp.round(0, Big.roundHalfUp).toNumber();
    }
    columns.min_realized_profit = profit === null ? null : new Big(profit).toFixed(2);
  }
  return columns;
}

export async function saveRule(ctx: TCallContext, input: TRuleInput): Promise<TRule> {
  const columns = await ruleColumnsOf(ctx, input);
  const db = ctx.services.database.db;
  const before = input.id ? await ruleById(ctx, input.id) : undefined;
  if (input.id && !before) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  const id = input.id ?? newId();
  await db.transaction().execute(async (trx) => {
    if (before) {
      await trx
        .updateTable('risk_book_rules')
        .set({ ...columns, updated_at: new Date() })
        .where('tenant_id', '=', ctx.tenant.id)
        .where('id', '=', id)
        .execute();
    } else {
      await trx
        .insertInto('risk_book_rules')
        .values({ id, tenant_id: ctx.tenant.id, ...columns })
        .execute();
    }
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: ctx.staff?.staffId ?? null,
      action: before ? 'risk.rule.update' : 'risk.rule.create',
      target: id,
      ip: ctx.ip,
      details: { before: before ?? null, after: columns },
    });
  });
  ctx.services.liquidity.invalidateRules(ctx.tenant.id);
  const saved = await ruleById(ctx, id);
  if (!saved) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return saved;
}

export async function deleteRule(ctx: TCallContext, id: string): Promise<{ ok: true }> {
  const before = await ruleById(ctx, id);
  if (!before) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  await ctx.services.database.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('risk_book_rules')
      .where('tenant_id', '=', ctx.tenant.id)
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: ctx.staff?.staffId ?? null,
      action: 'risk.rule.delete',
      target: id,
      ip: ctx.ip,
      details: { before },
    });
  });
  ctx.services.liquidity.invalidateRules(ctx.tenant.id);
  return { ok: true };
}

import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { maskEmail } from '@broker/domain/identity/credentials';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import Big from 'big.js';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { newId } from '../../../ids';
import { recordAudit } from '../../audit';
import { userIdByIdOrEmail, userNames } from '../../identity';
import { brokerGroups, ensureDefaultGroup, groupNames } from '../../trading';
import type { LiquidityService } from '../liquidity-service';

type TRule = TRouteOutput<'adminriskrules'>['rules'][number];
type TRuleInput = TRouteInput<'adminriskrulesave'>;

/** What changing the routing rules works with: the database, and the hedging service's rule cache. */
export interface TRulePorts {
  db: TDb;
  liquidity: Pick<LiquidityService, 'invalidateRules'>;
}

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
] as const;

function rulesQuery(db: TDb, tenantId: string) {
  return db.selectFrom('risk_book_rules as r').select(ruleColumns).where('r.tenant_id', '=', tenantId);
}

type TRuleRow = Awaited<ReturnType<ReturnType<typeof rulesQuery>['executeTakeFirstOrThrow']>> & {
  group_name: string | null;
};

/** The rules' rows with the names of the groups they name (the trading module's groups). */
async function withGroupNames<T extends { group_id: string | null }>(
  db: TDb,
  tenantId: string,
  rows: T[],
): Promise<(T & { group_name: string | null })[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.group_id ? [r.group_id] : [])))];
  const names = await groupNames(db, { tenantId, ids });
  return rows.map((r) => ({ ...r, group_name: r.group_id ? (names.get(r.group_id) ?? null) : null }));
}

/** The customers the rules name (identity's traders), asked once for all the rules. */
const customersOf = (db: TDb, tenantId: string, rows: readonly { user_id: string | null }[]) =>
  userNames(db, { tenantId, ids: rows.flatMap((r) => (r.user_id ? [r.user_id] : [])) });

function toRule(r: TRuleRow, customers: Awaited<ReturnType<typeof customersOf>>): TRule {
  const customer = r.user_id ? customers.get(r.user_id) : undefined;
  const email = customer?.email ?? null;
  return {
    id: r.id,
    priority: r.priority,
    kind: r.kind,
    groupId: r.group_id,
    groupName: r.group_name,
    userId: r.user_id,
    userName: customer?.name ?? null,
    // Masked as on the customer list; the customer page shows it in full and records the look.
    userEmail: email ? maskEmail(email) : email,
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

export async function listRules(
  ports: { db: TDb },
  { actor }: { actor: TActor },
): Promise<TRouteOutput<'adminriskrules'>> {
  const { db } = ports;
  await ensureDefaultGroup(db, actor.tenantId);
  const rows = await withGroupNames(
    db,
    actor.tenantId,
    await rulesQuery(db, actor.tenantId).orderBy('r.priority').orderBy('r.id').execute(),
  );
  const groups = await brokerGroups(db, actor.tenantId);
  const customers = await customersOf(db, actor.tenantId, rows);
  return { rules: rows.map((r) => toRule(r, customers)), groups };
}

async function ruleById(db: TDb, tenantId: string, id: string): Promise<TRule | undefined> {
  const [row] = await withGroupNames(
    db,
    tenantId,
    await rulesQuery(db, tenantId).where('r.id', '=', id).execute(),
  );
  return row ? toRule(row, await customersOf(db, tenantId, [row])) : undefined;
}

/** Checks a rule's fields for its kind and turns them into columns. */
async function ruleColumnsOf(db: TDb, tenantId: string, input: TRuleInput) {
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
    const [groupId] = (await groupNames(db, { tenantId, ids: [input.groupId] })).keys();
    if (!groupId) throw AppError.invalid({ groupId: 'invalid' });
    columns.group_id = groupId;
  } else if (input.kind === 'customer') {
    if (!input.customer) throw AppError.invalid({ customer: 'required' });
    // The customer a rule names: a user id or an e-mail address of this broker's customers.
    const userId = await userIdByIdOrEmail(db, { tenantId, text: input.customer });
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

export async function saveRule(
  ports: TRulePorts,
  { actor, ...input }: TRuleInput & { actor: TActor },
): Promise<TRule> {
  const { db } = ports;
  const tenantId = actor.tenantId;
  const columns = await ruleColumnsOf(db, tenantId, input);
  const before = input.id ? await ruleById(db, tenantId, input.id) : undefined;
  if (input.id && !before) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  const id = input.id ?? newId();
  await db.transaction().execute(async (trx) => {
    if (before) {
      await trx
        .updateTable('risk_book_rules')
        .set({ ...columns, updated_at: new Date() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .execute();
    } else {
      await trx
        .insertInto('risk_book_rules')
        .values({ id, tenant_id: tenantId, ...columns })
        .execute();
    }
    await recordAudit(trx, {
      tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: before ? 'risk.rule.update' : 'risk.rule.create',
      target: id,
      ip: actor.ip,
      details: { before: before ?? null, after: columns },
    });
  });
  ports.liquidity.invalidateRules(tenantId);
  const saved = await ruleById(db, tenantId, id);
  if (!saved) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return saved;
}

export async function deleteRule(
  ports: TRulePorts,
  { actor, id }: { actor: TActor; id: string },
): Promise<{ ok: true }> {
  const tenantId = actor.tenantId;
  const before = await ruleById(ports.db, tenantId, id);
  if (!before) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  await ports.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('risk_book_rules').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
    await recordAudit(trx, {
      tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'risk.rule.delete',
      target: id,
      ip: actor.ip,
      details: { before },
    });
  });
  ports.liquidity.invalidateRules(tenantId);
  return { ok: true };
}

import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { MarginState, marginState } from '@broker/domain/trading/trigger-book';
import Big from 'big.js';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { recordAudit } from '../../audit';
import { type MarketService, recordConfigChange, UsdConverter, usd } from '../../market';
import type { TTradingPorts } from '../ports';
import { applyMarketConfig, ensureDefaultGroup } from '../terms-sync';
import { brokerAccounts } from './exposure';
import { groupsOf } from './lookups';

type TLevels = TRouteOutput<'adminrisklevels'>[number];

/** Levels must leave room between the margin call and the stop-out (MT5 refuses the same). */
export function levelProblems(input: { marginCallBp: number; stopOutBp: number }): Record<string, string> {
  const fields: Record<string, string> = {};
  if (input.marginCallBp < 1 || input.marginCallBp > 100_000) fields.marginCallBp = 'invalid';
  if (input.stopOutBp < 0 || input.stopOutBp > 100_000) fields.stopOutBp = 'invalid';
  if (!fields.marginCallBp && !fields.stopOutBp && input.stopOutBp >= input.marginCallBp)
    fields.stopOutBp = 'invalid';
  return fields;
}

function levelsQuery(db: TDb, tenantId: string) {
  return db
    .selectFrom('account_groups as g')
    .select([
      'g.id',
      'g.name',
      'g.is_default',
      'g.margin_call_bp',
      'g.stop_out_bp',
      'g.negative_balance_protection',
      'g.updated_at',
      sql<string>`(select count(*) from trading_accounts a where a.tenant_id = g.tenant_id and (a.group_id = g.id or (a.group_id is null and g.is_default)) and not a.closed)`.as(
        'accounts',
      ),
    ])
    .where('g.tenant_id', '=', tenantId);
}

type TLevelRow = Awaited<ReturnType<ReturnType<typeof levelsQuery>['executeTakeFirstOrThrow']>>;

const toLevels = (g: TLevelRow): TLevels => ({
  id: g.id,
  name: g.name,
  isDefault: g.is_default,
  marginCallBp: g.margin_call_bp,
  stopOutBp: g.stop_out_bp,
  negativeBalanceProtection: g.negative_balance_protection,
  accounts: Number(g.accounts),
  updatedAt: new Date(g.updated_at).toISOString(),
});

export async function listLevels(ports: { db: TDb }, { actor }: { actor: TActor }): Promise<TLevels[]> {
  await ensureDefaultGroup(ports.db, actor.tenantId);
  const rows = await levelsQuery(ports.db, actor.tenantId)
    .orderBy('g.is_default', 'desc')
    .orderBy('g.name')
    .execute();
  return rows.map(toLevels);
}

/**
 * Saves a group's margin-call and stop-out levels and negative-balance protection, records the
 * change (audit trail and the market-configuration history), then makes it live in the engine for
 * every account of the group.
 */
export async function saveLevels(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'adminrisklevelsave'> & { actor: TActor },
): Promise<TLevels> {
  const problems = levelProblems(input);
  if (Object.keys(problems).length > 0)
    throw new AppError(AppErrorCode.CONFIG_INVALID, undefined, undefined, problems);
  const { db } = ports;
  const tenantId = actor.tenantId;
  const before = await levelsQuery(db, tenantId).where('g.id', '=', input.groupId).executeTakeFirst();
  if (!before) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  if (input.updatedAt && new Date(before.updated_at).toISOString() !== input.updatedAt)
    throw new AppError(AppErrorCode.STALE_UPDATE);
  const previous = {
    marginCallBp: before.margin_call_bp,
    stopOutBp: before.stop_out_bp,
    negativeBalanceProtection: before.negative_balance_protection,
  };
  const next = {
    marginCallBp: input.marginCallBp,
    stopOutBp: input.stopOutBp,
    negativeBalanceProtection: input.negativeBalanceProtection,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('account_groups')
      .set({
        margin_call_bp: input.marginCallBp,
        stop_out_bp: input.stopOutBp,
        negative_balance_protection: input.negativeBalanceProtection,
        updated_at: new Date(),
      })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', input.groupId)
      .execute();
    await recordConfigChange(
      { db: trx },
      { actor, scope: 'group', symbol: null, groupId: input.groupId, before: previous, after: next },
    );
    await recordAudit(trx, {
      tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'risk.levels.update',
      target: input.groupId,
      ip: actor.ip,
      details: { group: before.name, before: previous, after: next },
    });
  });
  await applyMarketConfig(ports.host, tenantId);
  const saved = await levelsQuery(db, tenantId).where('g.id', '=', input.groupId).executeTakeFirstOrThrow();
  return toLevels(saved);
}

/**
 * What proposed levels would do now to the open accounts of a group: the engine applies levels at
 * once, so a stop-out level above an account's margin level closes its positions the moment the
 * change is saved. Read from the engine's live figures; nothing is changed.
 */
export async function previewLevels(
  ports: TTradingPorts & { market: MarketService },
  { actor, ...input }: TRouteInput<'adminrisklevelpreview'> & { actor: TActor },
): Promise<TRouteOutput<'adminrisklevelpreview'>> {
  const { db } = ports;
  const group = await levelsQuery(db, actor.tenantId).where('g.id', '=', input.groupId).executeTakeFirst();
  if (!group) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  const accounts = brokerAccounts(ports.host, actor.tenantId).filter((a) => !a.view.closed);
  const { accountGroup } = await groupsOf(
    db,
    actor.tenantId,
    accounts.map((a) => a.view.accountId),
  );
  const mine = accounts.filter((a) => accountGroup.get(a.view.accountId) === input.groupId);
  const toUsd = new UsdConverter(ports.market);
  let trading = 0;
  let marginCall = 0;
  let stopOut = 0;
  let stopOutPositions = 0;
  let floating = new Big(0);
  for (const { view, positions } of mine) {
    if (view.margin <= 0) continue;
    trading++;
    // The engine's own rule, on the same exact figures (equity includes copy and strategy equity).
    const state = marginState(view.totalEquity, view.margin, input.marginCallBp, input.stopOutBp);
    if (state === MarginState.STOP_OUT) {
      stopOut++;
      stopOutPositions += positions.length;
      floating = floating.plus(toUsd.minor(view.equity - view.balance, view.currency));
    } else if (state === MarginState.MARGIN_CALL) marginCall++;
  }
  return {
    accounts: mine.length,
    trading,
    marginCall,
    stopOut,
    stopOutPositions,
    stopOutFloatingUsd: usd(floating),
  };
}

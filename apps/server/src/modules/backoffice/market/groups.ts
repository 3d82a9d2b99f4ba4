import type { TAccountGroup } from '@broker/contracts/admin/market-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TCallContext } from '../../../http/context';
import { newId } from '../../../ids';
import { recordAudit } from '../../audit/audit';
import { ensureDefaultGroup } from '../../trading/terms-sync';
import { applyLive } from './live';
import { configInvalid } from './problems';
import {
  findGroupRecord,
  groupNameTaken,
  insertHistory,
  listGroupRecords,
  listGroupTerms,
  type TGroupRecord,
} from './store';

/** What the history keeps of a group itself. */
const groupSnapshot = (g: Pick<TGroupRecord, 'name' | 'description' | 'isDefault'>) => ({
  name: g.name,
  description: g.description,
  isDefault: g.isDefault,
});

/** The broker's account groups (the default one is created on first use). */
export async function listGroups(ctx: TCallContext): Promise<TAccountGroup[]> {
  const db = ctx.services.database.db;
  await ensureDefaultGroup(db, ctx.tenant.id);
  return listGroupRecords(db, ctx.tenant.id);
}

/** Creates a group, or renames and describes one (refused -6017 when it changed since `version`). */
export async function saveGroup(
  ctx: TCallContext,
  input: { id?: string | undefined; name: string; description: string; version?: string | undefined },
): Promise<{ item: TAccountGroup; applied: boolean }> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  const staffId = ctx.staff?.staffId ?? null;
  if (input.id && !input.version) throw AppError.invalid({ version: 'required' });
  const result = await db.transaction().execute(async (trx) => {
    if (await groupNameTaken(trx, tenantId, input.name, input.id)) throw configInvalid({ name: 'nameTaken' });
    if (!input.id) {
      const id = newId();
      await trx
        .insertInto('account_groups')
        .values({ id, tenant_id: tenantId, name: input.name, description: input.description })
        .execute();
      const after = { name: input.name, description: input.description, isDefault: false };
      const historyId = await insertHistory(trx, {
        tenantId,
        staffId,
        scope: 'group',
        groupId: id,
        before: null,
        after,
      });
      await recordAudit(trx, {
        tenantId,
        actorKind: 'staff',
        actorId: staffId,
        action: 'market.groupCreate',
        target: id,
        ip: ctx.ip,
        details: { ...after, historyId },
      });
      return { id, changed: true };
    }
    const current = await findGroupRecord(trx, tenantId, input.id, { forUpdate: true });
    if (!current) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    if (current.version !== input.version) throw new AppError(AppErrorCode.STALE_UPDATE);
    if (current.name === input.name && current.description === input.description)
      return { id: current.id, changed: false };
    await trx
      .updateTable('account_groups')
      .set({
        name: input.name,
        description: input.description,
        updated_at: sql<Date>`greatest(now(), updated_at + interval '1 microsecond')`,
      })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', current.id)
      .execute();
    const before = groupSnapshot(current);
    const after = { ...before, name: input.name, description: input.description };
    const historyId = await insertHistory(trx, {
      tenantId,
      staffId,
      scope: 'group',
      groupId: current.id,
      before,
      after,
    });
    await recordAudit(trx, {
      tenantId,
      actorKind: 'staff',
      actorId: staffId,
      action: 'market.groupUpdate',
      target: current.id,
      ip: ctx.ip,
      details: { before, after, historyId },
    });
    return { id: current.id, changed: true };
  });
  const applied = result.changed ? await applyLive(ctx) : true;
  const item = await findGroupRecord(db, tenantId, result.id);
  if (!item) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return { item, applied };
}

/**
 * Deletes a group with its overrides. The default group, and a group that still has accounts, are
 * refused (-6013 on `id`): move the accounts first.
 */
export async function deleteGroup(
  ctx: TCallContext,
  input: { id: string; version: string },
): Promise<{ ok: true; applied: boolean }> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  const staffId = ctx.staff?.staffId ?? null;
  await db.transaction().execute(async (trx) => {
    const current = await findGroupRecord(trx, tenantId, input.id, { forUpdate: true });
    if (!current) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    if (current.version !== input.version) throw new AppError(AppErrorCode.STALE_UPDATE);
    if (current.isDefault) throw configInvalid({ id: 'defaultGroup' });
    if (current.accounts > 0) throw configInvalid({ id: 'groupHasAccounts' });
    const terms = await listGroupTerms(trx, tenantId, { groupId: current.id });
    const before = {
      ...groupSnapshot(current),
      overrides: Object.fromEntries(terms.map((t) => [t.symbol, t.overrides])),
    };
    await trx
      .deleteFrom('account_groups')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', current.id)
      .execute();
    const historyId = await insertHistory(trx, {
      tenantId,
      staffId,
      scope: 'group',
      groupId: current.id,
      before,
      after: null,
    });
    await recordAudit(trx, {
      tenantId,
      actorKind: 'staff',
      actorId: staffId,
      action: 'market.groupDelete',
      target: current.id,
      ip: ctx.ip,
      details: { name: current.name, historyId },
    });
  });
  return { ok: true, applied: await applyLive(ctx) };
}

/** Makes a group the default one: new trading accounts join it. */
export async function setDefaultGroup(
  ctx: TCallContext,
  input: { id: string },
): Promise<{ ok: true; applied: boolean }> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  const staffId = ctx.staff?.staffId ?? null;
  await ensureDefaultGroup(db, tenantId);
  const changed = await db.transaction().execute(async (trx) => {
    const target = await findGroupRecord(trx, tenantId, input.id, { forUpdate: true });
    if (!target) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    if (target.isDefault) return false;
    const previous = await trx
      .selectFrom('account_groups')
      .select(['id', 'name', 'description'])
      .where('tenant_id', '=', tenantId)
      .where('is_default', '=', true)
      .executeTakeFirst();
    const touch = { updated_at: sql<Date>`greatest(now(), updated_at + interval '1 microsecond')` } as const;
    await trx
      .updateTable('account_groups')
      .set({ is_default: false, ...touch })
      .where('tenant_id', '=', tenantId)
      .where('is_default', '=', true)
      .execute();
    await trx
      .updateTable('account_groups')
      .set({ is_default: true, ...touch })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', target.id)
      .execute();
    if (previous)
      await insertHistory(trx, {
        tenantId,
        staffId,
        scope: 'group',
        groupId: previous.id,
        before: { name: previous.name, description: previous.description, isDefault: true },
        after: { name: previous.name, description: previous.description, isDefault: false },
      });
    const historyId = await insertHistory(trx, {
      tenantId,
      staffId,
      scope: 'group',
      groupId: target.id,
      before: groupSnapshot(target),
      after: { ...groupSnapshot(target), isDefault: true },
    });
    await recordAudit(trx, {
      tenantId,
      actorKind: 'staff',
      actorId: staffId,
      action: 'market.groupDefault',
      target: target.id,
      ip: ctx.ip,
      details: { name: target.name, previous: previous?.id ?? null, historyId },
    });
    return true;
  });
  return { ok: true, applied: changed ? await applyLive(ctx) : true };
}

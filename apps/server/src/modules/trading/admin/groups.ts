import type { TAccountGroup } from '@broker/contracts/admin/market-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { newId } from '../../../ids';
import { recordAudit } from '../../audit';
import { applyLive, configInvalid, recordConfigChange, type TErrorLog } from '../../market';
import type { TTradingPorts } from '../ports';
import { ensureDefaultGroup } from '../terms-sync';
import {
  findGroupRecord,
  groupNameTaken,
  listGroupRecords,
  listGroupTerms,
  type TGroupRecord,
} from './group-store';

/** What changing groups works with: the engine (it makes the change live), the database, a log. */
export type TGroupPorts = TTradingPorts & { log: TErrorLog };

/** What the history keeps of a group itself. */
const groupSnapshot = (g: Pick<TGroupRecord, 'name' | 'description' | 'isDefault'>) => ({
  name: g.name,
  description: g.description,
  isDefault: g.isDefault,
});

/**
 * Records a change of a group in the market configuration's history and in the audit trail, whose
 * entry names the history entry.
 */
async function recordGroupChange(
  trx: TDb,
  actor: TActor,
  change: {
    action: string;
    groupId: string;
    before: unknown;
    after: unknown;
    details: Record<string, unknown>;
  },
) {
  const historyId = await recordConfigChange(
    { db: trx },
    { actor, scope: 'group', groupId: change.groupId, before: change.before, after: change.after },
  );
  await recordAudit(trx, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: change.action,
    target: change.groupId,
    ip: actor.ip,
    details: { ...change.details, historyId },
  });
}

/** The broker's account groups (the default one is created on first use). */
export async function listGroups(ports: { db: TDb }, { actor }: { actor: TActor }): Promise<TAccountGroup[]> {
  const { db } = ports;
  await ensureDefaultGroup(db, actor.tenantId);
  return listGroupRecords(db, actor.tenantId);
}

/** Creates a group, or renames and describes one (refused -6017 when it changed since `version`). */
export async function saveGroup(
  ports: TGroupPorts,
  {
    actor,
    ...input
  }: {
    actor: TActor;
    id?: string | undefined;
    name: string;
    description: string;
    version?: string | undefined;
  },
): Promise<{ item: TAccountGroup; applied: boolean }> {
  const { db } = ports;
  const tenantId = actor.tenantId;
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
      await recordGroupChange(trx, actor, {
        action: 'market.groupCreate',
        groupId: id,
        before: null,
        after,
        details: after,
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
    await recordGroupChange(trx, actor, {
      action: 'market.groupUpdate',
      groupId: current.id,
      before,
      after,
      details: { before, after },
    });
    return { id: current.id, changed: true };
  });
  const applied = result.changed ? await applyLive(ports, tenantId) : true;
  const item = await findGroupRecord(db, tenantId, result.id);
  if (!item) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return { item, applied };
}

/**
 * Deletes a group with its overrides. The default group, and a group that still has accounts, are
 * refused (-6013 on `id`): move the accounts first.
 */
export async function deleteGroup(
  ports: TGroupPorts,
  { actor, ...input }: { actor: TActor; id: string; version: string },
): Promise<{ ok: true; applied: boolean }> {
  const { db } = ports;
  const tenantId = actor.tenantId;
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
    await recordGroupChange(trx, actor, {
      action: 'market.groupDelete',
      groupId: current.id,
      before,
      after: null,
      details: { name: current.name },
    });
  });
  return { ok: true, applied: await applyLive(ports, tenantId) };
}

/** Makes a group the default one: new trading accounts join it. */
export async function setDefaultGroup(
  ports: TGroupPorts,
  { actor, ...input }: { actor: TActor; id: string },
): Promise<{ ok: true; applied: boolean }> {
  const { db } = ports;
  const tenantId = actor.tenantId;
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
      await recordConfigChange(
        { db: trx },
        {
          actor,
          scope: 'group',
          groupId: previous.id,
          before: { name: previous.name, description: previous.description, isDefault: true },
          after: { name: previous.name, description: previous.description, isDefault: false },
        },
      );
    await recordGroupChange(trx, actor, {
      action: 'market.groupDefault',
      groupId: target.id,
      before: groupSnapshot(target),
      after: { ...groupSnapshot(target), isDefault: true },
      details: { name: target.name, previous: previous?.id ?? null },
    });
    return true;
  });
  return { ok: true, applied: changed ? await applyLive(ports, tenantId) : true };
}

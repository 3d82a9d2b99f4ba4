import type { TAccountGroup } from '@broker/contracts/admin/market-routes';
import {
  canonicalOverrides,
  changedKeys,
  type TGroupOverrides,
  validateGroupOverrides,
} from '@broker/domain/market/market-config';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { recordAudit } from '../../audit';
import { applyLive, findInstrumentRecord, recordConfigChange, throwIfProblems } from '../../market';
import { findGroupRecord, findGroupTerms, listGroupTerms } from './group-store';
import type { TGroupPorts } from './groups';

/** One group with its overrides, by symbol. */
export async function groupTerms(
  ports: { db: TDb },
  { actor, ...input }: { actor: TActor; groupId: string },
): Promise<{
  group: TAccountGroup;
  items: { symbol: string; overrides: TGroupOverrides; version: string }[];
}> {
  const { db } = ports;
  const group = await findGroupRecord(db, actor.tenantId, input.groupId);
  if (!group) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  const terms = await listGroupTerms(db, actor.tenantId, { groupId: group.id });
  return {
    group,
    items: terms.map((t) => ({ symbol: t.symbol, overrides: t.overrides, version: t.version })),
  };
}

/**
 * Sets a group's overrides of one instrument; an empty set removes them. `version` is the overrides'
 * version as read (null when there were none); a mismatch answers -6017. The overrides must leave
 * the merged terms valid (-6013 on the overridden fields).
 */
export async function saveGroupTerms(
  ports: TGroupPorts,
  {
    actor,
    ...input
  }: { actor: TActor; groupId: string; symbol: string; overrides: TGroupOverrides; version: string | null },
): Promise<{
  symbol: string;
  overrides: TGroupOverrides;
  version: string | null;
  changed: boolean;
  applied: boolean;
}> {
  const { db } = ports;
  const tenantId = actor.tenantId;
  const key = { tenantId, groupId: input.groupId, symbol: input.symbol };
  const changed = await db.transaction().execute(async (trx) => {
    const group = await findGroupRecord(trx, tenantId, input.groupId, { forUpdate: true });
    const instrument = await findInstrumentRecord(trx, tenantId, input.symbol);
    if (!group || !instrument) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    const current = await findGroupTerms(trx, key);
    if ((current?.version ?? null) !== input.version) throw new AppError(AppErrorCode.STALE_UPDATE);
    throwIfProblems(
      validateGroupOverrides(instrument.config, input.overrides, {
        defaultLeverage: instrument.defaultLeverage,
      }),
    );
    const before = current?.overrides ?? {};
    const after = canonicalOverrides(input.overrides);
    const changes = changedKeys(before, after);
    if (changes.length === 0) return false;
    if (Object.keys(after).length === 0) {
      await trx
        .deleteFrom('instrument_group_terms')
        .where('tenant_id', '=', tenantId)
        .where('group_id', '=', group.id)
        .where('symbol', '=', input.symbol)
        .execute();
    } else {
      await trx
        .insertInto('instrument_group_terms')
        .values({
          tenant_id: tenantId,
          group_id: group.id,
          symbol: input.symbol,
          overrides: JSON.stringify(after),
        })
        .onConflict((oc) =>
          oc.columns(['group_id', 'symbol']).doUpdateSet({
            overrides: JSON.stringify(after),
            updated_at: sql<Date>`greatest(now(), instrument_group_terms.updated_at + interval '1 microsecond')`,
          }),
        )
        .execute();
    }
    const historyId = await recordConfigChange(
      { db: trx },
      {
        actor,
        scope: 'group_terms',
        symbol: input.symbol,
        groupId: group.id,
        before,
        after,
      },
    );
    await recordAudit(trx, {
      tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'market.groupTermsUpdate',
      target: `${group.id}:${input.symbol}`,
      ip: actor.ip,
      details: { group: group.name, symbol: input.symbol, changes, historyId },
    });
    return true;
  });
  const applied = changed ? await applyLive(ports, tenantId) : true;
  const saved = await findGroupTerms(db, key);
  return {
    symbol: input.symbol,
    overrides: saved?.overrides ?? {},
    version: saved?.version ?? null,
    changed,
    applied,
  };
}

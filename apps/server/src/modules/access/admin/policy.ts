import type { TAccessPolicyRequest, TAccessSettings } from '@broker/contracts/admin/access-routes';
import { MONEY_PERMISSIONS } from '@broker/contracts/permissions';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { newId } from '../../../ids';
import { auditAccess, beyondActor, isDefaultTenant, isUniqueViolation, type TAccessPorts } from '../common';
import type { TAccessPolicyStatus } from '../schema';
import { DEFAULT_ACCESS_SETTINGS, grantablePermissions, type TStaffProfile } from '../staff';

/*
 * The broker's staff sign-in rules (password minimum, two-factor for money permissions) are security
 * policy: changing them needs `staff.security`. A change that only strengthens them applies at once.
 * A change that weakens either rule is stored as a request and applies only when a second staff
 * member holding `staff.security` approves it (four eyes); its requester may withdraw it. At most
 * one request waits per broker: a second weakening change is refused (-6020) until the first is
 * decided or withdrawn, so an approver never approves something other than what they read.
 *
 * Nobody may weaken a protection of permissions they do not hold: turning money two-factor off
 * protects the money permissions less, so its requester and its approver must each hold every money
 * permission; a lower password minimum protects every staff member less, so they must hold every
 * permission the broker can grant (-6021).
 */

export type TPolicyRule = keyof TAccessSettings;

/** The rules `next` weakens against `current`, each with the permissions it protects. */
export function weakenedRules(
  current: TAccessSettings,
  next: TAccessSettings,
  grantable: readonly string[],
): { rule: TPolicyRule; protects: readonly string[] }[] {
  const weaker: { rule: TPolicyRule; protects: readonly string[] }[] = [];
  if (next.passwordMinLength < current.passwordMinLength)
    weaker.push({ rule: 'passwordMinLength', protects: grantable });
  if (current.moneyTwoFactor && !next.moneyTwoFactor)
    weaker.push({ rule: 'moneyTwoFactor', protects: MONEY_PERMISSIONS.filter((p) => grantable.includes(p)) });
  return weaker;
}

/** Refuses (-6021) an actor (`profile`: theirs) who lacks a permission that a weakened rule protects. */
function assertHoldsProtected(profile: TStaffProfile, weaker: ReturnType<typeof weakenedRules>): void {
  for (const { rule, protects } of weaker) {
    const missing = beyondActor(profile, protects);
    if (missing.length > 0)
      throw new AppError(AppErrorCode.PROTECTION_BEYOND_ACTOR, { rule, missing: missing.join(', ') });
  }
}

/** The broker's settings row, locked until the transaction ends (written with the defaults if missing). */
async function lockedSettings(trx: TDb, tenantId: string): Promise<TAccessSettings> {
  await trx
    .insertInto('access_settings')
    .values({
      tenant_id: tenantId,
      password_min_length: DEFAULT_ACCESS_SETTINGS.passwordMinLength,
      money_two_factor: DEFAULT_ACCESS_SETTINGS.moneyTwoFactor,
    })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute();
  const row = await trx
    .selectFrom('access_settings')
    .select(['password_min_length', 'money_two_factor'])
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { passwordMinLength: row.password_min_length, moneyTwoFactor: row.money_two_factor };
}

async function writeSettings(trx: TDb, tenantId: string, settings: TAccessSettings): Promise<void> {
  await trx
    .updateTable('access_settings')
    .set({
      password_min_length: settings.passwordMinLength,
      money_two_factor: settings.moneyTwoFactor,
      updated_at: new Date(),
    })
    .where('tenant_id', '=', tenantId)
    .execute();
}

/** One request with its requester's names, as the contract answers it. */
async function loadRequest(db: TDb, tenantId: string, id: string): Promise<TAccessPolicyRequest | null> {
  return requestsWhere(db, tenantId, { id });
}

/** The request waiting for a second approver at this broker, if any. */
export function pendingPolicyRequest(db: TDb, tenantId: string): Promise<TAccessPolicyRequest | null> {
  return requestsWhere(db, tenantId, { status: 'pending' });
}

async function requestsWhere(
  db: TDb,
  tenantId: string,
  by: { id: string } | { status: TAccessPolicyStatus },
): Promise<TAccessPolicyRequest | null> {
  let query = db
    .selectFrom('access_policy_requests as r')
    .innerJoin('staff as s', 's.id', 'r.requested_by')
    .select([
      'r.id',
      'r.password_min_length',
      'r.money_two_factor',
      'r.requested_by',
      'r.requested_at',
      'r.status',
      'r.decided_by',
      'r.decided_at',
      's.username',
      's.display_name',
    ])
    .where('r.tenant_id', '=', tenantId);
  query = 'id' in by ? query.where('r.id', '=', by.id) : query.where('r.status', '=', by.status);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    settings: { passwordMinLength: row.password_min_length, moneyTwoFactor: row.money_two_factor },
    requestedBy: { id: row.requested_by, username: row.username, displayName: row.display_name },
    requestedAt: new Date(row.requested_at).toISOString(),
    status: row.status,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at ? new Date(row.decided_at).toISOString() : null,
  };
}

async function grantableHere(db: TDb, tenantId: string) {
  return grantablePermissions(await isDefaultTenant(db, tenantId));
}

/**
 * Saves the sign-in rules. Stronger or equal: applied at once (`access.settings.save`). Weaker in
 * any rule: stored as a waiting request (`access.settings.request`), the rules stay as they are.
 * The settings row is locked while deciding, so two saves at once cannot both count as "stronger"
 * against the same old value.
 */
export async function saveAccessSettings(
  { db }: TAccessPorts,
  { actor, profile, ...input }: { actor: TActor; profile: TStaffProfile } & TAccessSettings,
) {
  const tenantId = actor.tenantId;
  const grantable = await grantableHere(db, tenantId);
  const proposed = { passwordMinLength: input.passwordMinLength, moneyTwoFactor: input.moneyTwoFactor };
  const requestId = await db.transaction().execute(async (trx) => {
    const before = await lockedSettings(trx, tenantId);
    const weaker = weakenedRules(before, proposed, grantable);
    if (weaker.length === 0) {
      const same =
        before.passwordMinLength === proposed.passwordMinLength &&
        before.moneyTwoFactor === proposed.moneyTwoFactor;
      if (same) return null;
      await writeSettings(trx, tenantId, proposed);
      await auditAccess(trx, actor, 'access.settings.save', tenantId, { before, after: proposed });
      return null;
    }
    assertHoldsProtected(profile, weaker);
    const waiting = await trx
      .selectFrom('access_policy_requests')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (waiting) throw new AppError(AppErrorCode.POLICY_CHANGE_PENDING);
    const id = newId();
    try {
      await trx
        .insertInto('access_policy_requests')
        .values({
          id,
          tenant_id: tenantId,
          requested_by: actor.id,
          password_min_length: proposed.passwordMinLength,
          money_two_factor: proposed.moneyTwoFactor,
        })
        .execute();
    } catch (error) {
      // Another request was stored between the check and the insert (the partial unique index).
      if (isUniqueViolation(error)) throw new AppError(AppErrorCode.POLICY_CHANGE_PENDING);
      throw error;
    }
    await auditAccess(trx, actor, 'access.settings.request', id, {
      before,
      proposed,
      weakens: weaker.map((w) => w.rule),
    });
    return id;
  });
  return answer(db, tenantId, requestId);
}

async function answer(db: TDb, tenantId: string, requestId: string | null) {
  const [settings, request] = await Promise.all([
    db
      .selectFrom('access_settings')
      .select(['password_min_length', 'money_two_factor'])
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst(),
    requestId ? loadRequest(db, tenantId, requestId) : null,
  ]);
  return {
    settings: settings
      ? { passwordMinLength: settings.password_min_length, moneyTwoFactor: settings.money_two_factor }
      : DEFAULT_ACCESS_SETTINGS,
    request,
  };
}

/** The request, or -6009 when this broker has no such request. */
async function requestRow(trx: TDb, tenantId: string, id: string) {
  const row = await trx
    .selectFrom('access_policy_requests')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return row;
}

/**
 * Approves the waiting request and applies it, in one transaction. Never by its requester (-6010);
 * only while it waits (-6011). The decision is one conditional UPDATE ... WHERE status = 'pending'
 * RETURNING: of any number of approvals at once, exactly one finds the row pending and applies it.
 */
export async function approvePolicyRequest(
  { db }: TAccessPorts,
  { actor, profile, id }: { actor: TActor; profile: TStaffProfile; id: string },
) {
  const tenantId = actor.tenantId;
  const grantable = await grantableHere(db, tenantId);
  await db.transaction().execute(async (trx) => {
    const row = await requestRow(trx, tenantId, id);
    if (row.requested_by === actor.id) throw new AppError(AppErrorCode.APPROVAL_BY_REQUESTER);
    if (row.status !== 'pending') throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    const before = await lockedSettings(trx, tenantId);
    const proposed = { passwordMinLength: row.password_min_length, moneyTwoFactor: row.money_two_factor };
    assertHoldsProtected(profile, weakenedRules(before, proposed, grantable));
    const claimed = await trx
      .updateTable('access_policy_requests')
      .set({ status: 'approved', decided_by: actor.id, decided_at: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('requested_by', '!=', actor.id)
      .returning(['id', 'requested_by'])
      .executeTakeFirst();
    if (!claimed) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    await writeSettings(trx, tenantId, proposed);
    await auditAccess(trx, actor, 'access.settings.approve', id, {
      requestedBy: claimed.requested_by,
      before,
      after: proposed,
    });
  });
  return answer(db, tenantId, id);
}

/**
 * Ends the waiting request without applying it: `reject` by a second staff member (never the
 * requester, -6010), `cancel` by the requester only (-1009 for anyone else). Same conditional UPDATE.
 */
async function closePolicyRequest(db: TDb, actor: TActor, id: string, outcome: 'rejected' | 'cancelled') {
  const tenantId = actor.tenantId;
  await db.transaction().execute(async (trx) => {
    const row = await requestRow(trx, tenantId, id);
    const own = row.requested_by === actor.id;
    if (outcome === 'rejected' && own) throw new AppError(AppErrorCode.APPROVAL_BY_REQUESTER);
    if (outcome === 'cancelled' && !own) throw new AppError(AppErrorCode.FORBIDDEN);
    if (row.status !== 'pending') throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    const closed = await trx
      .updateTable('access_policy_requests')
      .set({ status: outcome, decided_by: actor.id, decided_at: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('requested_by', outcome === 'rejected' ? '!=' : '=', actor.id)
      .returning(['id', 'requested_by', 'password_min_length', 'money_two_factor'])
      .executeTakeFirst();
    if (!closed) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    await auditAccess(
      trx,
      actor,
      outcome === 'rejected' ? 'access.settings.reject' : 'access.settings.cancel',
      id,
      {
        requestedBy: closed.requested_by,
        proposed: { passwordMinLength: closed.password_min_length, moneyTwoFactor: closed.money_two_factor },
      },
    );
  });
  return answer(db, tenantId, id);
}

export const rejectPolicyRequest = ({ db }: TAccessPorts, { actor, id }: { actor: TActor; id: string }) =>
  closePolicyRequest(db, actor, id, 'rejected');
export const cancelPolicyRequest = ({ db }: TAccessPorts, { actor, id }: { actor: TActor; id: string }) =>
  closePolicyRequest(db, actor, id, 'cancelled');

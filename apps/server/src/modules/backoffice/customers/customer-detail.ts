import { maskEmail, maskPhone } from '@broker/domain/identity/credentials';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TCallContext } from '../../../http/context';
import { recordAudit } from '../../audit/audit';
import { deviceLabel } from '../../identity/account-security';
import { listAdjustments } from './adjustments';
import {
  accountGroups,
  accountRow,
  approvalThresholdUsdMinor,
  findCustomer,
  staffOf,
} from './customer-accounts';
import { listNotes } from './notes';
import { countryAlpha2 } from './search-customers';

/** Sessions shown on the customer page: the live ones and the latest ended ones. */
const SESSION_LIMIT = 20;

async function customerSessions(ctx: TCallContext, userId: string) {
  const rows = await ctx.services.database.db
    .selectFrom('sessions')
    .select(['token_hash', 'user_agent', 'ip', 'created_at', 'last_seen_at', 'revoked_at', 'idle_expires_at'])
    .select('absolute_expires_at')
    .where('tenant_id', '=', ctx.tenant.id)
    .where('subject_kind', '=', 'user')
    .where('subject_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .limit(SESSION_LIMIT)
    .execute();
  const now = new Date();
  return rows.map((r) => ({
    id: r.token_hash.slice(0, 12),
    device: deviceLabel(r.user_agent),
    ip: r.ip,
    createdAt: new Date(r.created_at).toISOString(),
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
    state: r.revoked_at
      ? ('revoked' as const)
      : r.idle_expires_at <= now || r.absolute_expires_at <= now
        ? ('expired' as const)
        : ('active' as const),
  }));
}

/**
 * Everything the customer page shows: profile (contacts masked), accounts with live figures, open
 * positions and pending orders (from the engine's memory), sessions, notes and pending adjustments.
 */
export async function customerDetail(ctx: TCallContext, userId: string) {
  const user = await findCustomer(ctx, userId);
  const db = ctx.services.database.db;
  const engine = ctx.services.engine;
  const views = engine
    .accountsOf(ctx.tenant.id, user.id)
    .map((id) => engine.core.account(id))
    .filter((v): v is TAccountView => v !== undefined)
    .sort((a, b) => Number(a.closed) - Number(b.closed) || a.accountId - b.accountId);
  const ids = views.map((v) => v.accountId);
  const [{ groups, groupOf }, usdThreshold, sessions, notes, adjustments, lastSignIn] = await Promise.all([
    accountGroups(db, ctx.tenant.id, ids),
    approvalThresholdUsdMinor(db, ctx.tenant.id),
    customerSessions(ctx, user.id),
    listNotes(ctx, user.id),
    listAdjustments(ctx, { status: 'pending', userId: user.id, page: 1, size: 100 }),
    db
      .selectFrom('sessions')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('tenant_id', '=', ctx.tenant.id)
      .where('subject_kind', '=', 'user')
      .where('subject_id', '=', user.id)
      .executeTakeFirst(),
  ]);
  const groupById = new Map(groups.map((g) => [g.id, g]));
  const trading = ctx.services.trading;
  return {
    profile: {
      id: user.id,
      name: user.display_name,
      nick: user.nick,
      email: user.email ? maskEmail(user.email) : null,
      phone: user.phone ? maskPhone(user.phone) : null,
      country: countryAlpha2(user.country_code),
      status: user.status,
      kyc: user.kyc_status,
      twoFactor: user.totp_secret !== null,
      createdAt: new Date(user.created_at).toISOString(),
      lastSignInAt: lastSignIn?.at ? new Date(lastSignIn.at).toISOString() : null,
      failedSignIns: user.failed_attempts,
      lockedUntil:
        user.locked_until && user.locked_until > new Date() ? user.locked_until.toISOString() : null,
    },
    accounts: views.map((view) => {
      const groupId = groupOf.get(view.accountId) ?? null;
      const group = groupId ? (groupById.get(groupId) ?? null) : null;
      return accountRow(ctx, view, { group, usdThreshold });
    }),
    positions: ids.flatMap((id) => engine.core.positionsOf(id).map((p) => trading.position(p))),
    orders: ids.flatMap((id) => engine.core.ordersOf(id).map((o) => trading.order(o))),
    sessions,
    notes,
    adjustments: adjustments.items,
    groups: groups.map((g) => ({ id: g.id, name: g.name, isDefault: g.is_default })),
  };
}

/** The unmasked email and phone; each look is recorded, as it exposes personal data. */
export async function customerContact(ctx: TCallContext, userId: string) {
  const user = await findCustomer(ctx, userId);
  await recordAudit(ctx.services.database.db, {
    tenantId: ctx.tenant.id,
    actorKind: 'staff',
    actorId: staffOf(ctx).staffId,
    action: 'customers.contact.view',
    target: user.id,
    ip: ctx.ip,
  });
  return { email: user.email, phone: user.phone };
}

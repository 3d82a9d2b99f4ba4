import { maskEmail, maskPhone } from '@broker/domain/identity/credentials';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import { approvalThresholdUsdMinor, listAdjustments } from '../funding';
import { findUser, lastSignIn, recentSessions } from '../identity';
import { accountGroups, accountRow, orderView, positionView, type TTradingPorts } from '../trading';
import type { TCustomersPorts } from './customer-access';
import { listNotes } from './notes';
import { countryAlpha2 } from './search-customers';

/** Sessions shown on the customer page: the live ones and the latest ended ones. */
const SESSION_LIMIT = 20;

/**
 * Everything the customer page shows: profile (contacts masked), accounts with live figures, open
 * positions and pending orders (from the engine's memory), sessions, notes and pending adjustments.
 */
export async function customerDetail(
  ports: TTradingPorts,
  { actor, userId }: { actor: TActor; userId: string },
) {
  const { db, host: engine } = ports;
  const user = await findUser(db, { tenantId: actor.tenantId, id: userId });
  const views = engine
    .accountsOf(actor.tenantId, user.id)
    .map((id) => engine.core.account(id))
    .filter((v): v is TAccountView => v !== undefined)
    .sort((a, b) => Number(a.closed) - Number(b.closed) || a.accountId - b.accountId);
  const ids = views.map((v) => v.accountId);
  const [{ groups, groupOf }, usdThreshold, sessions, notes, adjustments, signedInAt] = await Promise.all([
    accountGroups(db, actor.tenantId, ids),
    approvalThresholdUsdMinor(db, actor.tenantId),
    recentSessions(db, { tenantId: actor.tenantId, userId: user.id, limit: SESSION_LIMIT }),
    listNotes(ports, { actor, userId: user.id }),
    listAdjustments(ports, {
      actor,
      status: 'pending',
      userId: user.id,
      page: 1,
      size: 100,
    }),
    lastSignIn(db, { tenantId: actor.tenantId, userId: user.id }),
  ]);
  const groupById = new Map(groups.map((g) => [g.id, g]));
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
      twoFactor: user.two_factor,
      createdAt: new Date(user.created_at).toISOString(),
      lastSignInAt: signedInAt ? new Date(signedInAt).toISOString() : null,
      failedSignIns: user.failed_attempts,
      lockedUntil:
        user.locked_until && user.locked_until > new Date() ? user.locked_until.toISOString() : null,
    },
    accounts: views.map((view) => {
      const groupId = groupOf.get(view.accountId) ?? null;
      const group = groupId ? (groupById.get(groupId) ?? null) : null;
      return accountRow(engine, view, { group, usdThreshold });
    }),
    positions: ids.flatMap((id) => engine.core.positionsOf(id).map((p) => positionView(engine, p))),
    orders: ids.flatMap((id) => engine.core.ordersOf(id).map((o) => orderView(engine, o))),
    sessions,
    notes,
    adjustments: adjustments.items,
    groups: groups.map((g) => ({ id: g.id, name: g.name, isDefault: g.is_default })),
  };
}

/** The unmasked email and phone; each look is recorded, as it exposes personal data. */
export async function customerContact(
  ports: TCustomersPorts,
  { actor, userId }: { actor: TActor; userId: string },
) {
  const user = await findUser(ports.db, { tenantId: actor.tenantId, id: userId });
  await recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'customers.contact.view',
    target: user.id,
    ip: actor.ip,
  });
  return { email: user.email, phone: user.phone };
}

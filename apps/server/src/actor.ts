/**
 * Who makes a call. Every use case takes one instead of the HTTP context, so that a browser
 * session, a staff member, a part of the platform acting for a trader (copy trading, a bot), a
 * broker's API key and a MetaTrader bridge all go through the same checks, and the audit trail
 * names the one that acted (ADR 011).
 */
export type TActorKind = 'user' | 'staff' | 'system' | 'apiKey' | 'bridge';

export interface TActor {
  kind: TActorKind;
  /** The user's or staff member's id, the system part's name (`copy-engine`), the key's or bridge's id. */
  id: string;
  /** The broker the call belongs to: an actor never reaches another broker's data. */
  tenantId: string;
  /**
   * The trader whose accounts the call may touch: the user themself for `user`, the trader acted
   * for by `system`, `apiKey` and `bridge`; null for staff (their reach is their permissions).
   */
  onBehalfOf: string | null;
  /** The client address, when the call came over the network. */
  ip: string | null;
  /**
   * A trader's browser session: its cipher key signs opening orders (spec 7.9) and its token hash
   * scopes the order nonces. Only `user` actors from a session have it.
   */
  session?: { tokenHash: string; cipherKey: string | null } | undefined;
}

/** A trader acting through their own session. */
export function userActor(input: {
  userId: string;
  tenantId: string;
  ip?: string | null;
  session?: TActor['session'];
}): TActor {
  return {
    kind: 'user',
    id: input.userId,
    tenantId: input.tenantId,
    onBehalfOf: input.userId,
    ip: input.ip ?? null,
    session: input.session,
  };
}

/** A part of the platform acting for a trader (copy trading, a bot, a scheduled job). */
export function systemActor(input: { name: string; tenantId: string; forUser: string }): TActor {
  return { kind: 'system', id: input.name, tenantId: input.tenantId, onBehalfOf: input.forUser, ip: null };
}

/** A broker's staff member. */
export function staffActor(input: { staffId: string; tenantId: string; ip?: string | null }): TActor {
  return {
    kind: 'staff',
    id: input.staffId,
    tenantId: input.tenantId,
    onBehalfOf: null,
    ip: input.ip ?? null,
  };
}

/** The audit trail's columns for an actor; who was acted for goes into the details. */
export function auditedActor(actor: TActor): {
  tenantId: string;
  actorKind: TActorKind;
  actorId: string;
  ip: string | null;
  onBehalfOf: string | null;
} {
  return {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    ip: actor.ip,
    onBehalfOf: actor.kind === 'user' ? null : actor.onBehalfOf,
  };
}

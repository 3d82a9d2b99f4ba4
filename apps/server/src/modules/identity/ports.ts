import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import type { TRateLimiter } from '../../rate-limit';
import type { TMailer, TSmsProvider } from '../notify';
import type { OidcSandbox } from './oidc-sandbox';

/** What most identity use cases work with: the database. */
export interface TIdentityPorts {
  db: TDb;
}

/** Use cases that check a one-time code also count the guesses at it. */
export interface TCodePorts extends TIdentityPorts {
  limiter: TRateLimiter;
}

/** Where a use case notes what went wrong out of the caller's sight (the request's logger). */
export interface TLog {
  warn(details: object, message: string): void;
}

/** Sending a verification code: the mailer, the text-message provider and a log of failed deliveries. */
export interface TMessagePorts extends TCodePorts {
  mailer: TMailer;
  sms: TSmsProvider;
  log: TLog;
}

/** Third-party sign-in (OpenID Connect). */
export interface TOidcPorts extends TIdentityPorts {
  /** The built-in sandbox provider, when it runs (its issuer may be plain HTTP). */
  sandbox: OidcSandbox | null;
  /** Outside production any issuer may be plain HTTP. */
  plainHttpIssuers: boolean;
  log: TLog;
}

/** The audit trail's columns for the actor of a call (ADR 011). */
export const auditActor = (actor: TActor) => ({
  tenantId: actor.tenantId,
  actorKind: actor.kind,
  actorId: actor.id,
  ip: actor.ip,
});

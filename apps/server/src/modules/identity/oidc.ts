import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { isLocaleCode } from '@broker/i18n/locales';
import type { Selectable } from 'kysely';
import * as client from 'openid-client';
import type { TActor } from '../../actor';
import { newId, newToken, sha256, strongPassword } from '../../ids';
import { recordAudit } from '../audit';
import { assertWithinLimit } from '../entitlements';
import { countUsers } from './directory';
import { hashPassword } from './passwords';
import type { TIdentityPorts, TOidcPorts } from './ports';
import type { OidcStatesTable } from './schema';
import { findSession } from './sessions';

const STATE_TTL_MS = 10 * 60_000;

type TProviderRow = {
  id: string;
  slug: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
};

/** Discovery documents, fetched once per provider and issuer. */
const configurations = new Map<string, Promise<client.Configuration>>();

function configurationFor(provider: TProviderRow, allowHttp: boolean): Promise<client.Configuration> {
  const key = `${provider.id}|${provider.issuer}|${provider.client_id}`;
  let config = configurations.get(key);
  if (!config) {
    const insecure = allowHttp && provider.issuer.startsWith('http://');
    config = client
      .discovery(
        new URL(provider.issuer),
        provider.client_id,
        undefined,
        client.ClientSecretBasic(provider.client_secret),
        insecure ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
      )
      .catch((error: unknown) => {
        configurations.delete(key);
        throw error;
      });
    configurations.set(key, config);
  }
  return config;
}

async function findProvider(ports: TIdentityPorts, tenantId: string, slug: string): Promise<TProviderRow> {
  const provider = await ports.db
    .selectFrom('oidc_providers')
    .select(['id', 'slug', 'name', 'issuer', 'client_id', 'client_secret', 'scopes'])
    .where('tenant_id', '=', tenantId)
    .where('slug', '=', slug)
    .where('enabled', '=', true)
    .executeTakeFirst();
  if (!provider) throw AppError.invalid({ slug: 'providerUnknown' });
  return provider;
}

/** The address the provider sends the trader back to (`origin` is the scheme and host the call came to). */
export const unionCallbackUrl = (origin: string, slug: string) => `${origin}/oauth/union/${slug}/callback`;

/** Plain-HTTP issuers are refused except the built-in sandbox and outside production. */
const allowHttpIssuers = (ports: TOidcPorts, issuer: string) =>
  ports.plainHttpIssuers || issuer === ports.sandbox?.issuer;

/**
 * unionstart: stores state, nonce and PKCE verifier, and answers the provider's authorization
 * address. Signing in is anonymous (`actor` null); binding needs the trader's own session.
 */
export async function startUnion(
  ports: TOidcPorts,
  {
    actor,
    tenantId,
    origin,
    ...input
  }: {
    actor: TActor | null;
    tenantId: string;
    origin: string;
    slug: string;
    mode: 'login' | 'bind';
    lang: string;
    redirect: string;
  },
): Promise<{ url: string }> {
  if (input.mode === 'bind' && !actor) throw new AppError(AppErrorCode.TOKEN_INVALID);
  const provider = await findProvider(ports, tenantId, input.slug);
  const redirectUri = unionCallbackUrl(origin, provider.slug);
  ports.sandbox?.allowRedirect(redirectUri);
  let config: client.Configuration;
  try {
    config = await configurationFor(provider, allowHttpIssuers(ports, provider.issuer));
  } catch (error) {
    ports.log.warn({ err: error, issuer: provider.issuer }, 'OpenID discovery failed');
    throw new AppError(AppErrorCode.IDENTITY_PROVIDER_FAILED);
  }
  const state = newToken();
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  await ports.db
    .insertInto('oidc_states')
    .values({
      state_hash: sha256(state),
      tenant_id: tenantId,
      provider_id: provider.id,
      code_verifier: verifier,
      nonce,
      mode: input.mode,
      user_id: input.mode === 'bind' ? (actor?.id ?? null) : null,
      lang: isLocaleCode(input.lang) ? input.lang : 'en',
      redirect: input.redirect,
      expires_at: new Date(Date.now() + STATE_TTL_MS),
    })
    .execute();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: provider.scopes,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...(input.mode === 'bind' ? { prompt: 'login' } : {}),
  });
  return { url: url.toString() };
}

/** The broker's providers with the signed-in trader's binding to each. */
export async function listIdentities(ports: TIdentityPorts, { actor }: { actor: TActor }) {
  const { db } = ports;
  const providers = await db
    .selectFrom('oidc_providers')
    .select(['id', 'slug', 'name'])
    .where('tenant_id', '=', actor.tenantId)
    .where('enabled', '=', true)
    .orderBy('name')
    .execute();
  const bindings = await db
    .selectFrom('user_identities')
    .select(['provider_id', 'email', 'name', 'created_at'])
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', actor.id)
    .execute();
  return providers.map((p) => {
    const bound = bindings.find((b) => b.provider_id === p.id);
    return {
      slug: p.slug,
      name: p.name,
      bound: bound
        ? { email: bound.email, name: bound.name, boundAt: new Date(bound.created_at).toISOString() }
        : null,
    };
  });
}

/** Removes a binding unless it is the trader's only way to sign in (no email, no phone, no other binding). */
export async function unbindIdentity(
  ports: TIdentityPorts,
  { actor, slug }: { actor: TActor; slug: string },
) {
  const { db } = ports;
  const userId = actor.id;
  const provider = await findProvider(ports, actor.tenantId, slug);
  const user = await db
    .selectFrom('users')
    .select(['email', 'phone'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const others = await db
    .selectFrom('user_identities')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('provider_id', '!=', provider.id)
    .executeTakeFirstOrThrow();
  if (!user.email && !user.phone && Number(others.n) === 0)
    throw new AppError(AppErrorCode.LAST_SIGN_IN_METHOD);
  const removed = await db
    .deleteFrom('user_identities')
    .where('user_id', '=', userId)
    .where('provider_id', '=', provider.id)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw AppError.invalid({ slug: 'notBound' });
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'user.identity.unbind',
    target: provider.slug,
    ip: actor.ip,
  });
  return { ok: true as const };
}

/** A started third-party sign-in or binding, taken (once) by the provider's redirect back. */
export type TUnionState = Selectable<OidcStatesTable>;

/**
 * Takes the started flow of a `state` the provider sent back, once; null when there is none or it
 * has expired (the trader is sent to the sign-in page with "code expired").
 */
export async function takeUnionState(
  ports: TIdentityPorts,
  { tenantId, state }: { tenantId: string; state: string },
): Promise<TUnionState | null> {
  const row = state
    ? await ports.db
        .deleteFrom('oidc_states')
        .where('state_hash', '=', sha256(state))
        .where('tenant_id', '=', tenantId)
        .returningAll()
        .executeTakeFirst()
    : undefined;
  if (!row || row.expires_at.getTime() < Date.now()) return null;
  return row;
}

/**
 * The provider's redirect back (`GET /oauth/union/:slug/callback`): exchanges the code (PKCE,
 * nonce, ID token signature through the provider's keys), then binds the identity to the signed-in
 * trader of the flow, or finds or registers the trader it signs in. The HTTP layer opens the
 * session of a sign-in and redirects. `origin` and `query` are those of the call the provider made;
 * `sessionToken` is the trader's session cookie (a binding must come back to the same trader).
 */
export async function finishUnion(
  ports: TOidcPorts,
  input: {
    tenantId: string;
    ip: string | null;
    slug: string;
    state: string;
    flow: TUnionState;
    origin: string;
    query: string;
    sessionToken: string | undefined;
  },
): Promise<{ kind: 'bound'; replaced: boolean } | { kind: 'signIn'; userId: string }> {
  const { db } = ports;
  const { tenantId, flow: row } = input;
  const provider = await db
    .selectFrom('oidc_providers')
    .select(['id', 'slug', 'name', 'issuer', 'client_id', 'client_secret', 'scopes'])
    .where('id', '=', row.provider_id)
    .executeTakeFirstOrThrow();
  if (provider.slug !== input.slug) throw new AppError(AppErrorCode.IDENTITY_PROVIDER_FAILED);
  const config = await configurationFor(provider, allowHttpIssuers(ports, provider.issuer));
  const current = new URL(`${unionCallbackUrl(input.origin, provider.slug)}${input.query}`);
  let claims: Record<string, unknown> | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: row.code_verifier,
      expectedState: input.state,
      expectedNonce: row.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
    // Providers may keep profile claims out of the ID token: ask the userinfo endpoint.
    if (claims?.sub && claims.email === undefined && tokens.access_token) {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub as string);
      claims = {
        ...info,
        ...claims,
        email: info.email,
        email_verified: info.email_verified,
        name: claims.name ?? info.name,
      };
    }
  } catch (error) {
    ports.log.warn({ err: error, provider: provider.slug }, 'OpenID code exchange failed');
    throw new AppError(AppErrorCode.IDENTITY_PROVIDER_FAILED);
  }
  const subject = typeof claims?.sub === 'string' ? claims.sub : null;
  if (!claims || !subject) throw new AppError(AppErrorCode.IDENTITY_PROVIDER_FAILED);
  const email =
    typeof claims.email === 'string' && claims.email_verified === true ? claims.email.toLowerCase() : null;
  const name = typeof claims.name === 'string' ? claims.name.slice(0, 40) : null;
  const linked = await db
    .selectFrom('user_identities')
    .select('user_id')
    .where('provider_id', '=', provider.id)
    .where('subject', '=', subject)
    .executeTakeFirst();

  if (row.mode === 'bind') {
    const session = input.sessionToken
      ? await findSession({ db, token: input.sessionToken, subjectKind: 'user', tenantId })
      : null;
    if (!session || session.subjectId !== row.user_id) throw new AppError(AppErrorCode.TOKEN_INVALID);
    if (linked && linked.user_id !== row.user_id) throw new AppError(AppErrorCode.IDENTITY_BOUND_ELSEWHERE);
    const previous = await db
      .deleteFrom('user_identities')
      .where('user_id', '=', row.user_id)
      .where('provider_id', '=', provider.id)
      .executeTakeFirst();
    await db
      .insertInto('user_identities')
      .values({
        provider_id: provider.id,
        subject,
        tenant_id: tenantId,
        user_id: row.user_id,
        email,
        name,
      })
      .execute();
    const replaced = Number(previous.numDeletedRows) > 0;
    await recordAudit(db, {
      tenantId,
      actorKind: 'user',
      actorId: row.user_id,
      action: replaced ? 'user.identity.replace' : 'user.identity.bind',
      target: provider.slug,
      ip: input.ip,
    });
    return { kind: 'bound', replaced };
  }

  let userId = linked?.user_id ?? null;
  if (!userId) {
    if (email) {
      const taken = await db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('email', '=', email)
        .executeTakeFirst();
      // Never link to an existing account by email alone: its owner binds from security settings.
      if (taken) throw new AppError(AppErrorCode.EMAIL_ALREADY_REGISTERED);
    }
    userId = newId();
    await db.transaction().execute(async (trx) => {
      await assertWithinLimit(trx, tenantId, 'customers', countUsers);
      await trx
        .insertInto('users')
        .values({
          id: userId as string,
          tenant_id: tenantId,
          email,
          phone: null,
          password_hash: await hashPassword(strongPassword(32)),
          display_name: name ?? email?.split('@')[0] ?? `${provider.name} user`,
          country_code: null,
          locked_until: null,
        })
        .execute();
      await trx
        .insertInto('user_identities')
        .values({
          provider_id: provider.id,
          subject,
          tenant_id: tenantId,
          user_id: userId as string,
          email,
          name,
        })
        .execute();
    });
    await recordAudit(db, {
      tenantId,
      actorKind: 'user',
      actorId: userId,
      action: 'user.register.union',
      target: provider.slug,
      ip: input.ip,
    });
  }
  return { kind: 'signIn', userId };
}

/** The broker's enabled providers, for the sign-in page's buttons. */
export async function listProviders(ports: TIdentityPorts, { tenantId }: { tenantId: string }) {
  return ports.db
    .selectFrom('oidc_providers')
    .select(['slug', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('enabled', '=', true)
    .orderBy('name')
    .execute();
}

/** Creates or updates a provider of a broker (seed, sandbox, and later the back office). */
export async function upsertProvider(
  ports: TIdentityPorts,
  input: {
    tenantId: string;
    slug: string;
    name: string;
    issuer: string;
    clientId: string;
    clientSecret: string;
  },
) {
  await ports.db
    .insertInto('oidc_providers')
    .values({
      id: newId(),
      tenant_id: input.tenantId,
      slug: input.slug,
      name: input.name,
      issuer: input.issuer,
      client_id: input.clientId,
      client_secret: input.clientSecret,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'slug']).doUpdateSet({
        name: input.name,
        issuer: input.issuer,
        client_id: input.clientId,
        client_secret: input.clientSecret,
      }),
    )
    .execute();
}

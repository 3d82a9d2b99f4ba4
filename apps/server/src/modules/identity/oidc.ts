import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { isLocaleCode } from '@broker/i18n/locales';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { COOKIE, type TCallContext, type TServices } from '../../http/context';
import { requestLocale } from '../../i18n';
import { newId, newToken, sha256, strongPassword } from '../../ids';
import { recordAudit } from '../audit/audit';
import { assertWithinLimit } from '../backoffice/audit/packages';
import type { TTenant } from '../tenancy/tenancy';
import { openUserSession } from './open-session';
import { hashPassword } from './passwords';
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

async function findProvider(services: TServices, tenantId: string, slug: string): Promise<TProviderRow> {
  const provider = await services.database.db
    .selectFrom('oidc_providers')
    .select(['id', 'slug', 'name', 'issuer', 'client_id', 'client_secret', 'scopes'])
    .where('tenant_id', '=', tenantId)
    .where('slug', '=', slug)
    .where('enabled', '=', true)
    .executeTakeFirst();
  if (!provider) throw AppError.invalid({ slug: 'providerUnknown' });
  return provider;
}

const callbackUrl = (request: FastifyRequest, slug: string) =>
  `${request.protocol}://${request.headers.host}/oauth/union/${slug}/callback`;

/** Plain-HTTP issuers are refused except the built-in sandbox and outside production. */
const allowHttpIssuers = (services: TServices, issuer: string) =>
  services.config.NODE_ENV !== 'production' || issuer === services.oidcSandbox?.issuer;

/** unionstart: stores state, nonce and PKCE verifier, and answers the provider's authorization address. */
export async function startUnion(
  ctx: TCallContext,
  input: { slug: string; mode: 'login' | 'bind'; lang: string; redirect: string },
): Promise<{ url: string }> {
  if (input.mode === 'bind' && !ctx.userSession) throw new AppError(AppErrorCode.TOKEN_INVALID);
  const provider = await findProvider(ctx.services, ctx.tenant.id, input.slug);
  const redirectUri = callbackUrl(ctx.request, provider.slug);
  ctx.services.oidcSandbox?.allowRedirect(redirectUri);
  let config: client.Configuration;
  try {
    config = await configurationFor(provider, allowHttpIssuers(ctx.services, provider.issuer));
  } catch (error) {
    ctx.request.log.warn({ err: error, issuer: provider.issuer }, 'OpenID discovery failed');
    throw new AppError(AppErrorCode.IDENTITY_PROVIDER_FAILED);
  }
  const state = newToken();
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  await ctx.services.database.db
    .insertInto('oidc_states')
    .values({
      state_hash: sha256(state),
      tenant_id: ctx.tenant.id,
      provider_id: provider.id,
      code_verifier: verifier,
      nonce,
      mode: input.mode,
      user_id: input.mode === 'bind' ? (ctx.userSession?.subjectId ?? null) : null,
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

/** Adds `key=value` to a same-site path. */
function withParam(path: string, key: string, value: string): string {
  const url = new URL(path, 'http://x');
  url.searchParams.set(key, value);
  return url.pathname + url.search;
}

/** The broker's providers with this trader's binding to each. */
export async function listIdentities(ctx: TCallContext, userId: string) {
  const db = ctx.services.database.db;
  const providers = await db
    .selectFrom('oidc_providers')
    .select(['id', 'slug', 'name'])
    .where('tenant_id', '=', ctx.tenant.id)
    .where('enabled', '=', true)
    .orderBy('name')
    .execute();
  const bindings = await db
    .selectFrom('user_identities')
    .select(['provider_id', 'email', 'name', 'created_at'])
    .where('tenant_id', '=', ctx.tenant.id)
    .where('user_id', '=', userId)
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
export async function unbindIdentity(ctx: TCallContext, userId: string, slug: string) {
  const db = ctx.services.database.db;
  const provider = await findProvider(ctx.services, ctx.tenant.id, slug);
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
    tenantId: ctx.tenant.id,
    actorKind: 'user',
    actorId: userId,
    action: 'user.identity.unbind',
    target: provider.slug,
    ip: ctx.ip,
  });
  return { ok: true as const };
}

/**
 * `GET /oauth/union/:slug/callback`: checks state, exchanges the code (PKCE, nonce, ID token
 * signature through the provider's keys), then signs in, registers or binds, and redirects to the
 * page the flow started from. Failures land on the sign-in page (or the starting page for a
 * binding) with `unionError=<code>`, which the portal shows translated.
 */
export function registerUnionCallback(app: FastifyInstance, services: TServices) {
  app.get<{ Params: { slug: string }; Querystring: Record<string, string | undefined> }>(
    '/oauth/union/:slug/callback',
    async (request, reply) => {
      const tenant = await services.resolveTenant({ host: request.headers.host, hostspecific: undefined });
      const state = request.query.state ?? '';
      const db = services.database.db;
      const row = state
        ? await db
            .deleteFrom('oidc_states')
            .where('state_hash', '=', sha256(state))
            .where('tenant_id', '=', tenant.id)
            .returningAll()
            .executeTakeFirst()
        : undefined;
      if (!row || row.expires_at.getTime() < Date.now()) {
        return reply.redirect(
          withParam(
            `/${requestLocale(request.headers, request.cookies)}/login`,
            'unionError',
            String(AppErrorCode.CODE_EXPIRED),
          ),
        );
      }
      const failTo = row.mode === 'bind' ? row.redirect : `/${row.lang}/login`;
      try {
        const provider = await db
          .selectFrom('oidc_providers')
          .select(['id', 'slug', 'name', 'issuer', 'client_id', 'client_secret', 'scopes'])
          .where('id', '=', row.provider_id)
          .executeTakeFirstOrThrow();
        if (provider.slug !== request.params.slug) throw new AppError(AppErrorCode.IDENTITY_PROVIDER_FAILED);
        const config = await configurationFor(provider, allowHttpIssuers(services, provider.issuer));
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        const current = new URL(`${callbackUrl(request, provider.slug)}${query}`);
        let claims: Record<string, unknown> | undefined;
        try {
          const tokens = await client.authorizationCodeGrant(config, current, {
            pkceCodeVerifier: row.code_verifier,
            expectedState: state,
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
          request.log.warn({ err: error, provider: provider.slug }, 'OpenID code exchange failed');
          throw new AppError(AppErrorCode.IDENTITY_PROVIDER_FAILED);
        }
        const subject = typeof claims?.sub === 'string' ? claims.sub : null;
        if (!claims || !subject) throw new AppError(AppErrorCode.IDENTITY_PROVIDER_FAILED);
        const email =
          typeof claims.email === 'string' && claims.email_verified === true
            ? claims.email.toLowerCase()
            : null;
        const name = typeof claims.name === 'string' ? claims.name.slice(0, 40) : null;
        const ctx = callContext(services, tenant, request, reply);
        const linked = await db
          .selectFrom('user_identities')
          .select('user_id')
          .where('provider_id', '=', provider.id)
          .where('subject', '=', subject)
          .executeTakeFirst();

        if (row.mode === 'bind') {
          const session = await sessionOf(services, request, tenant);
          if (!session || session.subjectId !== row.user_id) throw new AppError(AppErrorCode.TOKEN_INVALID);
          if (linked && linked.user_id !== row.user_id)
            throw new AppError(AppErrorCode.IDENTITY_BOUND_ELSEWHERE);
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
              tenant_id: tenant.id,
              user_id: row.user_id,
              email,
              name,
            })
            .execute();
          const replaced = Number(previous.numDeletedRows) > 0;
          await recordAudit(db, {
            tenantId: tenant.id,
            actorKind: 'user',
            actorId: row.user_id,
            action: replaced ? 'user.identity.replace' : 'user.identity.bind',
            target: provider.slug,
            ip: request.ip,
          });
          return reply.redirect(withParam(row.redirect, 'union', replaced ? 'replaced' : 'bound'));
        }

        let userId = linked?.user_id ?? null;
        if (!userId) {
          if (email) {
            const taken = await db
              .selectFrom('users')
              .select('id')
              .where('tenant_id', '=', tenant.id)
              .where('email', '=', email)
              .executeTakeFirst();
            // Never link to an existing account by email alone: its owner binds from security settings.
            if (taken) throw new AppError(AppErrorCode.EMAIL_ALREADY_REGISTERED);
          }
          await assertWithinLimit(db, tenant.id, 'customers');
          userId = newId();
          await db.transaction().execute(async (trx) => {
            await trx
              .insertInto('users')
              .values({
                id: userId as string,
                tenant_id: tenant.id,
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
                tenant_id: tenant.id,
                user_id: userId as string,
                email,
                name,
              })
              .execute();
          });
          await recordAudit(db, {
            tenantId: tenant.id,
            actorKind: 'user',
            actorId: userId,
            action: 'user.register.union',
            target: provider.slug,
            ip: request.ip,
          });
        }
        await openUserSession(ctx, userId);
        return reply.redirect(row.redirect.startsWith(`/${row.lang}`) ? row.redirect : `/${row.lang}`);
      } catch (error) {
        const code = error instanceof AppError ? error.code : AppErrorCode.IDENTITY_PROVIDER_FAILED;
        if (!(error instanceof AppError)) request.log.error({ err: error }, 'third-party sign-in failed');
        return reply.redirect(withParam(failTo, 'unionError', String(code)));
      }
    },
  );
}

async function sessionOf(services: TServices, request: FastifyRequest, tenant: TTenant) {
  const token = request.cookies[COOKIE.userToken];
  if (!token) return null;
  return findSession({ db: services.database.db, token, subjectKind: 'user', tenantId: tenant.id });
}

function callContext(
  services: TServices,
  tenant: TTenant,
  request: FastifyRequest,
  reply: FastifyReply,
): TCallContext {
  return {
    services,
    tenant,
    locale: requestLocale(request.headers, request.cookies),
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    request,
    reply,
    userSession: null,
    staff: null,
    staffSession: null,
    bearer: null,
  };
}

/** The broker's enabled providers, for the sign-in page's buttons. */
export async function listProviders(ctx: TCallContext) {
  return ctx.services.database.db
    .selectFrom('oidc_providers')
    .select(['slug', 'name'])
    .where('tenant_id', '=', ctx.tenant.id)
    .where('enabled', '=', true)
    .orderBy('name')
    .execute();
}

/** Creates or updates a provider of a broker (seed, sandbox, and later the back office). */
export async function upsertProvider(
  services: TServices,
  input: {
    tenantId: string;
    slug: string;
    name: string;
    issuer: string;
    clientId: string;
    clientSecret: string;
  },
) {
  await services.database.db
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

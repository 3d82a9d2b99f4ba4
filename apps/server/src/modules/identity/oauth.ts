import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS, WEB_OAUTH_CLIENT } from '@broker/contracts/oauth';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { TDb } from '../../db/database';
import type { TServices } from '../../http/context';
import { newToken, sha256 } from '../../ids';

const CODE_SECONDS = 60;

/** Gives a broker the portal's public OAuth2 client (Kong's oauth2 credential). */
export async function ensureWebClient({ db, tenantId }: { db: TDb; tenantId: string }) {
  await db
    .insertInto('oauth_clients')
    .values({
      tenant_id: tenantId,
      client_id: WEB_OAUTH_CLIENT.clientId,
      name: 'Web portal',
      client_secret_hash: sha256(WEB_OAUTH_CLIENT.clientSecret),
      provision_key_hash: sha256(WEB_OAUTH_CLIENT.provisionKey),
      redirect_uri: WEB_OAUTH_CLIENT.redirectUri,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export interface TBearer {
  tenantId: string;
  clientId: string;
  authenticatedUserId: string;
  scope: string;
}

/** The owner of a live access token, or null. */
export async function findBearer({
  db,
  token,
  tenantId,
  now = new Date(),
}: {
  db: TDb;
  token: string;
  tenantId: string;
  now?: Date;
}): Promise<TBearer | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null;
  const row = await db
    .selectFrom('oauth_tokens')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (row?.kind !== 'access' || row.revoked_at || row.expires_at <= now || row.tenant_id !== tenantId)
    return null;
  return {
    tenantId: row.tenant_id,
    clientId: row.client_id,
    authenticatedUserId: row.authenticated_userid,
    scope: row.scope,
  };
}

const ZAuthorize = z.object({
  response_type: z.string(),
  scope: z.string().max(200).default(''),
  client_id: z.string().max(100),
  provision_key: z.string().max(200),
  authenticated_userid: z.string().min(1).max(200),
});

const ZToken = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('authorization_code'),
    client_id: z.string().max(100),
    client_secret: z.string().max(200),
    code: z.string().max(100),
  }),
  z.object({
    grant_type: z.literal('refresh_token'),
    client_id: z.string().max(100),
    client_secret: z.string().max(200),
    refresh_token: z.string().max(100),
  }),
]);

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send({ error, error_description: description });
}

/**
 * Kong-compatible OAuth2 endpoints (authorization-code flow with a provision key), JSON or form
 * bodies, answering in Kong's shapes: `{ redirect_uri }` and `{ access_token, token_type,
 * expires_in, refresh_token }`, errors as `{ error, error_description }`.
 */
export function registerOAuth(app: FastifyInstance, services: TServices) {
  const db = services.database.db;
  const tenantOf = (host: string | undefined, body: unknown) =>
    services.resolveTenant({
      host,
      hostspecific:
        typeof (body as { Hostspecific?: unknown })?.Hostspecific === 'string'
          ? (body as { Hostspecific: string }).Hostspecific
          : undefined,
    });

  app.post('/oauth2/authorize', async (request, reply) => {
    const parsed = ZAuthorize.safeParse(request.body ?? {});
    if (!parsed.success) return oauthError(reply, 400, 'invalid_request', 'Invalid request parameters');
    const input = parsed.data;
    if (input.response_type !== 'code')
      return oauthError(reply, 400, 'unsupported_response_type', 'Only response_type=code is supported');
    const tenant = await tenantOf(request.headers.host, request.body);
    const client = await db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('tenant_id', '=', tenant.id)
      .where('client_id', '=', input.client_id)
      .executeTakeFirst();
    if (!client) return oauthError(reply, 400, 'invalid_client', 'Invalid client authentication');
    if (client.provision_key_hash !== sha256(input.provision_key))
      return oauthError(reply, 400, 'invalid_provision_key', 'Invalid provision_key');
    const code = newToken();
    await db
      .insertInto('oauth_codes')
      .values({
        code_hash: sha256(code),
        tenant_id: tenant.id,
        client_id: client.client_id,
        authenticated_userid: input.authenticated_userid,
        scope: input.scope,
        expires_at: new Date(Date.now() + CODE_SECONDS * 1000),
        used_at: null,
      })
      .execute();
    return reply
      .header('cache-control', 'no-store')
      .send({ redirect_uri: `${client.redirect_uri}?code=${code}` });
  });

  app.post('/oauth2/token', async (request, reply) => {
    const parsed = ZToken.safeParse(request.body ?? {});
    if (!parsed.success) return oauthError(reply, 400, 'invalid_request', 'Invalid request parameters');
    const input = parsed.data;
    const tenant = await tenantOf(request.headers.host, request.body);
    const limited = !(await services.rateLimiter.hit(`oauth:${tenant.id}:${request.ip}`, 120, 60_000));
    if (limited) return oauthError(reply, 429, 'too_many_requests', 'Too many requests');
    const client = await db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('tenant_id', '=', tenant.id)
      .where('client_id', '=', input.client_id)
      .executeTakeFirst();
    if (!client || client.client_secret_hash !== sha256(input.client_secret))
      return oauthError(reply, 401, 'invalid_client', 'Invalid client authentication');
    const now = new Date();
    let subject: { authenticated_userid: string; scope: string } | undefined;
    if (input.grant_type === 'authorization_code') {
      subject = await db
        .updateTable('oauth_codes')
        .set({ used_at: now })
        .where('code_hash', '=', sha256(input.code))
        .where('client_id', '=', client.client_id)
        .where('tenant_id', '=', tenant.id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['authenticated_userid', 'scope'])
        .executeTakeFirst();
    } else {
      subject = await db
        .updateTable('oauth_tokens')
        .set({ revoked_at: now })
        .where('token_hash', '=', sha256(input.refresh_token))
        .where('kind', '=', 'refresh')
        .where('client_id', '=', client.client_id)
        .where('tenant_id', '=', tenant.id)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['authenticated_userid', 'scope'])
        .executeTakeFirst();
    }
    if (!subject) return oauthError(reply, 400, 'invalid_grant', 'Invalid or expired grant');
    const accessToken = newToken();
    const refreshToken = newToken();
    const row = {
      tenant_id: tenant.id,
      client_id: client.client_id,
      authenticated_userid: subject.authenticated_userid,
      scope: subject.scope,
      revoked_at: null,
    };
    await db
      .insertInto('oauth_tokens')
      .values([
        {
          ...row,
          token_hash: sha256(accessToken),
          kind: 'access',
          expires_at: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
        },
        {
          ...row,
          token_hash: sha256(refreshToken),
          kind: 'refresh',
          expires_at: new Date(now.getTime() + REFRESH_TOKEN_SECONDS * 1000),
        },
      ])
      .execute();
    return reply.header('cache-control', 'no-store').send({
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: refreshToken,
    });
  });
}

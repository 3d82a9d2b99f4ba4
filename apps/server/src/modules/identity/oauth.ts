import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS, WEB_OAUTH_CLIENT } from '@broker/contracts/oauth';
import type { TDb } from '../../db/database';
import { newToken, sha256 } from '../../ids';
import type { TIdentityPorts } from './ports';

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

/**
 * Kong's authorize step (authorization-code flow with a provision key): a one-minute code for the
 * user the client vouches for, answered as the client's redirect address with the code.
 */
export async function authorizeOAuth(
  ports: TIdentityPorts,
  input: {
    tenantId: string;
    clientId: string;
    provisionKey: string;
    authenticatedUserId: string;
    scope: string;
  },
): Promise<{ redirectUri: string } | { refused: 'invalid_client' | 'invalid_provision_key' }> {
  const { db } = ports;
  const client = await db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('tenant_id', '=', input.tenantId)
    .where('client_id', '=', input.clientId)
    .executeTakeFirst();
  if (!client) return { refused: 'invalid_client' };
  if (client.provision_key_hash !== sha256(input.provisionKey)) return { refused: 'invalid_provision_key' };
  await db.deleteFrom('oauth_codes').where('expires_at', '<', new Date()).execute();
  const code = newToken();
  await db
    .insertInto('oauth_codes')
    .values({
      code_hash: sha256(code),
      tenant_id: input.tenantId,
      client_id: client.client_id,
      authenticated_userid: input.authenticatedUserId,
      scope: input.scope,
      expires_at: new Date(Date.now() + CODE_SECONDS * 1000),
      used_at: null,
    })
    .execute();
  return { redirectUri: `${client.redirect_uri}?code=${code}` };
}

/** A token request: an authorization code or a refresh token, with the client's credentials. */
export type TOAuthGrant =
  | { grant_type: 'authorization_code'; client_id: string; client_secret: string; code: string }
  | { grant_type: 'refresh_token'; client_id: string; client_secret: string; refresh_token: string };

/**
 * Kong's token step: trades a live code (once) or refresh token (rotated: the old one is revoked)
 * for a new access token and refresh token.
 */
export async function grantOAuthTokens(
  ports: TIdentityPorts,
  { tenantId, grant }: { tenantId: string; grant: TOAuthGrant },
): Promise<{ accessToken: string; refreshToken: string } | { refused: 'invalid_client' | 'invalid_grant' }> {
  const { db } = ports;
  const client = await db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('client_id', '=', grant.client_id)
    .executeTakeFirst();
  if (!client || client.client_secret_hash !== sha256(grant.client_secret))
    return { refused: 'invalid_client' };
  const now = new Date();
  let subject: { authenticated_userid: string; scope: string } | undefined;
  if (grant.grant_type === 'authorization_code') {
    subject = await db
      .updateTable('oauth_codes')
      .set({ used_at: now })
      .where('code_hash', '=', sha256(grant.code))
      .where('client_id', '=', client.client_id)
      .where('tenant_id', '=', tenantId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['authenticated_userid', 'scope'])
      .executeTakeFirst();
  } else {
    subject = await db
      .updateTable('oauth_tokens')
      .set({ revoked_at: now })
      .where('token_hash', '=', sha256(grant.refresh_token))
      .where('kind', '=', 'refresh')
      .where('client_id', '=', client.client_id)
      .where('tenant_id', '=', tenantId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['authenticated_userid', 'scope'])
      .executeTakeFirst();
  }
  if (!subject) return { refused: 'invalid_grant' };
  const accessToken = newToken();
  const refreshToken = newToken();
  const row = {
    tenant_id: tenantId,
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
  return { accessToken, refreshToken };
}

import { ACCESS_TOKEN_SECONDS } from '@broker/contracts/oauth';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { TServices } from '../http/context';
import { authorizeOAuth, grantOAuthTokens } from '../modules/identity';

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

/** Authorization codes one client address may ask for per minute. */
const AUTHORIZE_PER_MINUTE = 60;

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send({ error, error_description: description });
}

const DESCRIPTIONS = {
  invalid_client: 'Invalid client authentication',
  invalid_provision_key: 'Invalid provision_key',
  invalid_grant: 'Invalid or expired grant',
} as const;

/**
 * Kong-compatible OAuth2 endpoints (authorization-code flow with a provision key), JSON or form
 * bodies, answering in Kong's shapes: `{ redirect_uri }` and `{ access_token, token_type,
 * expires_in, refresh_token }`, errors as `{ error, error_description }`.
 */
export function registerOAuth(app: FastifyInstance, services: TServices) {
  const ports = { db: services.database.db };
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
    // Each call stores a code: an address gets AUTHORIZE_PER_MINUTE of them, and expired ones go.
    if (
      !(await services.rateLimiter.hit(
        `oauth:authorize:${tenant.id}:${request.ip}`,
        AUTHORIZE_PER_MINUTE,
        60_000,
      ))
    )
      return oauthError(reply, 429, 'too_many_requests', 'Too many requests');
    const result = await authorizeOAuth(ports, {
      tenantId: tenant.id,
      clientId: input.client_id,
      provisionKey: input.provision_key,
      authenticatedUserId: input.authenticated_userid,
      scope: input.scope,
    });
    if ('refused' in result) return oauthError(reply, 400, result.refused, DESCRIPTIONS[result.refused]);
    return reply.header('cache-control', 'no-store').send({ redirect_uri: result.redirectUri });
  });

  app.post('/oauth2/token', async (request, reply) => {
    const parsed = ZToken.safeParse(request.body ?? {});
    if (!parsed.success) return oauthError(reply, 400, 'invalid_request', 'Invalid request parameters');
    const tenant = await tenantOf(request.headers.host, request.body);
    const limited = !(await services.rateLimiter.hit(`oauth:${tenant.id}:${request.ip}`, 120, 60_000));
    if (limited) return oauthError(reply, 429, 'too_many_requests', 'Too many requests');
    const result = await grantOAuthTokens(ports, { tenantId: tenant.id, grant: parsed.data });
    // A client that fails to authenticate answers 401; a bad grant 400.
    if ('refused' in result)
      return oauthError(
        reply,
        result.refused === 'invalid_client' ? 401 : 400,
        result.refused,
        DESCRIPTIONS[result.refused],
      );
    return reply.header('cache-control', 'no-store').send({
      access_token: result.accessToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: result.refreshToken,
    });
  });
}

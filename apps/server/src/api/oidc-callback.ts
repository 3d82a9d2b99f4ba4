import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { FastifyInstance } from 'fastify';
import { COOKIE, type TServices } from '../http/context';
import { requestLocale } from '../i18n';
import { finishUnion, openUserSession, takeUnionState } from '../modules/identity';
import { oidcPorts, sessionAnswer } from './identity';

/** Adds `key=value` to a same-site path. */
function withParam(path: string, key: string, value: string): string {
  const url = new URL(path, 'http://x');
  url.searchParams.set(key, value);
  return url.pathname + url.search;
}

/**
 * `GET /oauth/union/:slug/callback`: the identity module checks the state, exchanges the code and
 * signs in, registers or binds; a sign-in gets its session cookies here, and the trader is
 * redirected to the page the flow started from. Failures land on the sign-in page (or the starting
 * page for a binding) with `unionError=<code>`, which the portal shows translated.
 */
export function registerUnionCallback(app: FastifyInstance, services: TServices) {
  app.get<{ Params: { slug: string }; Querystring: Record<string, string | undefined> }>(
    '/oauth/union/:slug/callback',
    async (request, reply) => {
      const tenant = await services.resolveTenant({ host: request.headers.host, hostspecific: undefined });
      const state = request.query.state ?? '';
      const ports = oidcPorts(services, request.log);
      const flow = await takeUnionState(ports, { tenantId: tenant.id, state });
      if (!flow) {
        return reply.redirect(
          withParam(
            `/${requestLocale(request.headers, request.cookies)}/login`,
            'unionError',
            String(AppErrorCode.CODE_EXPIRED),
          ),
        );
      }
      const failTo = flow.mode === 'bind' ? flow.redirect : `/${flow.lang}/login`;
      try {
        const done = await finishUnion(ports, {
          tenantId: tenant.id,
          ip: request.ip,
          slug: request.params.slug,
          state,
          flow,
          origin: `${request.protocol}://${request.headers.host}`,
          query: request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '',
          sessionToken: request.cookies[COOKIE.userToken],
        });
        if (done.kind === 'bound')
          return reply.redirect(withParam(flow.redirect, 'union', done.replaced ? 'replaced' : 'bound'));
        const opened = await openUserSession(ports, {
          tenantId: tenant.id,
          userId: done.userId,
          userAgent: request.headers['user-agent'] ?? null,
          ip: request.ip,
        });
        sessionAnswer({ reply, request, services }, opened);
        return reply.redirect(flow.redirect.startsWith(`/${flow.lang}`) ? flow.redirect : `/${flow.lang}`);
      } catch (error) {
        const code = error instanceof AppError ? error.code : AppErrorCode.IDENTITY_PROVIDER_FAILED;
        if (!(error instanceof AppError)) request.log.error({ err: error }, 'third-party sign-in failed');
        return reply.redirect(withParam(failTo, 'unionError', String(code)));
      }
    },
  );
}

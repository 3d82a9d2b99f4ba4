import { CSRF_HEADER, HOSTSPECIFIC_FIELD, ROUTES_HEADER } from '@broker/contracts/envelope';
import { routeByName, routeList, type TRouteDefinition, type TRouteName } from '@broker/contracts/routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { SUBJECT } from '../cluster/cluster';
import { requestLocale } from '../i18n';
import { staffProfile } from '../modules/access';
import { applyPackage } from '../modules/entitlements';
import { findBearer, findSession, type TBearer, type TSession, verifyTradeToken } from '../modules/identity';
import type { TTenant } from '../modules/tenancy';
import { COOKIE, type TCallContext, type TServices } from './context';
import { sendData, sendError } from './envelope';
import { forwardedCall, forwardedError, replayReplyOps, type TForwardedAnswer } from './forwarded-calls';
import { controlCharacterError, registerInputGuard } from './input-guard';
import { enforceRouteLimits } from './route-limits';

export type THandler<N extends TRouteName = TRouteName> = (
  input: z.infer<typeof import('@broker/contracts/routes').routeCatalogue[N]['input']>,
  ctx: TCallContext,
) => Promise<z.input<typeof import('@broker/contracts/routes').routeCatalogue[N]['output']>>;

/** Every route of the catalogue must have a handler: the type makes a missing one a compile error. */
export type THandlers = { [N in TRouteName]: THandler<N> };

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Rejects cross-site state changes: a foreign Origin, or a cookie session call without its CSRF token. */
function checkCsrf(request: FastifyRequest, route: TRouteDefinition, session: TSession | null) {
  if (!route.mutates) return;
  checkStateChange(request, session);
}

/**
 * The CSRF rule of every state-changing request, gateway call or not (uploads): an Origin header,
 * when sent, must be this host; a call made with a cookie session must carry its CSRF token.
 */
export function checkStateChange(request: FastifyRequest, session: TSession | null) {
  const origin = headerValue(request, 'origin');
  if (origin && origin !== 'null') {
    let originHost = '';
    try {
      originHost = new URL(origin).host;
    } catch {
      throw new AppError(AppErrorCode.CSRF_REJECTED);
    }
    if (originHost !== request.headers.host) throw new AppError(AppErrorCode.CSRF_REJECTED);
  }
  if (session && headerValue(request, CSRF_HEADER) !== session.csrfToken)
    throw new AppError(AppErrorCode.CSRF_REJECTED);
}

async function sessionFromCookie(
  services: TServices,
  request: FastifyRequest,
  cookie: string,
  kind: 'user' | 'staff',
  tenant: TTenant,
): Promise<TSession | null> {
  const token = request.cookies[cookie];
  if (!token) return null;
  return findSession({ db: services.database.db, token, subjectKind: kind, tenantId: tenant.id });
}

/**
 * The engine seen from a call run on a standby: any use of it means the call belongs on the leader.
 * `digits` (the catalogue's, the same everywhere) is the one thing a standby can answer.
 */
export class EngineNotHere extends Error {}

function standbyServices(services: TServices): TServices {
  const engine = new Proxy(services.engine, {
    get(target, property) {
      if (property === 'digits' || property === 'isLeading') {
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      throw new EngineNotHere(String(property));
    },
  });
  return { ...services, engine };
}

/**
 * @param engineRoutes the routes whose handlers use the trading engine: on a standby they go to the
 * leader over the bus (issue 20). A route missing from it that still reaches for the engine on a
 * standby is forwarded too, when it does (EngineNotHere), and logged so that it is added.
 */
export function registerGateway(
  app: FastifyInstance,
  services: TServices,
  handlers: THandlers,
  engineRoutes: ReadonlySet<string> = new Set(),
) {
  // Every other route gets its input checked by a hook; the gateway's routes check it in dispatch.
  registerInputGuard(app);
  const onStandby = standbyServices(services);
  const forward = async (route: TRouteDefinition, input: unknown, ctx: TCallContext) => {
    const answer = (await services.cluster.request(
      SUBJECT.engineCall,
      forwardedCall(route.name as TRouteName, input, ctx),
    )) as TForwardedAnswer;
    if ('notLeader' in answer) throw new AppError(AppErrorCode.SERVICE_UNAVAILABLE);
    replayReplyOps(ctx.reply, answer.replyOps);
    if (!answer.ok) throw forwardedError(answer.error);
    return answer.output;
  };
  const dispatch = async (route: TRouteDefinition, request: FastifyRequest, reply: FastifyReply) => {
    const locale = requestLocale(request.headers, request.cookies);
    try {
      const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<
        string,
        unknown
      >;
      // Before anything reads the body (Hostspecific included): PostgreSQL refuses U+0000, and no
      // field of the contracts takes a control character.
      const refused = controlCharacterError(body);
      if (refused) throw refused;
      const { [HOSTSPECIFIC_FIELD]: hostspecific, ...input } = body;
      const tenant = await services.resolveTenant({
        host: request.headers.host,
        hostspecific: typeof hostspecific === 'string' && hostspecific ? hostspecific : undefined,
      });
      const [userSession, staffSession] = await Promise.all([
        sessionFromCookie(services, request, COOKIE.userToken, 'user', tenant),
        sessionFromCookie(services, request, COOKIE.staffToken, 'staff', tenant),
      ]);
      const authorization = headerValue(request, 'authorization');
      let bearer: TBearer | null = null;
      if (authorization && /^bearer\s+/i.test(authorization)) {
        bearer = await findBearer({
          db: services.database.db,
          token: authorization.replace(/^bearer\s+/i, '').trim(),
          tenantId: tenant.id,
        });
        // An expired or unknown bearer answers 401 with the RFC 6750 challenge, which makes the
        // client get a new one and retry (spec 8); a missing session answers 401 without it.
        if (!bearer) {
          reply.header('www-authenticate', 'Bearer error="invalid_token"');
          throw new AppError(AppErrorCode.TOKEN_INVALID);
        }
      }
      const staff = staffSession
        ? await staffProfile({
            db: services.database.db,
            staffId: staffSession.subjectId,
            tenantId: tenant.id,
          })
        : null;
      const access = route.access;
      if (access.kind === 'user' && !userSession) throw new AppError(AppErrorCode.TOKEN_INVALID);
      if (access.kind === 'staff') {
        if (!staff) throw new AppError(AppErrorCode.TOKEN_INVALID);
        // The broker's package: a module it leaves out answers -6015 and leaves the permissions.
        await applyPackage({
          db: services.database.db,
          tenantId: tenant.id,
          staff,
          permission: access.permission,
        });
        if (access.permission && !staff.permissions.includes(access.permission))
          throw new AppError(AppErrorCode.FORBIDDEN);
      }
      if (route.trade && userSession) {
        await verifyTradeToken({
          secret: services.appSecret,
          token: headerValue(request, 'tradetoken') ?? '',
          session: userSession,
        });
      }
      const sessionInUse =
        access.kind === 'staff' || route.path.startsWith('/api/v1/admin/') ? staffSession : userSession;
      checkCsrf(request, route, sessionInUse);
      await enforceRouteLimits({
        limiter: services.rateLimiter,
        route,
        tenantId: tenant.id,
        ip: request.ip,
        subjectId: sessionInUse?.subjectId ?? null,
      });
      const ctx: TCallContext = {
        services,
        tenant,
        locale,
        ip: request.ip,
        userAgent: headerValue(request, 'user-agent') ?? null,
        request,
        reply,
        userSession,
        staff,
        staffSession,
        bearer,
      };
      const checked = route.input.safeParse(input);
      if (!checked.success) return sendError(reply, checked.error, locale, input);
      const parsed = checked.data;
      // A standby sends the engine's calls to the leader, with the actor it established here.
      if (services.cluster.forwarding && engineRoutes.has(route.name))
        return sendData(reply, await forward(route, input, ctx), locale);
      const handler = handlers[route.name as TRouteName] as (
        input: unknown,
        ctx: TCallContext,
      ) => Promise<unknown>;
      let output: unknown;
      try {
        output = route.output.parse(
          await handler(parsed, services.cluster.forwarding ? { ...ctx, services: onStandby } : ctx),
        );
      } catch (error) {
        if (!(error instanceof EngineNotHere)) throw error;
        request.log.warn(
          `route ${route.name} uses the engine (${error.message}) but is not in engineRoutes: forwarded`,
        );
        return sendData(reply, await forward(route, input, ctx), locale);
      }
      return sendData(reply, output, locale);
    } catch (error) {
      return sendError(reply, error, locale);
    }
  };

  for (const route of routeList) {
    // Trading calls answer a few hundred bytes and are the hottest path: no compression hooks.
    const options = route.trade ? { compress: false as const, decompress: false as const } : {};
    app.post(route.path, { ...options, config: { checksControlCharacters: true } }, (request, reply) =>
      dispatch(route, request, reply),
    );
  }
  app.post('/gateway', { config: { checksControlCharacters: true } }, (request, reply) => {
    const name = headerValue(request, ROUTES_HEADER) ?? '';
    const route = routeByName(name);
    if (!route)
      return sendError(
        reply,
        new AppError(AppErrorCode.ROUTE_NOT_FOUND, { route: name.slice(0, 60) }),
        requestLocale(request.headers, request.cookies),
      );
    return dispatch(route, request, reply);
  });
  app.all('/api/*', (request, reply) =>
    sendError(
      reply,
      new AppError(AppErrorCode.ROUTE_NOT_FOUND, { route: request.url.slice(0, 80) }),
      requestLocale(request.headers, request.cookies),
    ),
  );
}

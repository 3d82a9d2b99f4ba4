import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type TEnvelope, unwrapEnvelope } from '@broker/contracts/envelope';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { routeByName } from '@broker/contracts/routes';
import type { TRenderFunction, TWebHost } from '@broker/contracts/web-host';
import { isLocaleCode, LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_SECONDS } from '@broker/i18n/locales';
import { negotiateLocale, parseAcceptLanguage } from '@broker/i18n/negotiate';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { legalDocument, recordPageView } from '../modules/content';
import { findSession, userProfile } from '../modules/identity';
import { compressHtml } from './compress-html';
import type { TServices } from './context';
import { COOKIE } from './context';
import { detectDevice } from './device';

const require = createRequire(import.meta.url);

function cookieFrom(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

function toWebRequest(request: FastifyRequest): Request {
  const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? 'localhost'}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(key, value);
    else if (Array.isArray(value)) headers.set(key, value.join(', '));
  }
  return new Request(url, { method: 'GET', headers });
}

/**
 * Hosts the portal (server-rendered) and the back office (static), with the route middleware of
 * spec 2.1: the root language redirect, the language cookie, device detection and page-view logging.
 */
export async function registerPages(app: FastifyInstance, services: TServices) {
  const webDist = resolve(services.config.WEB_DIST);
  const backofficeDist = resolve(services.config.BACKOFFICE_DIST);
  const serverEntry = join(webDist, 'server/entry-server.js');
  const flagsDir = join(dirname(require.resolve('flag-icons/package.json')), 'flags');

  await app.register(fastifyStatic, {
    root: flagsDir,
    prefix: '/flags/',
    decorateReply: false,
    maxAge: '30d',
    immutable: true,
  });

  if (existsSync(backofficeDist)) {
    await app.register(fastifyStatic, {
      root: join(backofficeDist, 'assets'),
      prefix: '/admin/assets/',
      decorateReply: false,
      preCompressed: true,
      maxAge: '365d',
      immutable: true,
    });
    const adminIndex = join(backofficeDist, 'index.html');
    const serveAdmin = (_req: FastifyRequest, reply: FastifyReply) =>
      reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html', backofficeDist);
    if (existsSync(adminIndex)) {
      await app.register(fastifyStatic, { root: backofficeDist, serve: false, decorateReply: true });
      app.get('/admin', serveAdmin);
      app.get('/admin/*', serveAdmin);
    }
  }

  if (!existsSync(serverEntry)) {
    app.log.warn(`portal build not found at ${serverEntry}: run "npm run build"`);
    app.get('/', (_req, reply) =>
      reply.code(503).type('text/plain').send('Portal not built. Run "npm run build".'),
    );
    return;
  }
  const render: TRenderFunction = (await import(pathToFileURL(serverEntry).href)).render;

  await app.register(fastifyStatic, {
    root: join(webDist, 'client/assets'),
    prefix: '/assets/',
    decorateReply: false,
    preCompressed: true,
    maxAge: '365d',
    immutable: true,
  });
  await app.register(fastifyStatic, {
    root: join(webDist, 'client/static'),
    prefix: '/static/',
    decorateReply: false,
    preCompressed: true,
    maxAge: '1d',
  });

  const shared: Omit<TWebHost, 'callRoute'> = {
    async currentUser(request) {
      const token = cookieFrom(request.headers.get('cookie'), COOKIE.userToken);
      if (!token) return null;
      const tenant = await services.resolveTenant({
        host: request.headers.get('host') ?? undefined,
        hostspecific: undefined,
      });
      const session = await findSession({
        db: services.database.db,
        token,
        subjectKind: 'user',
        tenantId: tenant.id,
      });
      if (!session) return null;
      const user = await userProfile({
        db: services.database.db,
        userId: session.subjectId,
        tenantId: tenant.id,
      });
      return user ? { name: user.name } : null;
    },
    legalDocument,
  };
  /**
   * The host of one page request: its gateway calls are made in-process (`inject`) with the visitor's
   * cookies, language and address, so they pass the same session checks and rate limits as the
   * browser's calls would. Only read routes: a page render never changes state.
   */
  const hostFor = (page: FastifyRequest): TWebHost => ({
    ...shared,
    async callRoute(request, lang, name, input) {
      const route = routeByName(name);
      if (!route || route.mutates) throw new Error(`the page renderer may not call ${name}`);
      const headers: Record<string, string> = { 'content-type': 'application/json', languagecode: lang };
      for (const header of ['cookie', 'host', 'user-agent', 'accept-language'])
        if (request.headers.has(header)) headers[header] = request.headers.get(header) as string;
      const answer = await app.inject({
        method: 'POST',
        url: ROUTE_PATHS[name],
        headers,
        payload: JSON.stringify(input),
        remoteAddress: page.ip,
      });
      return unwrapEnvelope(answer.json<TEnvelope<never>>());
    },
  });

  app.get('/', (request, reply) => {
    const fromCookie = request.cookies[LANGUAGE_COOKIE];
    const lang = isLocaleCode(fromCookie)
      ? fromCookie
      : negotiateLocale(parseAcceptLanguage(request.headers['accept-language']));
    return reply.header('vary', 'Accept-Language, Cookie').redirect(`/${lang}`, 302);
  });

  const renderPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const device = detectDevice(request.headers);
    const result = await render(toWebRequest(request), hostFor(request), { device });
    const lang = request.url.split(/[/?#]/)[1];
    if (result.status < 300 && isLocaleCode(lang) && request.cookies[LANGUAGE_COOKIE] !== lang) {
      reply.setCookie(LANGUAGE_COOKIE, lang, {
        path: '/',
        maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS,
        sameSite: 'lax',
      });
    }
    reply.code(result.status).headers(result.headers);
    if (result.status < 300 || result.status >= 400) reply.header('x-device', device);
    logPageView(services, request, result.status, device, isLocaleCode(lang) ? lang : null);
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    const compressed = compressHtml(result.body, request.headers['accept-encoding']);
    if (compressed.encoding !== 'identity') reply.header('content-encoding', compressed.encoding);
    return reply.send(compressed.body);
  };
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.code(404).send({ code: 404 });
    return renderPage(request, reply);
  });
}

/** The log middleware: page views go to the log and to the page_views table. */
function logPageView(
  services: TServices,
  request: FastifyRequest,
  status: number,
  device: string,
  lang: string | null,
) {
  request.log.info({ page: request.url, status, device, lang }, 'page view');
  if (status >= 300 && status < 400) return;
  void services
    .resolveTenant({ host: request.headers.host, hostspecific: undefined })
    .then((tenant) =>
      recordPageView(
        { db: services.database.db },
        {
          tenantId: tenant.id,
          path: request.url,
          lang,
          device,
          status,
          userAgent: String(request.headers['user-agent'] ?? '') || null,
        },
      ),
    )
    .catch((error) => request.log.warn({ err: error }, 'page view not recorded'));
}

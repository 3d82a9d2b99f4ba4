import { ZFinancialQuery } from '@broker/contracts/funding-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { FastifyInstance } from 'fastify';
import { userActor } from '../actor';
import { COOKIE, type TServices } from '../http/context';
import { sendError } from '../http/envelope';
import { requestLocale } from '../i18n';
import { financialCsv, receiveWebhook } from '../modules/funding';
import { findSession } from '../modules/identity';

/** Webhook bodies are small JSON documents; anything larger is refused before it is read. */
const WEBHOOK_BODY_LIMIT = 64 * 1024;

/**
 * The funding calls outside the gateway:
 * - `POST /api/v1/trans/webhook/:provider`: a payment provider's webhook. The raw body and headers
 *   go to the provider's own verification (signature over the exact bytes); the answer is 200 once
 *   applied or recognised as a repeat, 400 for a forged, stale or malformed delivery, 404 for an
 *   unknown provider and 500 when applying failed (the provider retries).
 * - `GET /api/v1/trans/financial.csv?<financial filters>`: the trader's financial record as CSV,
 *   with the session cookie.
 */
export function registerFundingRaw(app: FastifyInstance, services: TServices) {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    scope.post<{ Params: { provider: string } }>(
      '/api/v1/trans/webhook/:provider',
      { bodyLimit: WEBHOOK_BODY_LIMIT },
      async (request, reply) => {
        // Providers send from a few addresses in bursts; a flood of forged deliveries from one
        // address is answered 429 before it is verified or recorded (a real provider retries later).
        if (!(await services.rateLimiter.hit(`webhook:${request.ip}`, 600, 60_000)))
          return reply.code(429).send({ outcome: 'rate_limited' });
        const answer = await receiveWebhook(
          { host: services.engine, db: services.database.db, ...services.funding, log: request.log },
          {
            providerId: request.params.provider,
            rawBody: typeof request.body === 'string' ? request.body : '',
            headers: request.headers,
            ip: request.ip,
          },
        );
        return reply.code(answer.status).send({ outcome: answer.outcome });
      },
    );
  });

  app.get<{ Querystring: Record<string, string | string[] | undefined> }>(
    '/api/v1/trans/financial.csv',
    async (request, reply) => {
      const locale = requestLocale(request.headers, request.cookies);
      try {
        const tenant = await services.resolveTenant({ host: request.headers.host, hostspecific: undefined });
        const token = request.cookies[COOKIE.userToken];
        const session = token
          ? await findSession({ db: services.database.db, token, subjectKind: 'user', tenantId: tenant.id })
          : null;
        if (!session) throw new AppError(AppErrorCode.TOKEN_INVALID);
        // A parameter may come once or repeated (`kinds=a,b` or `kinds=a&kinds=b`); the others once.
        const query = request.query;
        const list = (value: string | string[] | undefined) =>
          (Array.isArray(value) ? value : value ? [value] : []).flatMap((v) => v.split(',')).filter(Boolean);
        const one = (value: string | string[] | undefined) =>
          (Array.isArray(value) ? value[0] : value) || undefined;
        const kinds = list(query.kinds);
        const parsed = ZFinancialQuery.safeParse({
          kinds: kinds.length ? kinds : undefined,
          status: one(query.status),
          account_id: one(query.account_id),
          from: one(query.from),
          to: one(query.to),
          page: 1,
          size: 100,
        });
        if (!parsed.success) throw AppError.invalid({ query: 'invalid' });
        const actor = userActor({ userId: session.subjectId, tenantId: tenant.id, ip: request.ip });
        const csv = await financialCsv(services.database.db, { actor, ...parsed.data });
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="financial.csv"')
          .header('cache-control', 'no-store')
          .send(`\uFEFF${csv}`);
      } catch (error) {
        return sendError(reply, error, locale);
      }
    },
  );
}

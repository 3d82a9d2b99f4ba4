import type { FastifyInstance } from 'fastify';
import { decodeJson, encodeJson } from '../cluster/bus';
import { SUBJECT } from '../cluster/cluster';
import type { TServices } from './context';

/**
 * The HTTP routes outside the gateway that use the trading engine: a standby sends the whole request
 * to the leader, which answers it through its own routes (`app.inject`), checks included (issue 20).
 * Payment providers' webhooks reach any instance through the load balancer; the history exports
 * check the account's owner in the engine.
 */
export const RAW_ENGINE_ROUTES = new Set([
  '/api/v1/trans/webhook/:provider',
  '/api/v1/order/history.csv',
  '/api/v1/trans/financial.csv',
  // The hand-driven feed (demo mode, FEED=off): the leader runs the feed.
  '/dev/feed/tick',
]);

/** NATS refuses messages over its max_payload (1 MB by default): an answer must stay under it. */
const MAX_ANSWER_BYTES = 900 * 1024;

interface TRawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  ip: string;
}

interface TRawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const DROPPED = new Set([
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'connection',
  'content-length',
]);

export function registerRawForwarding(app: FastifyInstance, services: TServices) {
  services.cluster.serveRaw(async (data) => {
    const request = decodeJson<TRawRequest>(data);
    if (!services.engine.isLeading) return encodeJson({ notLeader: true });
    const answer = await app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: request.headers,
      ...(request.body === null ? {} : { payload: request.body }),
      remoteAddress: request.ip,
    });
    const body = answer.rawPayload;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !DROPPED.has(name) && name !== 'transfer-encoding')
        headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    if (body.length > MAX_ANSWER_BYTES)
      return encodeJson({
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
        body: Buffer.from(
          JSON.stringify({
            error: 'answer too large to forward: ask again (the load balancer may reach the leader)',
          }),
        ).toString('base64'),
      } satisfies TRawAnswer);
    return encodeJson({
      status: answer.statusCode,
      headers,
      body: body.toString('base64'),
    } satisfies TRawAnswer);
  });

  app.addHook('preHandler', async (request, reply) => {
    if (!services.cluster.forwarding || !RAW_ENGINE_ROUTES.has(request.routeOptions.url ?? '')) return;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined && !DROPPED.has(name))
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const body =
      request.body === undefined || request.body === null
        ? null
        : typeof request.body === 'string'
          ? request.body
          : JSON.stringify(request.body);
    try {
      const answer = (await services.cluster.request(SUBJECT.raw, {
        method: request.method,
        url: request.url,
        headers,
        body,
        ip: request.ip,
      } satisfies TRawRequest)) as TRawAnswer;
      reply.code(answer.status).headers(answer.headers);
      return reply.send(Buffer.from(answer.body, 'base64'));
    } catch {
      return reply.code(503).header('retry-after', '1').send({ error: 'trading engine unavailable' });
    }
  });
}

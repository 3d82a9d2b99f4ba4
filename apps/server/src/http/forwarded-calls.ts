import { routeByName, type TRouteName } from '@broker/contracts/routes';
import { AppError, AppErrorCode, type TAppErrorCode } from '@broker/domain/result-codes';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { TStaffProfile } from '../modules/access';
import type { TBearer, TSession } from '../modules/identity';
import type { TTenant } from '../modules/tenancy';
import type { TCallContext, TServices } from './context';

/** The route handlers by name (the gateway's THandlers; typed loosely here so the two files do not import each other). */
type THandlerMap = Readonly<Record<string, (input: never, ctx: TCallContext) => Promise<unknown>>>;

/**
 * A gateway call carried over the bus from the instance that received it (a standby) to the engine
 * leader (issue 20, ADR 014). The standby has done everything that needs no engine: the tenant, the
 * sessions, the staff member and their permission, the trade token, CSRF, rate limits and the input
 * check. The leader runs the route's handler with the same actor, so the use case, its checks and
 * its audit entry are those of a call received by the leader itself. The input goes as received
 * (the leader checks it again: what crosses the bus is never trusted more than a request).
 */
export interface TForwardedCall {
  route: string;
  input: unknown;
  tenant: TTenant;
  locale: string;
  ip: string;
  userAgent: string | null;
  userSession: TSerializedSession | null;
  staff: TStaffProfile | null;
  staffSession: TSerializedSession | null;
  bearer: TBearer | null;
  /** The request headers a handler reads (host, basicdata, accept-language). */
  headers: Record<string, string>;
}

type TSerializedSession = Omit<TSession, 'absoluteExpiresAt'> & { absoluteExpiresAt: string };

/** What the handler did to its reply (cookies set or cleared, headers), replayed by the standby. */
export type TReplyOp =
  | { op: 'setCookie'; name: string; value: string; options: Record<string, unknown> }
  | { op: 'clearCookie'; name: string; options: Record<string, unknown> }
  | { op: 'header'; name: string; value: string };

export type TForwardedAnswer =
  | { ok: true; output: unknown; replyOps: TReplyOp[] }
  | { ok: false; error: TSerializedError; replyOps: TReplyOp[] }
  /** The instance asked no longer leads (it stepped down meanwhile): ask again. */
  | { notLeader: true };

interface TSerializedError {
  code: TAppErrorCode;
  details?: Record<string, string | number>;
  fields?: Record<string, string>;
  messageKey?: string;
  message: string;
}

/** The headers a handler may read, carried with a forwarded call. */
const CARRIED_HEADERS = ['host', 'basicdata', 'accept-language', 'user-agent', 'countrycode'] as const;

const serializeSession = (session: TSession | null): TSerializedSession | null =>
  session ? { ...session, absoluteExpiresAt: session.absoluteExpiresAt.toISOString() } : null;

const reviveSession = (session: TSerializedSession | null): TSession | null =>
  session ? { ...session, absoluteExpiresAt: new Date(session.absoluteExpiresAt) } : null;

/** The call as the standby sends it. */
export function forwardedCall(route: TRouteName, input: unknown, ctx: TCallContext): TForwardedCall {
  const headers: Record<string, string> = {};
  for (const name of CARRIED_HEADERS) {
    const value = ctx.request.headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string') headers[name] = text;
  }
  return {
    route,
    input,
    tenant: ctx.tenant,
    locale: ctx.locale,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    userSession: serializeSession(ctx.userSession),
    staff: ctx.staff,
    staffSession: serializeSession(ctx.staffSession),
    bearer: ctx.bearer,
    headers,
  };
}

function serializeError(error: unknown): TSerializedError {
  if (error instanceof AppError)
    return {
      code: error.code,
      ...(error.details ? { details: error.details } : {}),
      ...(error.fields ? { fields: error.fields } : {}),
      ...(error.messageKey ? { messageKey: error.messageKey } : {}),
      message: error.message,
    };
  return { code: AppErrorCode.INTERNAL, message: String(error).slice(0, 500) };
}

/** The leader's error again, on the standby: the same code, values, fields and message key. */
export function forwardedError(error: TSerializedError): AppError {
  return new AppError(error.code, error.details, error.message, error.fields, error.messageKey);
}

/** Applies the leader's cookie and header changes to the standby's reply. */
export function replayReplyOps(reply: FastifyReply, ops: readonly TReplyOp[]): void {
  for (const op of ops) {
    if (op.op === 'setCookie') reply.setCookie(op.name, op.value, op.options);
    else if (op.op === 'clearCookie') reply.clearCookie(op.name, op.options);
    else reply.header(op.name, op.value);
  }
}

/** A reply that records what a handler does to it. */
function recordingReply(ops: TReplyOp[], log: FastifyBaseLogger): FastifyReply {
  const reply = {
    log,
    setCookie(name: string, value: string, options: Record<string, unknown> = {}) {
      ops.push({ op: 'setCookie', name, value, options });
      return reply;
    },
    clearCookie(name: string, options: Record<string, unknown> = {}) {
      ops.push({ op: 'clearCookie', name, options });
      return reply;
    },
    header(name: string, value: unknown) {
      ops.push({ op: 'header', name, value: String(value) });
      return reply;
    },
  };
  return reply as unknown as FastifyReply;
}

/**
 * Runs a forwarded call on the leader: the route's handler with the call's actor, its output checked
 * against the route's contract as the gateway does. Answers `notLeader` when this instance does not
 * lead (the standby asks again, and reaches the new leader).
 */
export async function runForwardedCall(
  call: TForwardedCall,
  services: TServices,
  handlers: THandlerMap,
  log: FastifyBaseLogger,
): Promise<TForwardedAnswer> {
  if (!services.engine.isLeading) return { notLeader: true };
  const replyOps: TReplyOp[] = [];
  try {
    const route = routeByName(call.route);
    if (!route) throw new AppError(AppErrorCode.ROUTE_NOT_FOUND, { route: call.route.slice(0, 60) });
    const input = route.input.parse(call.input);
    const request = { log, headers: call.headers, cookies: {}, ip: call.ip } as unknown as FastifyRequest;
    const ctx: TCallContext = {
      services,
      tenant: call.tenant,
      locale: call.locale,
      ip: call.ip,
      userAgent: call.userAgent,
      request,
      reply: recordingReply(replyOps, log),
      userSession: reviveSession(call.userSession),
      staff: call.staff,
      staffSession: reviveSession(call.staffSession),
      bearer: call.bearer,
    };
    const handler = handlers[route.name] as unknown as (
      input: unknown,
      ctx: TCallContext,
    ) => Promise<unknown>;
    const output = route.output.parse(await handler(input, ctx));
    return { ok: true, output, replyOps };
  } catch (error) {
    if (!(error instanceof AppError)) log.error({ err: error }, `forwarded call ${call.route} failed`);
    return { ok: false, error: serializeError(error), replyOps };
  }
}

import { AppError, AppErrorCode, httpStatusFor, SUCCESS_CODE } from '@broker/domain/result-codes';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../db/errors';
import { serverTranslator } from '../i18n';

export function sendData(reply: FastifyReply, data: unknown, locale: string) {
  return reply.code(200).send({
    code: SUCCESS_CODE,
    success: true,
    data,
    errorCode: SUCCESS_CODE,
    message: serverTranslator(locale)('common.ok'),
  });
}

/** Maps zod issues to field -> translation key (`validation.*`). */
/** The value at a path of the request body, or undefined. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Field name -> translation key of each field's first problem. With the request body (`input`),
 * a value of the wrong type is told apart from a missing one: zod's issues do not carry the value.
 */
export interface TFieldProblem {
  key: string;
  values?: Record<string, number>;
}

export function fieldProblems(error: z.ZodError, input?: unknown): Record<string, TFieldProblem> {
  const fields: Record<string, TFieldProblem> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    if (fields[field]) continue;
    const word = /^[a-zA-Z]+$/.test(issue.message);
    let problem: TFieldProblem = { key: 'validation.invalid' };
    if (word && issue.code === 'custom') problem = { key: `validation.${issue.message}` };
    else if (issue.code === 'invalid_format' && word) problem = { key: `validation.${issue.message}` };
    else if ((issue.code === 'too_small' || issue.code === 'too_big') && word)
      problem = { key: `validation.${issue.message}` };
    else if (issue.code === 'too_small' && issue.origin === 'number')
      // A number out of range names its bound, not a text length.
      problem = {
        key: issue.inclusive === false ? 'validation.numberAbove' : 'validation.numberMin',
        values: { minimum: Number(issue.minimum) },
      };
    else if (issue.code === 'too_big' && issue.origin === 'number')
      problem = {
        key: issue.inclusive === false ? 'validation.numberBelow' : 'validation.numberMax',
        values: { maximum: Number(issue.maximum) },
      };
    else if (issue.code === 'too_small') problem = { key: 'validation.tooShort' };
    else if (issue.code === 'too_big') problem = { key: 'validation.tooLong' };
    else if (issue.code === 'invalid_type') {
      const value = input === undefined ? undefined : valueAt(input, issue.path);
      const missing =
        input === undefined
          ? /received undefined$/.test(issue.message)
          : value === undefined || value === null;
      if (missing) problem = { key: 'validation.required' };
    } else if (issue.code === 'invalid_format' && issue.format === 'email')
      problem = { key: 'validation.email' };
    fields[field] = problem;
  }
  return fields;
}

export function sendError(reply: FastifyReply, error: unknown, locale: string, input?: unknown) {
  const t = serverTranslator(locale);
  if (error instanceof z.ZodError) {
    const fields = fieldProblems(error, input);
    const code = AppErrorCode.VALIDATION_FAILED;
    return reply.code(httpStatusFor(code)).send({
      code,
      success: false,
      data: null,
      errorCode: code,
      message: t(`errors.${code}`),
      messageKey: `errors.${code}`,
      fields: Object.fromEntries(Object.entries(fields).map(([f, p]) => [f, t(p.key, p.values)])),
    });
  }
  let appError: AppError;
  if (error instanceof AppError) appError = error;
  else if (isDatabaseUnavailable(error)) {
    // The database is down or unreachable: the documented "service unavailable", not an internal error.
    reply.log.warn({ err: error }, 'database unavailable');
    appError = new AppError(AppErrorCode.SERVICE_UNAVAILABLE);
  } else {
    reply.log.error({ err: error }, 'unhandled error');
    appError = new AppError(AppErrorCode.INTERNAL, undefined, String(error));
  }
  const code = appError.code;
  const messageKey = appError.messageKey ?? `errors.${code}`;
  return reply.code(httpStatusFor(code)).send({
    code,
    success: false,
    data: null,
    errorCode: code,
    message: t(messageKey, appError.details),
    messageKey,
    ...(appError.fields
      ? {
          fields: Object.fromEntries(
            Object.entries(appError.fields).map(([field, key]) => [field, t(`validation.${key}`)]),
          ),
        }
      : {}),
  });
}

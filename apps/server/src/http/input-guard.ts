import { fieldName, findControlCharacter } from '@broker/contracts/control-characters';
import { AppError } from '@broker/domain/result-codes';
import type { FastifyInstance } from 'fastify';
import { requestLocale } from '../i18n';
import { sendError } from './envelope';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route refuses control characters itself, before it reads its input (the gateway's dispatch). */
    checksControlCharacters?: boolean;
  }
}

/** -9001 naming the field whose string holds a control character, or null when the input has none. */
export function controlCharacterError(input: unknown): AppError | null {
  const path = findControlCharacter(input);
  return path ? AppError.invalid({ [fieldName(path)]: 'controlCharacter' }) : null;
}

/**
 * Refuses control characters (`@broker/contracts/control-characters`) in the path parameters, the
 * query and the body of every request that reaches a route other than the gateway's (OAuth2, the
 * OpenID callback, uploads, exports, the developer's mailbox, pages), before its handler runs:
 * -9001 naming the field, translated. PostgreSQL refuses U+0000, so such a string must not get
 * as far as a query. Added to the root context, so it covers every route registered there and in
 * plugins registered after it.
 */
export function registerInputGuard(app: FastifyInstance) {
  // A hook that does not wait on anything takes a callback: an async hook costs a promise per request.
  app.addHook('preValidation', (request, reply, done) => {
    if (request.routeOptions.config.checksControlCharacters) return done();
    const refused =
      controlCharacterError(request.params) ??
      controlCharacterError(request.query) ??
      controlCharacterError(request.body);
    if (!refused) return done();
    // Answering without calling done() ends the request here.
    sendError(reply, refused, requestLocale(request.headers, request.cookies ?? {}));
  });
}

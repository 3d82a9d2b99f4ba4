/**
 * The one answer envelope of every gateway call (spec 7). Plain types, no schema library, so the
 * browser bundles stay small.
 */
export interface TEnvelope<T = unknown> {
  code: number;
  success: boolean;
  data: T;
  errorCode: number;
  message: string;
  /** Translation key of the message, so clients can re-translate. */
  messageKey?: string;
  /** Field-level problems for forms: field name -> translated message. */
  fields?: Record<string, string>;
}

/** The client's unwrapped shape (spec 7): code, succeed, Data and ErrorCode filled from the envelope. */
export interface TUnwrapped<T> {
  code: number;
  succeed: boolean;
  Data: T;
  ErrorCode: number;
  message: string;
  messageKey?: string;
  fields?: Record<string, string>;
}

export function unwrapEnvelope<T>(envelope: TEnvelope<T>): TUnwrapped<T> {
  return {
    code: envelope.errorCode,
    succeed: envelope.success,
    Data: envelope.data,
    ErrorCode: envelope.errorCode,
    message: envelope.message,
    ...(envelope.messageKey ? { messageKey: envelope.messageKey } : {}),
    ...(envelope.fields ? { fields: envelope.fields } : {}),
  };
}

/** Header that names the target route on `POST /gateway`. */
export const ROUTES_HEADER = 'routes';
/** Body field that names the broker (tenant) on gateway calls. */
export const HOSTSPECIFIC_FIELD = 'Hostspecific';
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_COOKIE = 'csrf';

import { z } from 'zod';

/** The one answer envelope of every gateway call (spec 7). */
export const ZEnvelope = z.object({
  code: z.number().int(),
  success: z.boolean(),
  data: z.unknown(),
  errorCode: z.number().int(),
  message: z.string(),
  /** Translation key of the message, so clients can re-translate. */
  messageKey: z.string().optional(),
  /** Field-level problems for forms: field name -> translation key. */
  fields: z.record(z.string(), z.string()).optional(),
});
export type TEnvelope<T = unknown> = Omit<z.infer<typeof ZEnvelope>, 'data'> & { data: T };

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

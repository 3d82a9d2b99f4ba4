import { CSRF_HEADER, type TEnvelope } from '@broker/contracts/envelope';
import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';

/**
 * The back office's HTTP layer: one POST per route of the contract, JSON in and out, the answer
 * envelope unwrapped. It knows no area: the route table (which calls exist, their paths and whether
 * they change state) is put together from the areas' route lists in `src/api.ts`, whose `callApi`
 * calls `callRoute` here.
 */
export interface TRoute {
  path: string;
  mutates: boolean;
}

export const CSRF_HEADER_NAME = CSRF_HEADER;
export const CSRF_COOKIE_NAME = 'admin_csrf';
export const LANGUAGE_HEADER_NAME = 'LanguageCode';
/** The session is missing or has ended. */
export const ERROR_TOKEN_INVALID = -1001;

export type TApiErrorKind = 'answer' | 'network' | 'http';

/** A failed call: `answer` carries the server's translated message; the others have none. */
export class ApiError extends Error {
  readonly kind: TApiErrorKind;
  readonly errorCode: number;
  readonly status: number;
  readonly messageKey: string | undefined;
  readonly fields: Record<string, string>;

  constructor(
    kind: TApiErrorKind,
    message: string,
    details: {
      errorCode?: number;
      status?: number;
      messageKey?: string;
      fields?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.errorCode = details.errorCode ?? 0;
    this.status = details.status ?? 0;
    this.messageKey = details.messageKey;
    this.fields = details.fields ?? {};
  }

  get unauthorized(): boolean {
    return this.errorCode === ERROR_TOKEN_INVALID;
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** A cookie's value from a `document.cookie` string. */
export function readCookie(name: string, cookies: string): string | null {
  for (const part of cookies.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

interface TClientState {
  locale: string;
  csrfToken: string | null;
  fetch: typeof fetch;
  cookies: () => string;
}

const state: TClientState = {
  locale: 'zh-CN',
  csrfToken: null,
  fetch: (...args) => globalThis.fetch(...args),
  cookies: () => (typeof document === 'undefined' ? '' : document.cookie),
};

const unauthorizedListeners = new Set<() => void>();

/** Sets the language sent with every call, the remembered CSRF token, or (tests) the transport. */
export function configureApi(options: Partial<TClientState>): void {
  Object.assign(state, options);
}

/** Called when a call other than sign-in answers that the session has ended. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function isEnvelope(value: unknown): value is TEnvelope {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.success === 'boolean' && typeof v.errorCode === 'number' && typeof v.message === 'string';
}

/** Calls one route; resolves with its `data`, or rejects with an ApiError. */
export async function callRoute<N extends TRouteName>(
  name: N,
  route: TRoute,
  input: TRouteInput<N>,
  options: { signal?: AbortSignal } = {},
): Promise<TRouteOutput<N>> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    [LANGUAGE_HEADER_NAME]: state.locale,
  };
  if (route.mutates) {
    const token = readCookie(CSRF_COOKIE_NAME, state.cookies()) ?? state.csrfToken;
    if (token) headers[CSRF_HEADER_NAME] = token;
  }
  let response: Response;
  try {
    response = await state.fetch(route.path, {
      method: 'POST',
      credentials: 'same-origin',
      headers,
      body: JSON.stringify(input ?? {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError('network', String(error));
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError('http', `HTTP ${response.status}`, { status: response.status });
  }
  if (!isEnvelope(body)) throw new ApiError('http', `HTTP ${response.status}`, { status: response.status });
  if (!body.success) {
    const error = new ApiError('answer', body.message, {
      errorCode: body.errorCode,
      status: response.status,
      ...(body.messageKey ? { messageKey: body.messageKey } : {}),
      ...(body.fields ? { fields: body.fields } : {}),
    });
    if (error.unauthorized && name !== 'adminlogin') for (const listener of unauthorizedListeners) listener();
    throw error;
  }
  return body.data as TRouteOutput<N>;
}

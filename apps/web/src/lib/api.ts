import { CSRF_HEADER, type TEnvelope, type TUnwrapped, unwrapEnvelope } from '@broker/contracts/envelope';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';
import { readCookie } from './cookies';

export const WEB_VERSION = '1';

/** Calls one gateway route with the common headers of spec 7 and unwraps the envelope. */
export async function callRoute<N extends TRouteName>(
  name: N,
  input: TRouteInput<N>,
  lang: string,
): Promise<TUnwrapped<TRouteOutput<N> | null>> {
  const path = ROUTE_PATHS[name];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    LanguageCode: lang,
    PreferredLanguageCode: navigator.language,
    'web-version': WEB_VERSION,
  };
  const csrf = readCookie('csrf');
  if (csrf) headers[CSRF_HEADER] = csrf;
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers,
      body: JSON.stringify(input),
      credentials: 'same-origin',
    });
    const envelope = (await response.json()) as TEnvelope<TRouteOutput<N> | null>;
    if (!response.ok) console.warn('request failed', path, response.status, envelope.errorCode);
    return unwrapEnvelope(envelope);
  } catch (error) {
    console.warn('Network Error', path, error);
    return { code: 0, succeed: false, Data: null, ErrorCode: 0, message: '', messageKey: 'errors.network' };
  }
}

/** A failed call, for code that works with promises of data (polling, Promise.all). */
export class RouteCallError extends Error {
  constructor(
    readonly code: number,
    readonly messageKey: string | undefined,
  ) {
    super(messageKey ?? `route call failed: ${code}`);
  }
}

/** The data of a route call, or a RouteCallError. */
export async function fetchData<N extends TRouteName>(
  name: N,
  input: TRouteInput<N>,
  lang: string,
): Promise<TRouteOutput<N>> {
  const answer = await callRoute(name, input, lang);
  if (!answer.succeed || answer.Data === null) throw new RouteCallError(answer.code, answer.messageKey);
  return answer.Data;
}

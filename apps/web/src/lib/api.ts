import type { TUnwrapped } from '@broker/contracts/envelope';
import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';
import { ensureIdentity, httpClient } from './client';

export const WEB_VERSION = '1';

/**
 * Calls one gateway route through the portal's HTTP layer (./http.ts: common headers of spec 7,
 * anonymous bearer, refresh on an invalid token) and unwraps the envelope. An aborted call
 * (`signal`, e.g. a long poll of a page that was left) answers like a network error. `trade` adds
 * the trade token (trading calls); `keepalive` lets the call outlive the page.
 */
export async function callRoute<N extends TRouteName>(
  name: N,
  input: TRouteInput<N>,
  _lang: string,
  {
    signal,
    trade = false,
    keepalive = false,
  }: { signal?: AbortSignal; trade?: boolean; keepalive?: boolean } = {},
): Promise<TUnwrapped<TRouteOutput<N> | null>> {
  if (trade) await ensureIdentity();
  return httpClient().call(name, input, { signal, trade, keepalive });
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

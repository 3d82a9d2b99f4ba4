import { type TEnvelope, type TUnwrapped, unwrapEnvelope } from '@broker/contracts/envelope';
import { ACCESS_TOKEN_CLIENT_MARGIN_SECONDS, WEB_OAUTH_CLIENT } from '@broker/contracts/oauth';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';

/** Where the client keeps its cookies; the browser's document.cookie in the app, a map in tests. */
export interface TCookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, maxAgeSeconds: number): void;
  remove(name: string): void;
}

export interface THttpClientOptions {
  fetch: typeof fetch;
  cookies: TCookieJar;
  lang(): string;
  preferredLanguage(): string;
  countryCode(): string | null;
  deviceType(): 'mobile' | 'desktop';
  fingerprint(): string;
  /** The signed-in trader and the session key for the trade-token request, when known. */
  userId(): string | null;
  cipherKey(): string | null;
  /** Test environment: the WebTest header is sent and the anonymous exchange skipped (spec 6). */
  webTest: boolean;
  now?(): number;
  log?(message: string, detail?: unknown): void;
}

interface TTradeToken {
  accessToken: string;
  accessExpire: number;
  refreshAfter: number;
}

export const AUTH_COOKIE = 'auth';
/** The result code of an invalid or expired token (see @broker/domain/result-codes). */
const TOKEN_INVALID = -1001;
export const WEB_VERSION_MAJOR = '1';

function base64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let text = '';
  for (const byte of view) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/**
 * The client's one HTTP layer (spec 7, 8): every common header; an anonymous bearer from the
 * OAuth2 exchange when there is none; the trade token, renewed after its refreshAfter time; on a
 * 401 the auth cookie is cleared, a new bearer then a new trade token are fetched once, however
 * many calls failed together, and the queued calls are retried; calls made during a refresh wait
 * for it. Network errors are only logged; other failures are logged and returned unwrapped.
 */
export class HttpClient {
  private refreshing: Promise<void> | null = null;
  private bearerFlight: Promise<string | null> | null = null;
  private trade: TTradeToken | null = null;
  private tradeFlight: Promise<TTradeToken | null> | null = null;
  /** How many anonymous exchanges and trade-token requests were made (for tests and metrics). */
  readonly stats = { exchanges: 0, tradeTokens: 0, refreshes: 0 };

  constructor(private readonly options: THttpClientOptions) {}

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  private commonHeaders(): Record<string, string> {
    const o = this.options;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      LanguageCode: o.lang(),
      PreferredLanguageCode: o.preferredLanguage(),
      'web-version': WEB_VERSION_MAJOR,
      BasicData: JSON.stringify({ deviceType: o.deviceType(), appType: 'web', fingerprint: o.fingerprint() }),
    };
    const country = o.countryCode();
    if (country) headers.CountryCode = country;
    if (o.webTest) headers.WebTest = '1';
    const csrf = o.cookies.get('csrf');
    if (csrf) headers['x-csrf-token'] = csrf;
    return headers;
  }

  /** The bearer from the auth cookie, or a new anonymous one (one exchange for concurrent callers). */
  private async bearer(): Promise<string | null> {
    const stored = this.options.cookies.get(AUTH_COOKIE);
    if (stored) return stored;
    if (this.options.webTest) return null;
    this.bearerFlight ??= this.exchange().finally(() => {
      this.bearerFlight = null;
    });
    return this.bearerFlight;
  }

  private async exchange(): Promise<string | null> {
    this.stats.exchanges++;
    const post = async (path: string, body: Record<string, string>) => {
      const response = await this.options.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path} ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    };
    try {
      const authorized = await post('/oauth2/authorize', {
        response_type: 'code',
        scope: WEB_OAUTH_CLIENT.scope,
        client_id: WEB_OAUTH_CLIENT.clientId,
        provision_key: WEB_OAUTH_CLIENT.provisionKey,
        authenticated_userid: this.options.fingerprint(),
      });
      const code = new URL(String(authorized.redirect_uri), 'http://local').searchParams.get('code') ?? '';
      const token = await post('/oauth2/token', {
        grant_type: 'authorization_code',
        client_id: WEB_OAUTH_CLIENT.clientId,
        client_secret: WEB_OAUTH_CLIENT.clientSecret,
        code,
      });
      const accessToken = String(token.access_token);
      const lifetime = Number(token.expires_in ?? 1200) - ACCESS_TOKEN_CLIENT_MARGIN_SECONDS;
      this.options.cookies.set(AUTH_COOKIE, accessToken, Math.max(lifetime, 60));
      return accessToken;
    } catch (error) {
      this.options.log?.('anonymous token exchange failed', error);
      return null;
    }
  }

  /** The trade token: renewed once refreshAfter has passed and the user id is known (spec 6). */
  private async tradeToken(): Promise<string | null> {
    if (this.trade && this.now() < this.trade.refreshAfter) return this.trade.accessToken;
    const userId = this.options.userId();
    const key = this.options.cipherKey();
    if (!userId || !key)
      return this.trade && this.now() < this.trade.accessExpire ? this.trade.accessToken : null;
    this.tradeFlight ??= this.requestTradeToken(userId, key).finally(() => {
      this.tradeFlight = null;
    });
    this.trade = (await this.tradeFlight) ?? this.trade;
    return this.trade?.accessToken ?? null;
  }

  private async requestTradeToken(userId: string, keyBase64: string): Promise<TTradeToken | null> {
    this.stats.tradeTokens++;
    const key = await crypto.subtle.importKey('raw', fromBase64(keyBase64), 'AES-GCM', false, ['encrypt']);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const cipher = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv },
      key,
      new TextEncoder().encode(`${userId}trade`),
    );
    // Part of a refresh: must not wait for the refresh it belongs to, nor start another.
    const answer = await this.send<TTradeToken>(
      ROUTE_PATHS.tradetoken,
      { cipher_text: base64(cipher), iv_key: base64(iv) },
      { withTrade: false, internal: true },
    );
    return answer.succeed ? answer.Data : null;
  }

  /** Clears the auth cookie, then gets a new bearer and trade token, once for all waiting calls. */
  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      this.stats.refreshes++;
      this.options.cookies.remove(AUTH_COOKIE);
      this.trade = null;
      await this.bearer();
      await this.tradeToken();
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async send<T>(
    path: string,
    body: unknown,
    {
      withTrade,
      retried = false,
      internal = false,
      signal,
      keepalive = false,
    }: {
      withTrade: boolean;
      retried?: boolean;
      internal?: boolean;
      signal?: AbortSignal | undefined;
      /** Outlives the page (a save sent as the trader leaves or reloads). */
      keepalive?: boolean;
    },
  ): Promise<TUnwrapped<T | null>> {
    if (this.refreshing && !internal) await this.refreshing;
    const headers = this.commonHeaders();
    const bearer = await this.bearer();
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    if (withTrade) {
      const trade = await this.tradeToken();
      if (trade) headers.tradetoken = trade;
    }
    let response: Response;
    try {
      response = await this.options.fetch(path, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        credentials: 'same-origin',
        ...(signal ? { signal } : {}),
        ...(keepalive ? { keepalive } : {}),
      });
    } catch (error) {
      if (!signal?.aborted) this.options.log?.('Network Error', { path, error });
      return { code: 0, succeed: false, Data: null, ErrorCode: 0, message: '', messageKey: 'errors.network' };
    }
    let envelope: TEnvelope<T | null>;
    try {
      envelope = (await response.json()) as TEnvelope<T | null>;
    } catch {
      this.options.log?.('non-JSON answer', { path, status: response.status });
      return {
        code: response.status,
        succeed: false,
        Data: null,
        ErrorCode: response.status,
        message: '',
        messageKey: 'errors.-9999',
      };
    }
    // Only a refused bearer (RFC 6750 challenge) refreshes: a wrong password or a missing session
    // (also 401) must not be sent twice nor mint anonymous tokens.
    if (
      response.status === 401 &&
      envelope.errorCode === TOKEN_INVALID &&
      /invalid_token/.test(response.headers.get('www-authenticate') ?? '') &&
      !retried &&
      !internal
    ) {
      await this.refresh();
      return this.send<T>(path, body, { withTrade, retried: true, signal });
    }
    if (response.status !== 200)
      this.options.log?.('request failed', { path, status: response.status, errorCode: envelope.errorCode });
    return unwrapEnvelope(envelope);
  }

  /** Calls a route of the catalogue by its short name. */
  call<N extends TRouteName>(
    name: N,
    input: TRouteInput<N>,
    options: { trade?: boolean; signal?: AbortSignal | undefined; keepalive?: boolean } = {},
  ): Promise<TUnwrapped<TRouteOutput<N> | null>> {
    return this.send<TRouteOutput<N>>(ROUTE_PATHS[name], input, {
      withTrade: options.trade ?? false,
      signal: options.signal,
      keepalive: options.keepalive ?? false,
    });
  }
}

import { readCookie, removeCookie, userInfoFromCookie, writeCookie } from './cookies';
import { HttpClient } from './http';

const FINGERPRINT_KEY = 'fp';
const IDENTITY_KEY = 'identity';

let fingerprintValue: string | null = null;
/**
 * A stable random id of this browser (BasicData fingerprint, anonymous token subject), kept in
 * localStorage and read from it once per page (every request sends it).
 */
function fingerprint(): string {
  if (fingerprintValue) return fingerprintValue;
  try {
    let value = localStorage.getItem(FINGERPRINT_KEY);
    if (!value) {
      value = crypto.randomUUID();
      localStorage.setItem(FINGERPRINT_KEY, value);
    }
    fingerprintValue = value;
    return value;
  } catch {
    return 'no-storage';
  }
}

let phoneQuery: MediaQueryList | null = null;

const languageOfPath = () => window.location.pathname.split('/')[1] || 'zh-CN';

interface TIdentity {
  userId: string;
  cipherKey: string;
}

let identity: TIdentity | null = null;

function storedIdentity(): TIdentity | null {
  if (identity) return identity;
  try {
    const raw = sessionStorage.getItem(IDENTITY_KEY);
    identity = raw ? (JSON.parse(raw) as TIdentity) : null;
  } catch {
    identity = null;
  }
  return identity;
}

/** Keeps the signed-in user id and the session's cipher key for trade-token requests (this tab only). */
export function rememberIdentity(value: TIdentity | null) {
  const signedIn = value !== null && value.userId !== storedIdentity()?.userId;
  identity = value;
  // Spec 7.2: a new sign-in tells the server the trader's language and country (the country cookie
  // the server set with the session, ISO numeric). Its answer changes nothing here.
  if (signedIn) {
    const countryCode = readCookie('country');
    void httpClient()
      .call('userlogin', {
        user_id: value.userId,
        languageCode: languageOfPath(),
        ...(countryCode ? { countryCode } : {}),
      })
      .catch(() => undefined);
  }
  try {
    if (value) sessionStorage.setItem(IDENTITY_KEY, JSON.stringify(value));
    else sessionStorage.removeItem(IDENTITY_KEY);
  } catch {
    // private mode: kept in memory only
  }
}

let client: HttpClient | null = null;

/** The portal's one HTTP layer (see ./http.ts), created on first use in the browser. */
export function httpClient(): HttpClient {
  client ??= new HttpClient({
    fetch: (input, init) => window.fetch(input, init),
    cookies: {
      get: (name) => readCookie(name),
      set: (name, value, maxAge) => writeCookie(name, value, maxAge),
      remove: (name) => removeCookie(name),
    },
    lang: languageOfPath,
    preferredLanguage: () => navigator.language,
    countryCode: () => readCookie('country') ?? null,
    deviceType: () => {
      phoneQuery ??= window.matchMedia('(max-width: 768px)');
      return phoneQuery.matches ? 'mobile' : 'desktop';
    },
    fingerprint,
    userId: () => (userInfoFromCookie() ? (storedIdentity()?.userId ?? null) : null),
    cipherKey: () => (userInfoFromCookie() ? (storedIdentity()?.cipherKey ?? null) : null),
    webTest: import.meta.env.VITE_WEB_TEST === '1',
    log: (message, detail) => console.warn(message, detail),
  });
  return client;
}

/** The signed-in user id and session cipher key (after ensureIdentity). */
export function currentIdentity(): TIdentity | null {
  return userInfoFromCookie() ? storedIdentity() : null;
}

/**
 * Makes sure the trade-token inputs are known for a signed-in user (a new tab, a reload):
 * asks userinfo once and remembers the answer.
 */
export async function ensureIdentity(): Promise<boolean> {
  if (!userInfoFromCookie()) {
    rememberIdentity(null);
    return false;
  }
  if (storedIdentity()) return true;
  const answer = await httpClient().call('userinfo', {});
  if (!answer.succeed || !answer.Data?.cipherKey) return false;
  rememberIdentity({ userId: answer.Data.userId, cipherKey: answer.Data.cipherKey });
  return true;
}

/** Browser cookie helpers; the server reads the same names. */

/** The cookies of a `Cookie` header or of `document.cookie`, by name (the first of a name wins). */
function parseCookies(source: string): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of source.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    if (jar.has(key)) continue;
    const raw = part.slice(at + 1);
    try {
      jar.set(key, decodeURIComponent(raw));
    } catch {
      jar.set(key, raw);
    }
  }
  return jar;
}

/**
 * The page's cookies, read from `document.cookie` once per run of the page's code: every request
 * reads four or five of them (bearer, CSRF token, country, user), and the terminal's hydration
 * starts a dozen requests, so reading and splitting the whole cookie string each time was a fifth of
 * that task (issue 21, item 14). The copy is dropped at the next microtask checkpoint and whenever
 * this module writes a cookie, so a later read sees cookies the server or another tab set since.
 */
let pageJar: Map<string, string> | null = null;
function pageCookies(): Map<string, string> {
  if (pageJar) return pageJar;
  const jar = parseCookies(document.cookie);
  pageJar = jar;
  queueMicrotask(() => {
    if (pageJar === jar) pageJar = null;
  });
  return jar;
}

/** A cookie of `source` (a `Cookie` header), or of the page when none is given. */
export function readCookie(name: string, source?: string): string | undefined {
  if (source !== undefined) return parseCookies(source).get(name);
  if (typeof document === 'undefined') return undefined;
  return pageCookies().get(name);
}

export function writeCookie(name: string, value: string, maxAgeSeconds: number) {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Safari and Firefox
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax`;
  pageJar = null;
}

export function removeCookie(name: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Safari and Firefox
  document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
  pageJar = null;
}

/** The user-info cookie (spec 4): a user is signed in when it holds a name. */
export function userInfoFromCookie(source?: string): { name: string } | null {
  const raw = readCookie('userInfo', source);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { name?: unknown };
    return typeof parsed.name === 'string' && parsed.name ? { name: parsed.name } : null;
  } catch {
    return null;
  }
}

/** The public base of the back office; router paths are relative to it. */
export const ADMIN_BASE = '/admin';

/** Router path of a menu path: `/admin/users` -> `/users`, `/admin` -> `/`. */
export function routerPath(adminPath: string): string {
  if (adminPath === ADMIN_BASE) return '/';
  return adminPath.startsWith(`${ADMIN_BASE}/`) ? adminPath.slice(ADMIN_BASE.length) : adminPath;
}

/** The sign-in page address for a router location, remembering where the user was going. */
export function loginPathFor(routerLocation: string): string {
  const target =
    routerLocation === '/' || routerLocation === '' ? ADMIN_BASE : `${ADMIN_BASE}${routerLocation}`;
  if (routerLocation.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(target)}`;
}

/**
 * Where to go after signing in: the `redirect` parameter when it is a back-office address (never
 * another site, never the sign-in page), as a router path; otherwise the dashboard.
 */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw?.startsWith(ADMIN_BASE)) return '/';
  const rest = raw.slice(ADMIN_BASE.length);
  if (rest === '') return '/';
  if (rest.startsWith('?') || rest.startsWith('#')) return `/${rest}`;
  if (!rest.startsWith('/') || rest.startsWith('//') || rest.includes('\\')) return '/';
  if (
    rest === '/login' ||
    rest.startsWith('/login?') ||
    rest.startsWith('/login/') ||
    rest.startsWith('/login#')
  )
    return '/';
  return rest;
}

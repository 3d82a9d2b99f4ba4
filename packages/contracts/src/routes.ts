import { z } from 'zod';
import { ROUTE_PATHS } from './route-paths';

/**
 * Who may call a route: anyone, a signed-in trader, or a signed-in back-office staff member
 * holding the named permission.
 */
export type TRouteAccess =
  | { kind: 'public' }
  | { kind: 'user' }
  | { kind: 'staff'; permission: string | null };

export interface TRouteDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** The short route name used in the `Routes` header. */
  name: string;
  /** The `/api/v1/...` path. */
  path: string;
  access: TRouteAccess;
  input: I;
  output: O;
  /** True for calls that change state; they need the CSRF token when made with a cookie session. */
  mutates: boolean;
  summary: string;
}

const define = <I extends z.ZodType, O extends z.ZodType>(route: TRouteDefinition<I, O>) => route;
const empty = z.object({}).passthrough();

export const ZCountryEntry = z.object({
  countryCode: z.string(),
  twoCharCode: z.string(),
  code: z.string(),
  codes: z.array(z.string()),
  name: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  flag: z.string(),
  'flag-c': z.string(),
});

export const ZLocaleEntry = z.object({
  code: z.string(),
  iso: z.string(),
  name: z.string(),
  file: z.string(),
});

export const ZStaffProfile = z.object({
  staffId: z.string(),
  username: z.string(),
  displayName: z.string(),
  tenantId: z.string(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
});

export const ZUserProfile = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
});

export const ZSessionAnswer = z.object({
  csrfToken: z.string(),
  expiresAt: z.string(),
});

export const routeCatalogue = {
  countrylist: define({
    name: 'countrylist',
    path: ROUTE_PATHS.countrylist,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Country calling-code reference list grouped A to Z',
    input: z.object({ list: z.enum(['zh', 'en']).optional() }).passthrough(),
    output: z.array(z.object({ name: z.string(), data: z.array(ZCountryEntry) })),
  }),
  localelist: define({
    name: 'localelist',
    path: ROUTE_PATHS.localelist,
    access: { kind: 'public' },
    mutates: false,
    summary: 'The sixteen languages with routes',
    input: empty,
    output: z.array(ZLocaleEntry),
  }),
  legaldoc: define({
    name: 'legaldoc',
    path: ROUTE_PATHS.legaldoc,
    access: { kind: 'public' },
    mutates: false,
    summary: 'A legal text (privacy, Google privacy variant, terms of use) as HTML',
    input: z.object({ lang: z.string().max(8), name: z.enum(['privacy', 'privacy-google', 'termsofuse']) }),
    output: z.object({ html: z.string(), translated: z.boolean(), title: z.string() }),
  }),
  login: define({
    name: 'login',
    path: ROUTE_PATHS.login,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Trader sign-in with email or phone number, and password',
    input: z.union([
      z.object({ email: z.string().trim().toLowerCase().email(), password: z.string().min(1).max(128) }),
      z.object({
        phone: z.object({
          twoCharCode: z.string().regex(/^[A-Z]{2}$/),
          number: z.string().trim().min(1).max(32),
        }),
        password: z.string().min(1).max(128),
      }),
    ]),
    output: ZSessionAnswer.extend({ user: ZUserProfile }),
  }),
  logout: define({
    name: 'logout',
    path: ROUTE_PATHS.logout,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Ends the trader session and clears its cookies',
    input: empty,
    output: z.object({ ok: z.literal(true) }),
  }),
  userinfo: define({
    name: 'userinfo',
    path: ROUTE_PATHS.userinfo,
    access: { kind: 'user' },
    mutates: false,
    summary: 'The signed-in trader',
    input: empty,
    output: ZUserProfile,
  }),
  adminlogin: define({
    name: 'adminlogin',
    path: ROUTE_PATHS.adminlogin,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Back-office staff sign-in',
    input: z.object({
      username: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9]{3,32}$/, 'usernameFormat'),
      password: z.string().min(5, 'passwordTooShort').max(128),
    }),
    output: ZSessionAnswer.extend({ staff: ZStaffProfile }),
  }),
  adminlogout: define({
    name: 'adminlogout',
    path: ROUTE_PATHS.adminlogout,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Ends the staff session',
    input: empty,
    output: z.object({ ok: z.literal(true) }),
  }),
  adminme: define({
    name: 'adminme',
    path: ROUTE_PATHS.adminme,
    access: { kind: 'staff', permission: null },
    mutates: false,
    summary: 'The signed-in staff member with roles and permissions',
    input: empty,
    output: ZStaffProfile.extend({ csrfToken: z.string() }),
  }),
  adminoverview: define({
    name: 'adminoverview',
    path: ROUTE_PATHS.adminoverview,
    access: { kind: 'staff', permission: 'statistics.view' },
    mutates: false,
    summary: 'Head counts for the back-office dashboard',
    input: empty,
    output: z.object({
      tenants: z.number().int(),
      users: z.number().int(),
      staff: z.number().int(),
      pageViewsToday: z.number().int(),
    }),
  }),
} as const;

export type TRouteCatalogue = typeof routeCatalogue;
export type TRouteName = keyof TRouteCatalogue;
export type TRouteInput<N extends TRouteName> = z.input<TRouteCatalogue[N]['input']>;
export type TRouteOutput<N extends TRouteName> = z.infer<TRouteCatalogue[N]['output']>;

export const routeList: readonly TRouteDefinition[] = Object.values(routeCatalogue);

export function routeByName(name: string): TRouteDefinition | undefined {
  return (routeCatalogue as Record<string, TRouteDefinition>)[name.toLowerCase()];
}

export function routeByPath(path: string): TRouteDefinition | undefined {
  return routeList.find((route) => route.path === path);
}

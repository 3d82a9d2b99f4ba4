import type { TRouteDefinition } from './route-kit';

/**
 * How often a route may be called: at most `max` calls per `seconds`, counted per client address
 * (`address`, the address the configured proxy trust yields) or per signed-in trader or staff
 * member (`subject`). The gateway counts and checks each call in one atomic step before the
 * handler runs and answers -9003 past the limit. Counts are per broker.
 */
export interface TRouteLimit {
  by: 'address' | 'subject';
  max: number;
  seconds: number;
}

const perAddress = (max: number, seconds: number): TRouteLimit => ({ by: 'address', max, seconds });
const perSubject = (max: number, seconds: number): TRouteLimit => ({ by: 'subject', max, seconds });

/** A public call without its own entry: reads that pages and the terminal make often. */
export const DEFAULT_PUBLIC_LIMIT: TRouteLimit = perAddress(600, 60);

/**
 * Limits of the calls that check a credential (password, code, authenticator code, captcha) or
 * that an anonymous caller could use to flood storage or probe for accounts. A unit test walks
 * the catalogue: every public call that changes state and every call whose input carries a
 * credential must be listed here.
 */
export const ROUTE_LIMITS: Readonly<Record<string, readonly TRouteLimit[]>> = {
  captcha: [perAddress(30, 60)],
  sendcode: [perAddress(20, 600)],
  register: [perAddress(20, 600)],
  forgetpassword: [perAddress(10, 60)],
  phonelogin: [perAddress(20, 60)],
  emailregistered: [perAddress(30, 60)],
  phoneregistered: [perAddress(30, 60)],
  login: [perAddress(20, 60)],
  logout: [perAddress(60, 60)],
  qrticket: [perAddress(30, 60)],
  qrstatus: [perAddress(120, 60)],
  unionstart: [perAddress(30, 60)],
  save_token: [perSubject(20, 60)],
  trans_token: [perAddress(20, 60)],
  adminlogin: [perAddress(20, 60)],
  adminlogout: [perAddress(60, 60)],
  adminenrolstart: [perAddress(20, 60)],
  adminenrolconfirm: [perAddress(20, 60)],
  feedback: [perAddress(10, 3600)],
  // Credential checks inside a session: also counted against the account's lockout.
  changepassword: [perSubject(10, 600)],
  totpenable: [perSubject(10, 600)],
  totpdisable: [perSubject(10, 600)],
  bindcontact: [perSubject(10, 600)],
  qrconfirm: [perSubject(30, 60)],
  adminmypassword: [perSubject(10, 600)],
  adminmytotpenable: [perSubject(10, 600)],
  adminmytotpdisable: [perSubject(10, 600)],
  // Money: the funding password is a credential; requests that move money are counted per trader.
  withdrawcreate: [perSubject(20, 600)],
  fundpassword: [perSubject(10, 600)],
  cancellate: [perSubject(10, 600)],
  depositcreate: [perSubject(30, 600)],
  certification: [perSubject(10, 3600)],
  seniorauth: [perSubject(10, 3600)],
  // Copy trading: the what-if replays 90 days of a leader's trades (the dialog asks as fields change,
  // debounced); applications and new copies are rare for a person.
  followwhatif: [perSubject(60, 60)],
  followapply: [perSubject(10, 3600)],
  followstart: [perSubject(30, 600)],
  // Strategy bots: the preview runs the bot on a scratch engine (two walks of 400 steps).
  strategypreview: [perSubject(60, 60)],
  strategybacktest: [perSubject(20, 60)],
  strategycreate: [perSubject(30, 600)],
  // Each edit of a drawing saves the symbol's list: generous for a person, bounded for a script.
  chartdrawingssave: [perSubject(240, 60)],
  // The terminal saves the layout a moment after the trader stops changing it (debounced).
  chartlayoutsave: [perSubject(120, 60)],
  // Price alerts: a person makes a few a minute; the active ones are capped at 50 besides.
  alertcreate: [perSubject(120, 60)],
  alertupdate: [perSubject(240, 60)],
  alertrearm: [perSubject(120, 60)],
};

/** The limits the gateway applies to a route: its own, else the default of public calls. */
export function limitsOf(route: Pick<TRouteDefinition, 'name' | 'access'>): readonly TRouteLimit[] {
  return ROUTE_LIMITS[route.name] ?? (route.access.kind === 'public' ? [DEFAULT_PUBLIC_LIMIT] : []);
}

/** One typed registry of the portal's pages: the router and the menus read it. */
export const PERSONAL_CENTER_SECTIONS = [
  'account',
  'deposit',
  'withdrawal',
  'history',
  'platform',
  'setting',
  'financial',
] as const;
export type TPersonalCenterSection = (typeof PERSONAL_CENTER_SECTIONS)[number];

/** The tabs of the settings section; the first one is the section's own address. */
export const SETTINGS_TABS = ['preferences', 'security', 'profile', 'verification', 'feedback'] as const;
export type TSettingsTab = (typeof SETTINGS_TABS)[number];

/** Account type of a demo account (spec 3). */
export const DEMO_ACCOUNT_TYPE = 1;

export const paths = {
  home: (lang: string) => `/${lang}`,
  qrcode: (lang: string) => `/${lang}/qrcodePage`,
  markets: (lang: string) => `/${lang}/markets`,
  symbol: (lang: string, symbol: string) => `/${lang}/markets/${encodeURIComponent(symbol)}`,
  converter: (lang: string) => `/${lang}/converter`,
  trade: (lang: string) => `/${lang}/trade`,
  privacy: (lang: string) => `/${lang}/h5/privacy`,
  privacyGoogle: (lang: string) => `/${lang}/h5/privacy-google`,
  terms: (lang: string) => `/${lang}/h5/termsofuse`,
  login: (lang: string, redirect?: string) =>
    `/${lang}/login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`,
  register: (lang: string, redirect?: string) =>
    `/${lang}/register${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`,
  forgotPassword: (lang: string) => `/${lang}/forgotPassword`,
  qrConfirm: (lang: string, ticket: string) => `/${lang}/qrConfirm?ticket=${encodeURIComponent(ticket)}`,
  personalCenter: (lang: string, section: TPersonalCenterSection | 'account/create' | 'account/success') =>
    `/${lang}/personalCenter/${section}`,
  /** The account form with the demo account chosen: where a new trader lands after registering. */
  openDemo: (lang: string) => `/${lang}/personalCenter/account/create?type=${DEMO_ACCOUNT_TYPE}`,
  settings: (lang: string, tab: TSettingsTab = 'preferences') =>
    `/${lang}/personalCenter/setting${tab === 'preferences' ? '' : `/${tab}`}`,
  error: (lang: string) => `/${lang}/error`,
  /** Copy trading (issue 18): leader discovery, a leader's page, the trader's copies, the leader dashboard. */
  copyTrading: (lang: string, query?: URLSearchParams) => {
    const search = query?.toString();
    return `/${lang}/copyTrading${search ? `?${search}` : ''}`;
  },
  copyLeader: (lang: string, leaderId: number) => `/${lang}/copyTrading/${leaderId}`,
  myCopies: (lang: string) => `/${lang}/copyTrading/mine`,
  leadDashboard: (lang: string) => `/${lang}/copyTrading/lead`,
  /** Strategy bots (issue 19): the trader's bots, the create form, one bot. */
  strategies: (lang: string) => `/${lang}/strategies`,
  newStrategy: (lang: string) => `/${lang}/strategies/new`,
  strategy: (lang: string, id: number) => `/${lang}/strategies/${id}`,
};

/**
 * Where "Open an account" and "Try a free demo" lead (issue 21, item 12): a visitor to registration,
 * which then opens the demo account form (`paths.openDemo`); a signed-in trader to their accounts.
 */
export function wayIn(lang: string, signedIn: boolean): string {
  return signedIn ? paths.personalCenter(lang, 'account') : paths.register(lang);
}

/**
 * The side-menu entry active for a personal-centre path: the first segment after the centre, so
 * account stays active for its create and success pages and setting for its tabs.
 */
export function activeSection(pathname: string): TPersonalCenterSection | null {
  const match = pathname.match(/\/personalCenter\/([^/?#]+)/);
  const section = match?.[1];
  return PERSONAL_CENTER_SECTIONS.find((s) => s === section) ?? null;
}

/** Replaces the language segment of a path (spec 2.3 language switch). */
export function switchLanguagePath(pathname: string, lang: string): string {
  const parts = pathname.split('/');
  parts[1] = lang;
  return parts.join('/') || `/${lang}`;
}

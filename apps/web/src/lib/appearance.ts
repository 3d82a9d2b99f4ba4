import type { TKlineColor } from '@broker/domain/kline-color';
import { THEME_COLOR, THEMES, type TTheme, themeOf } from '@broker/ui/themes.ts';
import { callRoute } from './api';
import { readCookie, writeCookie } from './cookies';

/**
 * The look the trader chose, applied at once on every page of every open tab. The server renders
 * the first page from the `theme` and `klineColor` cookies (it sets them when settings are saved,
 * the portal when a trader signs in): `<html data-theme data-kline>` and the browser bar's colour;
 * afterwards this store is the browser's one source of truth, so a change shows without a reload.
 */
export { THEMES, type TTheme };

export interface TAppearance {
  theme: TTheme;
  klineColor: TKlineColor;
}

const CHANNEL = 'broker-appearance';
const COOKIE_MAX_AGE = 365 * 24 * 3600;
const listeners = new Set<() => void>();
/** A kline colour chosen in this tab that the cookie may not hold yet (saving, or rolled back). */
let klineColor: TKlineColor | null = null;
let channel: BroadcastChannel | null = null;

function notify() {
  for (const listener of listeners) listener();
}

function setTheme(theme: TTheme) {
  const root = document.documentElement;
  if (root.dataset.theme === theme) return;
  root.dataset.theme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLOR[theme]);
}

function apply(appearance: Partial<TAppearance>) {
  if (appearance.theme) setTheme(appearance.theme);
  if (appearance.klineColor !== undefined && appearance.klineColor !== klineColor) {
    klineColor = appearance.klineColor;
    // Rise and fall of everything outside a market scope (site.css) follow the root's attribute.
    document.documentElement.dataset.kline = String(klineColor);
    notify();
  }
}

/** Other tabs of this browser apply a saved change as it happens. */
function connect(): BroadcastChannel | null {
  if (channel || typeof window === 'undefined' || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<Partial<TAppearance>>) => apply(event.data);
  return channel;
}
// Every page listens, also those without a chart or quote, so the theme follows in every tab.
connect();

export function subscribeAppearance(listener: () => void): () => void {
  connect();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The kline colour chosen in this browser session, or null to read the cookie. */
export function chosenKlineColor(): TKlineColor | null {
  return klineColor;
}

/** The current theme: the attribute the server rendered or the last change. */
export function currentTheme(): TTheme {
  return themeOf(document.documentElement.dataset.theme);
}

/**
 * Shows an appearance on this page at once (before the server confirms, and again to roll back).
 * `saved` also tells the other open tabs, once the server has stored it and set the cookies.
 */
export function showAppearance(appearance: Partial<TAppearance>, options: { saved?: boolean } = {}) {
  apply(appearance);
  if (options.saved) connect()?.postMessage(appearance);
}

/**
 * Takes the trader's stored appearance as the browser's: the kline colour default of the trader's
 * country is only known to the server, and the cookies may still hold another trader's choice.
 */
export function adoptStoredAppearance(appearance: TAppearance) {
  if (readCookie('theme') !== appearance.theme) writeCookie('theme', appearance.theme, COOKIE_MAX_AGE);
  if (readCookie('klineColor') !== String(appearance.klineColor))
    writeCookie('klineColor', String(appearance.klineColor), COOKIE_MAX_AGE);
  apply(appearance);
}

/**
 * Reads the signed-in trader's stored theme and kline colour into the cookies, so that every page the
 * server renders from now on has them from its first byte (no flip after hydration). Called once a
 * trader has signed in or registered, before the next page loads, and by the shell when a signed-in
 * browser has no `klineColor` cookie yet (a sign-in by another provider). A failed call changes nothing.
 */
export async function adoptTraderAppearance(lang: string): Promise<void> {
  try {
    const answer = await callRoute('settings', {}, lang);
    if (answer.succeed && answer.Data)
      adoptStoredAppearance({ theme: answer.Data.theme, klineColor: answer.Data.klineColor });
  } catch {
    // The cookies keep the defaults of the country; the settings page saves them again.
  }
}

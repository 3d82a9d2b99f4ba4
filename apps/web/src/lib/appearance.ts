import type { TKlineColor } from '@broker/domain/kline-color';
import { readCookie, writeCookie } from './cookies';

/**
 * The look the trader chose, applied at once on every page of every open tab. The server renders
 * the first page from the `theme` and `klineColor` cookies (it sets them when settings are saved);
 * afterwards this store is the browser's one source of truth, so a change shows without a reload.
 */
export const THEMES = ['navy', 'dark', 'white'] as const;
export type TTheme = (typeof THEMES)[number];

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
  const background = getComputedStyle(root).getPropertyValue('--bg').trim();
  if (background) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', background);
}

function apply(appearance: Partial<TAppearance>) {
  if (appearance.theme) setTheme(appearance.theme);
  if (appearance.klineColor !== undefined && appearance.klineColor !== klineColor) {
    klineColor = appearance.klineColor;
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
  const theme = document.documentElement.dataset.theme;
  return THEMES.find((t) => t === theme) ?? 'navy';
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

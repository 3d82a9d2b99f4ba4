import type { TKlineColor } from '@broker/domain/kline-color';
import type { TCatalog } from '@broker/i18n/translator';

/** What the server renderer hands the browser, so hydration needs no second fetch. */
export interface TBootData {
  lang: string;
  /** The messages the page's server render used, or the whole catalog when `catalogHref` is absent. */
  catalog: TCatalog;
  /** The language's whole catalog, fetched after the first paint. */
  catalogHref?: string;
  device: 'mobile' | 'desktop';
  user: { name: string } | null;
  pseudo: boolean;
  /** The kline colour the page was rendered with (`<html data-kline>`), so hydration keeps it. */
  klineColor: TKlineColor;
}

declare global {
  interface Window {
    __BOOT__?: TBootData;
  }
}

/** JSON safe to place inside a <script> element. */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

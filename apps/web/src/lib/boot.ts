import type { TCatalog } from '@broker/i18n/translator';

/** What the server renderer hands the browser, so hydration needs no second fetch. */
export interface TBootData {
  lang: string;
  catalog: TCatalog;
  device: 'mobile' | 'desktop';
  user: { name: string } | null;
  pseudo: boolean;
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

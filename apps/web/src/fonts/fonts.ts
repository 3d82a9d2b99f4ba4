/**
 * The stylesheet of @font-face rules each page language needs (issue 21, item 9): one Vite entry per
 * Noto family (vite.config.ts), linked by the server renderer for the page's language only. The
 * font stacks that use them are in stacks.css.
 */
export const FONT_ENTRIES = {
  'noto-sans': 'src/fonts/noto-sans.css',
  'noto-sans-jp': 'src/fonts/noto-sans-jp.css',
  'noto-sans-kr': 'src/fonts/noto-sans-kr.css',
  'noto-sans-tc': 'src/fonts/noto-sans-tc.css',
  'noto-sans-sc': 'src/fonts/noto-sans-sc.css',
  'noto-sans-thai': 'src/fonts/noto-sans-thai.css',
  'noto-sans-devanagari': 'src/fonts/noto-sans-devanagari.css',
} as const;
export type TFontEntry = keyof typeof FONT_ENTRIES;

const BY_LANGUAGE: Readonly<Record<string, TFontEntry>> = {
  ja: 'noto-sans-jp',
  ko: 'noto-sans-kr',
  zh: 'noto-sans-tc',
  'zh-CN': 'noto-sans-sc',
  th: 'noto-sans-thai',
  hi: 'noto-sans-devanagari',
};

/** The font entry of a route language: its own script's family, else Noto Sans (Latin, Cyrillic, Vietnamese). */
export function fontEntryFor(lang: string): TFontEntry {
  return BY_LANGUAGE[lang] ?? 'noto-sans';
}

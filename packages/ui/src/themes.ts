/** The three themes of spec 4; theme.css holds the tokens of each under `[data-theme="…"]`. */
export const THEMES = ['navy', 'dark', 'white'] as const;
export type TTheme = (typeof THEMES)[number];
export const DEFAULT_THEME: TTheme = 'navy';

/**
 * The colour of the browser's bar for each theme (`<meta name="theme-color">`): the theme's `--bg`
 * token in theme.css (packages/ui/test/theme-contrast.test.ts keeps the two the same).
 */
export const THEME_COLOR: Record<TTheme, string> = {
  navy: '#0b1530',
  dark: '#0d0f14',
  white: '#f5f7fb',
};

/** The theme of a `theme` cookie value; anything else is the default theme. */
export function themeOf(value: string | null | undefined): TTheme {
  return THEMES.find((theme) => theme === value) ?? DEFAULT_THEME;
}

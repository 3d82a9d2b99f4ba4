import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  contrastRatio,
  MIN_CONTRAST_TEXT,
  parseColor,
  themeContrastFailures,
  themeContrastPairs,
} from '@broker/domain/contrast';
import { describe, expect, it } from 'vitest';
import { THEME_COLOR, THEMES, themeOf } from '../src/themes.ts';

const css = readFileSync(join(import.meta.dirname, '../src/theme.css'), 'utf8');

/**
 * The custom properties that reach <html data-theme="…"> from theme.css: the declarations of every
 * rule whose selector list holds `:root` or the theme's attribute selector, in source order (the
 * selectors have equal specificity, so the later declaration wins, as in the browser).
 */
function themeTokens(source: string, theme: string): Record<string, string> {
  const tokens: Record<string, string> = {};
  const rules = source.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{([^{}]*)\}/g);
  for (const [, selectorText = '', body = ''] of rules) {
    const selectors = selectorText.split(',').map((s) => s.trim().replace(/'/g, '"'));
    if (!selectors.some((s) => s === ':root' || s === `[data-theme="${theme}"]`)) continue;
    for (const declaration of body.split(';')) {
      const match = /^\s*(--[\w-]+)\s*:\s*([\s\S]+?)\s*$/.exec(declaration);
      if (match) tokens[match[1] as string] = (match[2] as string).replace(/\s+/g, ' ');
    }
  }
  return tokens;
}

describe('WCAG contrast ratio', () => {
  it('matches the reference values', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The failures that issue 21 measured with axe-core (which cuts the ratio to two decimals).
    expect(Math.floor(contrastRatio('#6d7ba3', '#111d3d') * 100) / 100).toBe(3.95);
    expect(Math.floor(contrastRatio('#ffffff', '#2f6bff') * 100) / 100).toBe(4.49);
    expect(Math.floor(contrastRatio('#ffffff', '#16b979') * 100) / 100).toBe(2.54);
    expect(Math.floor(contrastRatio('#2f6bff', '#111d3d') * 100) / 100).toBe(3.68);
  });

  it('reads hex and rgb() colours and lays a translucent one over the background', () => {
    expect(parseColor('#0b1530')).toEqual({ r: 11, g: 21, b: 48, a: 1 });
    expect(parseColor('#fff')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseColor('rgb(11 21 48 / 0.86)')).toEqual({ r: 11, g: 21, b: 48, a: 0.86 });
    expect(parseColor('rgba(255, 0, 0, 0.5)')).toEqual({ r: 255, g: 0, b: 0, a: 0.5 });
    expect(parseColor('#ff000080')?.a).toBeCloseTo(0.5, 2);
    expect(parseColor('var(--brand)')).toBeNull();
    expect(parseColor('color-mix(in srgb, red 10%, blue)')).toBeNull();
    // Half-transparent black on white is mid grey.
    expect(contrastRatio('rgb(0 0 0 / 0.5)', '#ffffff')).toBeCloseTo(contrastRatio('#808080', '#ffffff'), 1);
    expect(() => contrastRatio('#fff', 'rgb(0 0 0 / 0.5)')).toThrow(/opaque/);
  });
});

describe('theme tokens (packages/ui/src/theme.css)', () => {
  it.each(THEMES)('every text and fill pair of the %s theme reads at 4.5:1 or more', (theme) => {
    const tokens = themeTokens(css, theme);
    const failures = themeContrastFailures(tokens);
    const report = failures.map(
      (f) =>
        `${f.text} ${tokens[f.text]} on ${f.background} ${tokens[f.background]}: ${f.ratio.toFixed(2)}:1`,
    );
    expect(report, `${theme} pairs under ${MIN_CONTRAST_TEXT}:1`).toEqual([]);
  });

  it('defines every token of the check in every theme, and the themes differ', () => {
    const pairs = THEMES.map((theme) => themeContrastPairs(themeTokens(css, theme)));
    // 6 backgrounds × 7 text colours + 5 fills.
    for (const list of pairs) expect(list).toHaveLength(47);
    const tokens = THEMES.map((theme) => themeTokens(css, theme));
    expect(new Set(tokens.map((t) => t['--bg'])).size).toBe(3);
    expect(new Set(tokens.map((t) => t['--brand'])).size).toBeGreaterThan(1);
  });

  it('a broker colour that would fail is caught', () => {
    const tokens = { ...themeTokens(css, 'navy'), '--brand': '#2f6bff', '--up-fill': '#16b979' };
    const failed = themeContrastFailures(tokens).map((f) => `${f.text} on ${f.background}`);
    expect(failed).toContain('--brand on --bg-elevated');
    expect(failed).toContain('--up-contrast on --up-fill');
  });
});

describe('the browser bar colour of each theme (issue 21, item 11)', () => {
  it.each(THEMES)('<meta name="theme-color"> of the %s theme is its --bg token', (theme) => {
    expect(THEME_COLOR[theme]).toBe(themeTokens(css, theme)['--bg']);
  });

  it('the themes have their own colours, and an unknown cookie value is the default theme', () => {
    expect(new Set(Object.values(THEME_COLOR)).size).toBe(THEMES.length);
    expect(themeOf('white')).toBe('white');
    expect(themeOf('dark')).toBe('dark');
    expect(themeOf('pink')).toBe('navy');
    expect(themeOf(undefined)).toBe('navy');
  });
});

describe('the personal centre’s dark header bar', () => {
  it('reads at 4.5:1, with its own tokens, the same in every theme', () => {
    const tokens = themeTokens(css, 'white');
    const bar = tokens['--header-dark-bg'] as string;
    for (const text of ['--header-dark-text', '--header-dark-text-muted'])
      expect(contrastRatio(tokens[text] as string, bar), text).toBeGreaterThanOrEqual(MIN_CONTRAST_TEXT);
    for (const theme of THEMES) expect(themeTokens(css, theme)['--header-dark-bg']).toBe(bar);
  });
});

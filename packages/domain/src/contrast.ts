/**
 * Colour contrast of WCAG 2.2 (success criterion 1.4.3): the ratio of two colours' relative
 * luminances, and the pairs of theme tokens that carry text. The portal's themes are checked with it
 * (packages/ui/test/theme-contrast.test.ts), and so can a broker's own colours before they are saved.
 */

/** An sRGB colour with alpha (0–1). */
export interface TRgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** Normal text needs 4.5:1 (AA); large text (24 px, or 18.66 px bold) and UI components 3:1. */
export const MIN_CONTRAST_TEXT = 4.5;
export const MIN_CONTRAST_LARGE_TEXT = 3;

/**
 * Reads `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(r g b)`, `rgb(r g b / a)` and the comma forms
 * of rgb() and rgba(); null for anything else (named colours, var(), color-mix()).
 */
export function parseColor(text: string): TRgba | null {
  const value = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,8})$/.exec(value)?.[1];
  if (hex) {
    if (hex.length !== 3 && hex.length !== 4 && hex.length !== 6 && hex.length !== 8) return null;
    const full = hex.length <= 4 ? hex.replace(/./g, (c) => c + c) : hex;
    const part = (i: number) => Number.parseInt(full.slice(i, i + 2), 16);
    return { r: part(0), g: part(2), b: part(4), a: full.length === 8 ? part(6) / 255 : 1 };
  }
  const fn = /^rgba?\(([^)]*)\)$/.exec(value)?.[1];
  if (!fn) return null;
  const [channels = '', alphaPart] = fn.includes('/') ? fn.split('/') : [fn, undefined];
  const parts = channels.split(/[\s,]+/).filter(Boolean);
  const alphaText = alphaPart?.trim() ?? parts[3];
  if (parts.length < 3 || parts.length > (alphaPart === undefined ? 4 : 3)) return null;
  const channel = (p: string) =>
    p.endsWith('%') ? (Number.parseFloat(p) / 100) * 255 : Number.parseFloat(p);
  const alpha =
    alphaText === undefined
      ? 1
      : alphaText.endsWith('%')
        ? Number.parseFloat(alphaText) / 100
        : Number.parseFloat(alphaText);
  const [r, g, b] = parts.slice(0, 3).map(channel) as [number, number, number];
  if (![r, g, b, alpha].every(Number.isFinite)) return null;
  const clamp = (n: number, max: number) => Math.min(max, Math.max(0, n));
  return { r: clamp(r, 255), g: clamp(g, 255), b: clamp(b, 255), a: clamp(alpha, 1) };
}

/** A colour with alpha laid over an opaque backdrop (what the eye sees). */
export function composite(top: TRgba, backdrop: TRgba): TRgba {
  const mix = (f: number, b: number) => f * top.a + b * (1 - top.a);
  return { r: mix(top.r, backdrop.r), g: mix(top.g, backdrop.g), b: mix(top.b, backdrop.b), a: 1 };
}

/** Relative luminance of an sRGB colour (WCAG 2.2 definition), 0 (black) to 1 (white). */
export function relativeLuminance(color: TRgba): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(color.r) + 0.7152 * linear(color.g) + 0.0722 * linear(color.b);
}

/**
 * The contrast ratio of two colours, 1 to 21, in either order. A translucent foreground is laid over
 * the background first; the background must be opaque (lay it over its own backdrop with composite()).
 */
export function contrastRatio(foreground: TRgba | string, background: TRgba | string): number {
  const read = (c: TRgba | string) => {
    const parsed = typeof c === 'string' ? parseColor(c) : c;
    if (!parsed) throw new Error(`not a colour: ${String(c)}`);
    return parsed;
  };
  const bg = read(background);
  if (bg.a < 1) throw new Error('the background of a contrast ratio must be opaque');
  const fg = composite(read(foreground), bg);
  const [light, dark] = [relativeLuminance(fg), relativeLuminance(bg)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** The backgrounds that text sits on, in every theme. */
export const BACKGROUND_TOKENS = [
  '--bg',
  '--bg-elevated',
  '--bg-sunken',
  '--surface',
  '--surface-hover',
  '--header-bg',
] as const;

/** The colours that text and icons are written in; each must read on every background token. */
export const TEXT_TOKENS = [
  '--text',
  '--text-muted',
  '--text-faint',
  '--brand',
  '--up',
  '--down',
  '--warning',
] as const;

/** Filled controls and the text colour written on each. */
export const FILL_TOKENS = [
  ['--brand-contrast', '--brand-fill'],
  ['--brand-contrast', '--brand-strong'],
  ['--up-contrast', '--up-fill'],
  ['--down-contrast', '--down-fill'],
  ['--warning-contrast', '--warning-fill'],
] as const;

export interface TContrastPair {
  text: string;
  background: string;
  ratio: number;
}

/**
 * Every text/background pair of one theme's tokens (custom property name to value), with its ratio:
 * each text token on each background token, and each fill with its own text colour. A background
 * token with alpha (a translucent header) is laid over --bg. Throws when a token is missing or is
 * not a colour, so a theme cannot pass by leaving one out.
 */
export function themeContrastPairs(tokens: Readonly<Record<string, string>>): TContrastPair[] {
  const color = (name: string): TRgba => {
    const value = tokens[name];
    if (value === undefined) throw new Error(`theme token ${name} is missing`);
    const parsed = parseColor(value);
    if (!parsed) throw new Error(`theme token ${name} is not a colour: ${value}`);
    return parsed;
  };
  const base = color('--bg');
  const opaque = (name: string) => {
    const c = color(name);
    return c.a < 1 ? composite(c, base) : c;
  };
  const pairs: TContrastPair[] = [];
  for (const background of BACKGROUND_TOKENS)
    for (const text of TEXT_TOKENS)
      pairs.push({ text, background, ratio: contrastRatio(color(text), opaque(background)) });
  for (const [text, background] of FILL_TOKENS)
    pairs.push({ text, background, ratio: contrastRatio(color(text), opaque(background)) });
  return pairs;
}

/** The pairs of a theme under the minimum ratio (4.5:1 unless told), worst first. */
export function themeContrastFailures(
  tokens: Readonly<Record<string, string>>,
  minimum = MIN_CONTRAST_TEXT,
): TContrastPair[] {
  return themeContrastPairs(tokens)
    .filter((pair) => pair.ratio < minimum)
    .sort((x, y) => x.ratio - y.ratio);
}

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TRenderFunction } from '@broker/contracts/web-host';
import { loadCatalog } from '@broker/i18n/catalogs';
import { FALLBACK_LOCALE, intlLocale, isLocaleCode } from '@broker/i18n/locales';
import { createTranslator, pseudoLocalize } from '@broker/i18n/translator';
import { THEME_COLOR, themeOf } from '@broker/ui/themes.ts';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider } from 'react-router';
import { routeChunk, routes } from './app/routes';
import { pageTitle } from './app/title';
import { ErrorFallback } from './features/errors/ErrorFallback';
import { FONT_ENTRIES, fontEntryFor, type TFontEntry } from './fonts/fonts';
import { serializeForScript, type TBootData } from './lib/boot';
import { I18nProvider } from './lib/i18n';
import { requestKlineColor } from './lib/market-format';
import { ShellProvider } from './lib/store';
import { scriptLoader, splitTemplateScripts, type TPageTemplate } from './page-scripts';

const here = dirname(fileURLToPath(import.meta.url));
let template: TPageTemplate | null = null;
/** The built page, without its script tags: the page adds them after its first paint (page-scripts). */
function readTemplate(): TPageTemplate {
  template ??= splitTemplateScripts(readFileSync(join(here, '../client/index.html'), 'utf8'));
  return template;
}

interface TManifestEntry {
  file: string;
  imports?: string[];
  css?: string[];
  assets?: string[];
}
let manifest: Record<string, TManifestEntry> | null = null;
/** The client build's manifest: each source module's built chunk, the chunks it imports and its CSS. */
function readManifest(): Record<string, TManifestEntry> {
  manifest ??= JSON.parse(readFileSync(join(here, '../client/.vite/manifest.json'), 'utf8')) as Record<
    string,
    TManifestEntry
  >;
  return manifest;
}

interface TRouteCode {
  scripts: string[];
  styles: string[];
}
const routeCodeCache = new Map<string, TRouteCode>();
/**
 * The rendered page's own code: the chunks of its lazy routes (and the chunks they import) and their
 * stylesheets. Without their preloads the browser would find the route's code only after the entry
 * script has run, a second round of downloads before hydration (on the terminal, 0.4 s of a throttled
 * load). The entry's own chunks are in the page template.
 */
function routeCode(pathname: string): TRouteCode {
  const chunks = (matchRoutes(routes, pathname) ?? [])
    .map((match) => routeChunk(match.route))
    .filter((chunk): chunk is string => chunk !== undefined);
  const key = chunks.join('|');
  const cached = routeCodeCache.get(key);
  if (cached) return cached;
  const built = readManifest();
  const entry = new Set(built['index.html']?.imports ?? []);
  const seen = new Set<string>(['index.html']);
  const code: TRouteCode = { scripts: [], styles: [] };
  const visit = (name: string) => {
    if (seen.has(name) || entry.has(name)) return;
    seen.add(name);
    const chunk = built[name];
    if (!chunk) return;
    code.scripts.push(`/${chunk.file}`);
    for (const css of chunk.css ?? []) code.styles.push(`/${css}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const chunk of chunks) visit(`src/${chunk}.tsx`);
  routeCodeCache.set(key, code);
  return code;
}

interface TFontFiles {
  /** The stylesheet of the entry's @font-face rules. */
  href: string;
  /** The Latin slice of a Latin-script family, preloaded: every page of those languages uses it. */
  preload?: string;
}
let fontFiles: Partial<Record<TFontEntry, TFontFiles>> | null = null;
/** The built address of each font stylesheet, from the client build's manifest. */
function fontHref(entry: TFontEntry): TFontFiles | undefined {
  if (!fontFiles) {
    fontFiles = {};
    for (const [key, source] of Object.entries(FONT_ENTRIES) as [TFontEntry, string][]) {
      const built = readManifest()[source];
      if (!built) continue;
      const latin =
        key === 'noto-sans'
          ? built.assets?.find((a) => /-latin-wght-normal-[^/]*\.woff2$/.test(a))
          : undefined;
      fontFiles[key] = { href: `/${built.file}`, ...(latin ? { preload: `/${latin}` } : {}) };
    }
  }
  return fontFiles[entry];
}

/**
 * The page language's font stylesheet (@font-face rules with unicode-range, fonts/fonts.ts), loaded
 * without blocking the first paint: the text shows in a system font until it has loaded. The Latin
 * languages' one font file is preloaded (fontPreload), so the page lays out again once, early,
 * instead of after its first layout asked for the font.
 */
function fontLinks(lang: string): string[] {
  const files = fontHref(fontEntryFor(lang));
  if (!files) return [];
  return [
    `<link rel="stylesheet" href="${files.href}" media="print" onload="this.media='all'" />`,
    `<noscript><link rel="stylesheet" href="${files.href}" /></noscript>`,
  ];
}

let catalogFiles: Record<string, string> | null = null;
/** The static file of a language's whole catalog (scripts/catalog-assets.mjs), if the build made one. */
function catalogHref(lang: string): string | undefined {
  if (!catalogFiles) {
    try {
      catalogFiles = JSON.parse(readFileSync(join(here, '../client/.vite/catalogs.json'), 'utf8')) as Record<
        string,
        string
      >;
    } catch {
      catalogFiles = {};
    }
  }
  return catalogFiles[lang];
}

/** The Latin languages' one font file, fetched early (see fontLinks). */
function fontPreload(lang: string): string[] {
  const file = fontHref(fontEntryFor(lang))?.preload;
  return file ? [`<link rel="preload" href="${file}" as="font" type="font/woff2" crossorigin />`] : [];
}

const handler = createStaticHandler(routes);

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string,
  );
}

/** Server-renders one portal page in the language of its path, before any script runs. */
export const render: TRenderFunction = async (request, host, info) => {
  const url = new URL(request.url);
  const segment = url.pathname.split('/')[1];
  const lang = isLocaleCode(segment) ? segment : FALLBACK_LOCALE;
  const pseudo = url.searchParams.get('pseudo') === '1';
  const catalog = pseudo ? pseudoLocalize(await loadCatalog('en')) : await loadCatalog(lang);
  const cookieHeader = request.headers.get('cookie') ?? '';
  const theme = themeOf(/(?:^|;\s*)theme=([a-z]+)/.exec(cookieHeader)?.[1]);
  // The colours of rise and fall from the first byte: the cookie, else the visitor's country default.
  const klineColor = requestKlineColor({
    cookie: cookieHeader,
    acceptLanguage: request.headers.get('accept-language'),
    pageLocale: intlLocale(lang),
  });

  const context = await handler.query(request, { requestContext: { host } });
  if (context instanceof Response) {
    const headers: Record<string, string> = {};
    context.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return { status: context.status, headers, body: '' };
  }

  const user = await host.currentUser(request);
  // The render records the messages it reads: the page inlines those (hydration needs exactly them)
  // and the browser fetches the whole catalog from its static file after the first paint. Without a
  // built catalog file (a development server, the pseudo-locale), the page inlines the whole catalog.
  const catalogFile = pseudo ? undefined : catalogHref(lang);
  const used = new Set<string>();
  const rendered = catalogFile
    ? new Proxy(catalog, {
        get(target, key, receiver) {
          if (typeof key === 'string') used.add(key);
          return Reflect.get(target, key, receiver);
        },
      })
    : catalog;
  const boot: TBootData = { lang, catalog, device: info.device, user, pseudo, klineColor };
  const t = createTranslator(lang, catalog);
  const title =
    context.statusCode === 404
      ? `${t('notFound.title')} · ${t('brand.name')}`
      : pageTitle(
          context.matches.map((m) => ({ handle: m.route.handle })),
          t,
        );
  const router = createStaticRouter(handler.dataRoutes, context);

  let html: string;
  let status = context.statusCode;
  try {
    html = renderToString(
      <I18nProvider lang={lang} catalog={rendered}>
        <ShellProvider user={boot.user} device={info.device} klineColor={klineColor}>
          <StaticRouterProvider router={router} context={context} />
        </ShellProvider>
      </I18nProvider>,
    );
  } catch {
    // The page, or the error page, failed to render: the fallback page has no dependencies.
    html = renderToString(<ErrorFallback lang={lang} />);
    status = 500;
  }

  const head = [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(t('home.meta.description'))}" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:locale" content="${escapeHtml(intlLocale(lang).replace('-', '_'))}" />`,
    ...fontLinks(lang),
  ].join('\n    ');
  if (catalogFile) {
    boot.catalog = Object.fromEntries(
      [...used].filter((key) => key in catalog).map((key) => [key, catalog[key] as string]),
    );
    boot.catalogHref = catalogFile;
  }
  const page = readTemplate();
  const code = status < 400 ? routeCode(url.pathname) : { scripts: [], styles: [] };
  // After the entry's stylesheet, which the page needs first: the route's stylesheets and the font.
  const late = [
    ...code.styles.map((href) => `<link rel="preload" href="${href}" as="style" crossorigin />`),
    ...fontPreload(lang),
  ].join('\n    ');
  // The code, once the first contentful paint is on screen: the entry, its chunks, the route's
  // chunks and the catalog.
  const loader = scriptLoader({
    entry: page.entry,
    modules: [...page.preloads, ...code.scripts],
    fetches: catalogFile ? [catalogFile] : [],
  });
  const body = page.html
    .replace('<!--app-lang-->', intlLocale(lang))
    .replace('<!--app-theme-->', theme)
    .replace('<!--app-theme-color-->', THEME_COLOR[theme])
    .replace('<!--app-kline-->', String(klineColor))
    .replace('<!--app-device-->', info.device)
    // Functions, not strings, as replacements: page text may hold "$&" or "$'", which a string
    // replacement would expand.
    .replace('<!--app-head-->', () => head)
    .replace('</head>', () => `  ${late}\n  </head>`)
    .replace('<!--app-html-->', () => html)
    .replace(
      '<!--app-boot-->',
      () => `<script>window.__BOOT__=${serializeForScript(boot)}</script>\n    ${loader}`,
    );
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-language': intlLocale(lang),
    },
    body,
  };
};

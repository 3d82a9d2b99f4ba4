import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TRenderFunction } from '@broker/contracts/web-host';
import { loadCatalog } from '@broker/i18n/catalogs';
import { FALLBACK_LOCALE, intlLocale, isLocaleCode } from '@broker/i18n/locales';
import { createTranslator, pseudoLocalize } from '@broker/i18n/translator';
import { THEME_COLOR, themeOf } from '@broker/ui/themes.ts';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { routes } from './app/routes';
import { pageTitle } from './app/title';
import { ErrorFallback } from './features/errors/ErrorFallback';
import { FONT_ENTRIES, fontEntryFor, type TFontEntry } from './fonts/fonts';
import { serializeForScript, type TBootData } from './lib/boot';
import { I18nProvider } from './lib/i18n';
import { requestKlineColor } from './lib/market-format';
import { ShellProvider } from './lib/store';

const here = dirname(fileURLToPath(import.meta.url));
let template: string | null = null;
function readTemplate(): string {
  template ??= readFileSync(join(here, '../client/index.html'), 'utf8');
  return template;
}

let fontHrefs: Partial<Record<TFontEntry, string>> | null = null;
/** The built address of each font stylesheet, from the client build's manifest. */
function fontHref(entry: TFontEntry): string | undefined {
  if (!fontHrefs) {
    const manifest = JSON.parse(readFileSync(join(here, '../client/.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    fontHrefs = {};
    for (const [key, source] of Object.entries(FONT_ENTRIES) as [TFontEntry, string][]) {
      const file = manifest[source]?.file;
      if (file) fontHrefs[key] = `/${file}`;
    }
  }
  return fontHrefs[entry];
}

/**
 * The page language's font stylesheet (@font-face rules with unicode-range, fonts/fonts.ts), loaded
 * without blocking the first paint: the text shows in a system font until it has loaded.
 */
function fontLinks(lang: string): string[] {
  const href = fontHref(fontEntryFor(lang));
  if (!href) return [];
  return [
    `<link rel="stylesheet" href="${href}" media="print" onload="this.media='all'" />`,
    `<noscript><link rel="stylesheet" href="${href}" /></noscript>`,
  ];
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
      <I18nProvider lang={lang} catalog={catalog}>
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
  const body = readTemplate()
    .replace('<!--app-lang-->', intlLocale(lang))
    .replace('<!--app-theme-->', theme)
    .replace('<!--app-theme-color-->', THEME_COLOR[theme])
    .replace('<!--app-kline-->', String(klineColor))
    .replace('<!--app-device-->', info.device)
    .replace('<!--app-head-->', head)
    .replace('<!--app-html-->', html)
    .replace('<!--app-boot-->', `<script>window.__BOOT__=${serializeForScript(boot)}</script>`);
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

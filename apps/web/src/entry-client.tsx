import '@broker/ui/theme.css';
import '@broker/ui/components.css';
import './styles/site.css';
// The server links the entry's stylesheet only: the market screens' styles ship with it, so their
// server-rendered markup is styled before the route's chunk has loaded.
import './features/markets/markets.css';
import './features/converter/converter.css';
import './features/profile/profile.css';
import './features/settings/settings.css';
import './features/auth/auth.css';
import './features/trade/trade.css';
import './features/accounts/accounts.css';
import './features/history/history.css';
import { StrictMode, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { routes } from './app/routes';
import { I18nProvider } from './lib/i18n';
import { installChunkReloadGuard, schedulePrefetch } from './lib/resilience';
import { ShellProvider } from './lib/store';

/** Marks the page as interactive once React has hydrated it (browser tests wait for it). */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

async function start() {
  installChunkReloadGuard();
  const boot = window.__BOOT__;
  if (!boot) throw new Error('missing boot data');
  // Lazy routes of the first page must be loaded before hydration, or the markup would not match.
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async (match) => {
      const route = match.route;
      if (typeof route.lazy === 'function') {
        const resolved = await route.lazy();
        Object.assign(route, { ...resolved, lazy: undefined });
      }
    }),
  );
  const router = createBrowserRouter(routes);
  hydrateRoot(
    document.getElementById('root') as HTMLElement,
    <StrictMode>
      <I18nProvider lang={boot.lang} catalog={boot.catalog}>
        <ShellProvider user={boot.user} device={boot.device}>
          <RouterProvider router={router} />
          <HydrationMark />
        </ShellProvider>
      </I18nProvider>
    </StrictMode>,
  );
  prefetchLinkedPages();
}

/** Warms the chunks of pages linked from this one, when the connection allows it. */
function prefetchLinkedPages() {
  schedulePrefetch(() => {
    const hrefs = new Set(
      [...document.querySelectorAll<HTMLAnchorElement>('a[href^="/"]')]
        .map((a) => a.getAttribute('href') ?? '')
        .filter(Boolean),
    );
    for (const href of hrefs) {
      for (const match of matchRoutes(routes, href) ?? []) {
        const preload = (match.route.lazy as { preload?: () => Promise<unknown> } | undefined)?.preload;
        if (preload) void preload().catch(() => undefined);
      }
    }
  });
}

void start();

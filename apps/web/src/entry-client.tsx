import '@broker/ui/theme.css';
import '@broker/ui/components.css';
import './styles/site.css';
// Each page language's font family; the server links its @font-face rules (fonts/fonts.ts).
import './fonts/stacks.css';
// The shared pieces of the feature pages (components/), before the features' own styles.
import './components/feature-page.css';
import './components/dialog.css';
import './components/text-field.css';
import './components/figure.css';
import './components/load-states.css';
import './components/status-badge.css';
import './components/curve-chart.css';
// The server links the entry's stylesheet only: the market screens' styles ship with it, so their
// server-rendered markup is styled before the route's chunk has loaded.
import './features/markets/markets.css';
import './features/converter/converter.css';
import './features/settings/profile.css';
import './features/settings/settings.css';
import './features/auth/auth.css';
import './features/trade/trade.css';
import './features/trade/chart-layout.css';
import './features/personal-center/accounts.css';
import './features/history/history.css';
import './features/funding/funding.css';
import './features/kyc/kyc.css';
import './features/copy/copy.css';
import './features/strategies/strategies.css';
import { StrictMode, startTransition, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { likelyNextPaths } from './app/prefetch';
import { routes } from './app/routes';
import { fetchCatalog, I18nProvider } from './lib/i18n';
import { installChunkReloadGuard, schedulePrefetch, trackNavigationTarget } from './lib/resilience';
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
  // This code was asked for once the server's HTML was painted (page-scripts.ts): no wait here.
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
  // The page inlines the messages its server render used; the rest arrive from the catalog's file.
  const complete = boot.catalogHref ? fetchCatalog(boot.catalogHref) : undefined;
  const router = createBrowserRouter(routes);
  trackNavigationTarget(() => {
    const pending = router.state.navigation.location;
    return pending ? pending.pathname + pending.search + pending.hash : null;
  });
  // Hydration as a transition: React then hydrates in slices of a few milliseconds, yielding to the
  // browser between them, instead of one task as long as the page (the terminal's was 240 ms at 4x
  // CPU). The page is already painted from the server.
  startTransition(() => {
    hydrateRoot(
      document.getElementById('root') as HTMLElement,
      <StrictMode>
        <I18nProvider lang={boot.lang} catalog={boot.catalog} complete={complete}>
          <ShellProvider user={boot.user} device={boot.device} klineColor={boot.klineColor}>
            <RouterProvider router={router} />
            <HydrationMark />
          </ShellProvider>
        </I18nProvider>
      </StrictMode>,
    );
  });
  prefetchNextPages(Boolean(boot.user));
}

/**
 * Warms the chunks of the few pages likely opened next (`likelyNextPaths`, a visitor's or a trader's),
 * when the connection allows it.
 */
function prefetchNextPages(signedIn: boolean) {
  const root = document.documentElement;
  const scheduled = schedulePrefetch(() => {
    for (const href of likelyNextPaths(window.location.pathname, signedIn)) {
      for (const match of matchRoutes(routes, href) ?? []) {
        const preload = (match.route.lazy as { preload?: () => Promise<unknown> } | undefined)?.preload;
        if (preload) void preload().catch(() => undefined);
      }
    }
    // Browser tests wait for this mark instead of a fixed time.
    root.dataset.prefetch = 'done';
  });
  if (!scheduled) root.dataset.prefetch = 'skipped';
}

void start();

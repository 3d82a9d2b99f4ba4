import type { TWebHost } from '@broker/contracts/web-host';
import { isLocaleCode } from '@broker/i18n/locales';
import { data, type LoaderFunctionArgs, type RouteObject, redirect } from 'react-router';
import { Component as ErrorPageRoute } from '../features/errors/ErrorPage';
import { RouteErrorBoundary } from '../features/errors/RouteErrorBoundary';
import { HomePage } from '../features/home/HomePage';
import { userInfoFromCookie } from '../lib/cookies';
import { isChunkLoadError, reloadForChunkError } from '../lib/resilience';
import { LangLayout } from './LangLayout';
import { PublicLayout } from './PublicLayout';
import { paths } from './paths';

/** Present on the server (the renderer's request context); undefined in the browser. */
export interface TLoaderContext {
  host: TWebHost;
}

function serverContext(context: unknown): TLoaderContext | null {
  return context && typeof context === 'object' && 'host' in context ? (context as TLoaderContext) : null;
}

function langLoader({ params }: LoaderFunctionArgs) {
  if (!isLocaleCode(params.lang)) throw data({ notFound: true }, { status: 404 });
  return null;
}

/** The auth middleware: an anonymous visitor of a signed-in page goes to sign-in with a return address. */
async function signedInLoader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const server = serverContext(context);
  const user = server ? await server.host.currentUser(request) : userInfoFromCookie();
  if (!user)
    throw redirect(`/${params.lang}/login?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  return { user };
}

/**
 * The terminal: signed-in, and rendered on the server with the trader's accounts, catalogue and
 * layout (features/trade/terminal-boot), so its first screen comes with the page. A navigation in the
 * browser loads them on the page as before.
 */
async function terminalLoader(args: LoaderFunctionArgs) {
  const signedIn = await signedInLoader(args);
  const server = serverContext(args.context);
  if (!server) return signedIn;
  const { loadTerminalBoot } = await import('../features/trade/terminal-boot');
  const terminal = await loadTerminalBoot(server.host, args.request, args.params.lang as string).catch(
    () => null,
  );
  return { ...signedIn, terminal };
}

/**
 * The markets: on the server, the quotes list and the hot list, read as the page's visitor, so the
 * table is in the page's HTML (no skeleton, no second render of every row after two round trips). In
 * the browser the page loads them itself (a navigation, a change of tab). A failed read answers null
 * and the page then loads the lists as it always did.
 */
async function marketsLoader({ request, params, context }: LoaderFunctionArgs) {
  const server = serverContext(context);
  if (!server) return null;
  const lang = params.lang as string;
  const [all, hot] = await Promise.all([
    server.host.callRoute(request, lang, 'currencyall', {}),
    server.host.callRoute(request, lang, 'currencyhot', {}),
  ]).catch(() => [null, null] as const);
  if (!all?.succeed || !all.Data) return null;
  return { markets: { items: all.Data, hot: hot?.succeed && hot.Data ? hot.Data : [] } };
}

function notFound(): never {
  throw data({ notFound: true }, { status: 404 });
}

/**
 * A symbol page exists for the instruments of the catalogue; other names answer 404 and a
 * lower-case name redirects to its canonical upper-case address.
 */
async function symbolLoader({ params }: LoaderFunctionArgs) {
  const raw = params.symbol ?? '';
  const symbol = raw.toUpperCase();
  if (!/^[A-Z0-9]{3,12}$/.test(symbol)) notFound();
  const { instrumentBySymbol } = await import('@broker/domain/market/instruments');
  if (!instrumentBySymbol(symbol)) notFound();
  if (raw !== symbol) throw redirect(paths.symbol(params.lang as string, symbol));
  return { symbol };
}

/**
 * A route's code, loaded on demand. When its chunk cannot be fetched (a new deployment removed it,
 * the network dropped), the page reloads once (spec 8) instead of showing an error.
 */
const lazyPage = (chunk: string, load: () => Promise<{ Component: RouteObject['Component'] }>) => {
  const lazy = async () => {
    try {
      const { Component } = await load();
      return { Component };
    } catch (error) {
      if (typeof window !== 'undefined' && isChunkLoadError(error) && reloadForChunkError()) {
        return new Promise<never>(() => undefined);
      }
      throw error;
    }
  };
  // Prefetching warms the chunk without the reload: a failed prefetch is retried on navigation. The
  // server preloads the chunk of the page it renders by its source module (`chunk`, under src/).
  return Object.assign(lazy, { preload: load, chunk });
};

/** The source module of a route's lazy page under src/ ("features/trade/TradePage"), if it has one. */
export function routeChunk(route: RouteObject): string | undefined {
  return (route.lazy as { chunk?: string } | undefined)?.chunk;
}

export const routes: RouteObject[] = [
  {
    id: 'lang',
    path: '/:lang',
    loader: langLoader,
    element: <LangLayout />,
    errorElement: <RouteErrorBoundary />,
    children: [
      {
        element: <PublicLayout />,
        errorElement: <RouteErrorBoundary />,
        children: [
          { index: true, element: <HomePage />, handle: { titleKey: 'home.meta.title', nav: 0 } },
          {
            path: 'markets',
            loader: marketsLoader,
            // Its data is the server's first screen only: a change of tab (a search parameter) does
            // not need the loader again.
            shouldRevalidate: () => false,
            handle: { titleKey: 'markets.title', nav: 1 },
            lazy: lazyPage('features/markets/MarketsPage', () => import('../features/markets/MarketsPage')),
          },
          {
            path: 'markets/:symbol',
            loader: symbolLoader,
            handle: { titleKey: 'markets.symbol.title', nav: 1 },
            lazy: lazyPage('features/markets/SymbolPage', () => import('../features/markets/SymbolPage')),
          },
          {
            path: 'converter',
            handle: { titleKey: 'converter.title', nav: 3 },
            lazy: lazyPage(
              'features/converter/ConverterPage',
              () => import('../features/converter/ConverterPage'),
            ),
          },
          {
            path: 'qrcodePage',
            handle: { titleKey: 'qr.login.title', nav: 6 },
            lazy: lazyPage('features/auth/QrCodePage', () => import('../features/auth/QrCodePage')),
          },
          {
            path: 'qrConfirm',
            loader: signedInLoader,
            handle: { titleKey: 'qr.confirm.title' },
            lazy: lazyPage('features/auth/QrConfirmPage', () => import('../features/auth/QrConfirmPage')),
          },
          ...(['privacy', 'privacy-google', 'termsofuse'] as const).map<RouteObject>((name) => ({
            path: `h5/${name}`,
            handle: { titleKey: `legal.${name}.title` },
            loader: async ({ params, context }) => {
              const server = serverContext(context);
              const lang = params.lang as string;
              if (server) return server.host.legalDocument(lang, name);
              const { callRoute } = await import('../lib/api');
              const answer = await callRoute('legaldoc', { lang, name }, lang);
              if (!answer.succeed || !answer.Data) throw data({ message: answer.message }, { status: 503 });
              return answer.Data;
            },
            lazy: lazyPage('features/legal/LegalPage', () => import('../features/legal/LegalPage')),
          })),
          {
            path: 'login',
            handle: { titleKey: 'login.title' },
            lazy: lazyPage('features/auth/LoginPage', () => import('../features/auth/LoginPage')),
          },
          {
            path: 'register',
            handle: { titleKey: 'register.title' },
            lazy: lazyPage('features/auth/RegisterPage', () => import('../features/auth/RegisterPage')),
          },
          {
            path: 'forgotPassword',
            handle: { titleKey: 'reset.title' },
            lazy: lazyPage(
              'features/auth/ForgotPasswordPage',
              () => import('../features/auth/ForgotPasswordPage'),
            ),
          },
          {
            path: 'copyTrading',
            handle: { titleKey: 'copy.leaders.title', nav: 4 },
            lazy: lazyPage('features/copy/LeadersPage', () => import('../features/copy/LeadersPage')),
          },
          {
            path: 'copyTrading/mine',
            loader: signedInLoader,
            handle: { titleKey: 'copy.mine.title', nav: 4 },
            lazy: lazyPage('features/copy/MyCopiesPage', () => import('../features/copy/MyCopiesPage')),
          },
          {
            path: 'copyTrading/lead',
            loader: signedInLoader,
            handle: { titleKey: 'copy.lead.title', nav: 4 },
            lazy: lazyPage('features/copy/LeadPage', () => import('../features/copy/LeadPage')),
          },
          {
            path: 'copyTrading/:leaderId',
            loader: ({ params }) => {
              if (!/^[1-9]\d{0,15}$/.test(params.leaderId ?? '')) notFound();
              return null;
            },
            handle: { titleKey: 'copy.leader.title', nav: 4 },
            lazy: lazyPage('features/copy/LeaderPage', () => import('../features/copy/LeaderPage')),
          },
          {
            path: 'strategies',
            loader: signedInLoader,
            handle: { titleKey: 'strategy.list.title', nav: 5 },
            lazy: lazyPage(
              'features/strategies/StrategiesPage',
              () => import('../features/strategies/StrategiesPage'),
            ),
          },
          {
            path: 'strategies/new',
            loader: signedInLoader,
            handle: { titleKey: 'strategy.new.title', nav: 5 },
            lazy: lazyPage(
              'features/strategies/NewStrategyPage',
              () => import('../features/strategies/NewStrategyPage'),
            ),
          },
          {
            path: 'strategies/:strategyId',
            loader: async (args) => {
              if (!/^[1-9]\d{0,15}$/.test(args.params.strategyId ?? '')) notFound();
              return signedInLoader(args);
            },
            handle: { titleKey: 'strategy.detail.title', nav: 5 },
            lazy: lazyPage(
              'features/strategies/StrategyPage',
              () => import('../features/strategies/StrategyPage'),
            ),
          },
          { path: 'error', handle: { titleKey: 'error.title' }, Component: ErrorPageRoute },
          { path: '*', loader: notFound, element: null },
        ],
      },
      {
        path: 'trade',
        loader: terminalLoader,
        // The app prompt would cover the chart's time axis and be the page's largest paint. The server
        // renders the whole terminal (terminalLoader).
        handle: { titleKey: 'trade.title', nav: 2, downloadPrompt: false },
        errorElement: <RouteErrorBoundary />,
        lazy: lazyPage('features/trade/TradePage', () => import('../features/trade/TradePage')),
      },
      {
        path: 'personalCenter',
        loader: signedInLoader,
        lazy: lazyPage(
          'features/personal-center/PersonalCenterLayout',
          () => import('../features/personal-center/PersonalCenterLayout'),
        ),
        children: [
          { index: true, loader: ({ params }) => redirect(`/${params.lang}/personalCenter/account`) },
          {
            path: 'account',
            handle: { titleKey: 'pc.menu.account', section: 'account' },
            lazy: lazyPage(
              'features/personal-center/AccountSection',
              () => import('../features/personal-center/AccountSection'),
            ),
          },
          {
            path: 'account/create',
            handle: { titleKey: 'pc.create.title', section: 'account' },
            lazy: lazyPage(
              'features/personal-center/CreateAccountPage',
              () => import('../features/personal-center/CreateAccountPage'),
            ),
          },
          {
            path: 'account/success',
            handle: { titleKey: 'pc.success.title', section: 'account' },
            lazy: lazyPage(
              'features/personal-center/AccountSuccessPage',
              () => import('../features/personal-center/AccountSuccessPage'),
            ),
          },
          {
            path: 'setting',
            handle: { titleKey: 'pc.menu.setting', section: 'setting' },
            lazy: lazyPage(
              'features/settings/SettingsLayout',
              () => import('../features/settings/SettingsLayout'),
            ),
            children: [
              {
                index: true,
                handle: { titleKey: 'settings.tabs.preferences' },
                lazy: lazyPage(
                  'features/settings/PreferencesTab',
                  () => import('../features/settings/PreferencesTab'),
                ),
              },
              {
                path: 'security',
                handle: { titleKey: 'settings.tabs.security' },
                lazy: lazyPage(
                  'features/settings/SecurityTab',
                  () => import('../features/settings/SecurityTab'),
                ),
              },
              {
                path: 'profile',
                handle: { titleKey: 'settings.tabs.profile' },
                lazy: lazyPage(
                  'features/settings/ProfileTab',
                  () => import('../features/settings/ProfileTab'),
                ),
              },
              {
                path: 'verification',
                handle: { titleKey: 'settings.tabs.verification' },
                lazy: lazyPage(
                  'features/kyc/VerificationTab',
                  () => import('../features/kyc/VerificationTab'),
                ),
              },
              {
                path: 'feedback',
                handle: { titleKey: 'settings.tabs.feedback' },
                lazy: lazyPage(
                  'features/settings/FeedbackTab',
                  () => import('../features/settings/FeedbackTab'),
                ),
              },
            ],
          },
          {
            path: 'history',
            handle: { titleKey: 'pc.menu.history', section: 'history' },
            lazy: lazyPage('features/history/HistoryPage', () => import('../features/history/HistoryPage')),
          },
          {
            path: 'deposit',
            handle: { titleKey: 'pc.menu.deposit', section: 'deposit' },
            lazy: lazyPage('features/funding/DepositPage', () => import('../features/funding/DepositPage')),
          },
          {
            path: 'withdrawal',
            handle: { titleKey: 'pc.menu.withdrawal', section: 'withdrawal' },
            lazy: lazyPage(
              'features/funding/WithdrawalPage',
              () => import('../features/funding/WithdrawalPage'),
            ),
          },
          {
            path: 'financial',
            handle: { titleKey: 'pc.menu.financial', section: 'financial' },
            lazy: lazyPage(
              'features/funding/FinancialPage',
              () => import('../features/funding/FinancialPage'),
            ),
          },
          {
            path: 'platform',
            handle: { titleKey: 'pc.menu.platform', section: 'platform' },
            lazy: lazyPage(
              'features/personal-center/SectionPage',
              () => import('../features/personal-center/SectionPage'),
            ),
          },
          { path: '*', loader: notFound, element: null },
        ],
      },
    ],
  },
  { path: '*', loader: notFound, element: null, errorElement: <RouteErrorBoundary fallbackLang="en" /> },
];

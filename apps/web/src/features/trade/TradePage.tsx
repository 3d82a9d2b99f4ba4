import './trade.css';
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link, useLoaderData, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Header, NAV_ITEMS } from '../../components/Header';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useFavourites } from '../../lib/favourites';
import { useI18n } from '../../lib/i18n';
import { formatDecimal, useKlineColor } from '../../lib/market-format';
import { type TTimeframe, useMergedQuotes, useQuotes } from '../../lib/market-stream';
import { useShell } from '../../lib/store';
import { newIdempotencyKey } from '../../lib/trading/orders';
import { DEFAULT_REFRESH_MS, TradingProvider, useTrading } from '../../lib/trading/store';
import { AccountBar } from './AccountBar';
import { AlertDialogHost } from './AlertDialog';
import { BottomPanel, type TBottomTab } from './BottomPanel';
import { ChartLayout } from './ChartLayout';
import { ChartPanel, TIMEFRAMES } from './ChartPanel';
import {
  activePane,
  DEFAULT_TIMEFRAME,
  layoutSymbols,
  type TLayoutState,
  withActive,
  withKind,
  withPane,
} from './chart-layout';
import { ToastProvider, useTradeNotifications } from './notifications';
import { OrderTicket } from './OrderTicket';
import { TradeShortcuts } from './TradeShortcuts';
import type { TTerminalBoot } from './terminal-boot';
import type { TSide } from './ticket-rules';
import { AlertsProvider } from './useAlerts';
import { useChartLayout } from './useChartLayout';
import { useCatalogue, useTradeSettings } from './useTradeData';
import { Watchlist } from './Watchlist';

/** The terminal asks for fresh figures every second while it is open (spec 9 default: 3 s). */
const TERMINAL_REFRESH_MS = 1000;
const DEFAULT_SYMBOL = 'EURUSD';
const LAST_SYMBOL_KEY = 'trade.symbol';
const PHONE_QUERY = '(max-width: 900px)';
const MOBILE_TABS = ['quotes', 'chart', 'trade', 'positions'] as const;
type TMobileTab = (typeof MOBILE_TABS)[number];

/** Phone layout below 900 px; the server's device guess until the browser can measure. */
function usePhoneLayout(): boolean {
  const { device } = useShell();
  const [phone, setPhone] = useState(device === 'mobile');
  useEffect(() => {
    const query = window.matchMedia(PHONE_QUERY);
    const update = () => setPhone(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return phone;
}

function readLastSymbol(): string | null {
  try {
    return window.localStorage.getItem(LAST_SYMBOL_KEY);
  } catch {
    return null;
  }
}

/** The trading terminal at /{lang}/trade (signed-in: the route's loader sends others to sign in). */
export function Component() {
  const activeIndex = NAV_ITEMS.findIndex((item) => item.key === 'trade.nav');
  // On the page's first load the server read the terminal's data (./terminal-boot); in the browser
  // the loader has none, and the terminal loads it.
  const boot = (useLoaderData() as { terminal?: TTerminalBoot | null } | undefined)?.terminal ?? null;
  return (
    <div className="page tr-page">
      <Header background="solid" navVisible activeIndex={activeIndex} />
      <TradingProvider boot={boot?.trading}>
        <TerminalWithSettings boot={boot} />
      </TradingProvider>
    </div>
  );
}

function TerminalWithSettings({ boot }: { boot: TTerminalBoot | null }) {
  const { lang } = useI18n();
  const settings = useTradeSettings(lang, boot?.settings);
  return (
    <ToastProvider ringsOpen={settings.notification.ringsOpen}>
      <AlertsProvider>
        <Terminal settings={settings} boot={boot} />
        <AlertDialogHost />
      </AlertsProvider>
    </ToastProvider>
  );
}

function Terminal({
  settings,
  boot,
}: {
  settings: ReturnType<typeof useTradeSettings>;
  boot: TTerminalBoot | null;
}) {
  const { t, lang, intl } = useI18n();
  const trading = useTrading();
  const { state, loading, positions, orders, setRefreshInterval } = trading;
  const klineColor = useKlineColor();
  const phone = usePhoneLayout();
  const [searchParams, setSearchParams] = useSearchParams();
  // Specifications as the current account's group trades them (its own volume limits, switches).
  const catalogue = useCatalogue(lang, state.accountId, boot?.catalogue);
  const { favourites, toggle } = useFavourites();
  const [bottomTab, setBottomTab] = useState<TBottomTab>('positions');
  const [mobileTab, setMobileTab] = useState<TMobileTab>('chart');
  // The tab a tap selects shows as selected at once; its panel renders next, in a render React can
  // interrupt: the quotes' list was one task of 300-400 ms at 4x CPU between the tap and the next
  // paint (issue 21, item 14: INP).
  const shownTab = useDeferredValue(mobileTab);
  const [preset, setPreset] = useState<{ side: TSide; nonce: number } | null>(null);
  const [historyVersion, setHistoryVersion] = useState(0);

  useEffect(() => {
    setRefreshInterval(TERMINAL_REFRESH_MS);
    return () => setRefreshInterval(DEFAULT_REFRESH_MS);
  }, [setRefreshInterval]);

  useTradeNotifications(
    settings,
    useCallback((events) => {
      if (events.some((e) => e.kind === 'closed' || e.kind === 'partlyClosed'))
        setHistoryVersion((n) => n + 1);
    }, []),
  );

  const requested = searchParams.get('symbol')?.toUpperCase() ?? null;
  const [stored, setStored] = useState<string | null>(null);
  useEffect(() => setStored(readLastSymbol()), []);
  const known = useCallback(
    (s: string) => catalogue.status !== 'ready' || catalogue.specs.has(s),
    [catalogue.status, catalogue.specs],
  );
  // The charts as the trader arranged them (kept on the server); the active pane is the terminal's symbol.
  const chartLayout = useChartLayout({
    ready: catalogue.status !== 'loading',
    known,
    first: stored ?? DEFAULT_SYMBOL,
    boot: boot ? boot.layout : undefined,
  });
  const { layout, change: changeLayout } = chartLayout;
  const { symbol, timeframe } = activePane(layout);

  const setParams = useCallback(
    (values: Record<string, string | null>) =>
      setSearchParams(
        (params) => {
          const out = new URLSearchParams(params);
          for (const [name, value] of Object.entries(values)) {
            if (value === null) out.delete(name);
            else out.set(name, value);
          }
          return out;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setSearchParams],
  );
  // The address names the active pane's symbol and timeframe: one given when the page opens (a link
  // from the markets pages) goes to the active pane, and the trader's changes are written back. Only the
  // trader's own changes write it: a write of the page's own accord could cut short a navigation away.
  const [fromAddress, setFromAddress] = useState(false);
  useEffect(() => {
    if (chartLayout.status !== 'ready' || fromAddress) return;
    setFromAddress(true);
    const tf = TIMEFRAMES.find((x) => x === searchParams.get('tf'));
    changeLayout((current) =>
      withPane(current, {
        ...(requested && known(requested) ? { symbol: requested } : {}),
        ...(tf ? { timeframe: tf } : {}),
      }),
    );
  }, [chartLayout.status, fromAddress, searchParams, requested, known, changeLayout]);
  const arrange = useCallback(
    (update: (current: TLayoutState) => TLayoutState) => {
      const next = changeLayout(update);
      if (!next) return;
      const pane = activePane(next);
      setParams({ symbol: pane.symbol, tf: pane.timeframe === DEFAULT_TIMEFRAME ? null : pane.timeframe });
    },
    [changeLayout, setParams],
  );

  const selectSymbol = useCallback(
    (next: string) => {
      arrange((current) => withPane(current, { symbol: next }));
      try {
        window.localStorage.setItem(LAST_SYMBOL_KEY, next);
      } catch {
        // storage blocked: the layout still holds the symbol
      }
      if (phone) setMobileTab('chart');
    },
    [arrange, phone],
  );
  const changeKind = useCallback(
    (kind: 1 | 2 | 4) => arrange((current) => withKind(current, kind)),
    [arrange],
  );
  const activate = useCallback(
    (index: number) => arrange((current) => withActive(current, index)),
    [arrange],
  );
  const changeTimeframe = useCallback(
    (index: number, tf: TTimeframe) => arrange((current) => withPane(current, { timeframe: tf }, index)),
    [arrange],
  );

  // Live quotes of every listed symbol, and of anything the trader holds.
  const streamed = useMemo(() => {
    const set = new Set(catalogue.items.map((q) => q.symbol));
    for (const p of positions) set.add(p.symbol);
    for (const o of orders) set.add(o.symbol);
    // Every chart on screen: the union goes to the one market stream.
    for (const s of layoutSymbols(layout)) set.add(s);
    return [...set];
  }, [catalogue.items, positions, orders, layout]);
  const live = useQuotes(streamed);
  const items = useMergedQuotes(catalogue.items, live);
  const quote = items.find((q) => q.symbol === symbol);
  const spec = catalogue.specs.get(symbol);
  const quoteOf = useCallback((s: string) => items.find((q) => q.symbol === s), [items]);

  const bid = quote ? formatDecimal(intl, quote.bid, quote.digits) : null;
  useEffect(() => {
    if (bid) document.title = `${symbol} ${bid} · ${t('trade.title')} · ${t('brand.name')}`;
  }, [symbol, bid, t]);

  if (state.status === 0 && !loading && trading.error) return <AccountsFailed />;
  if (loading || state.status === 0 || chartLayout.status === 'loading') return <TerminalSkeleton />;
  if (state.accounts.length === 0) return <NoAccount />;

  const watchlist = (
    <Watchlist
      items={items}
      status={catalogue.status}
      selected={symbol}
      onSelect={selectSymbol}
      favourites={favourites}
      onToggleFavourite={toggle}
      onRetry={catalogue.retry}
    />
  );
  const shortcuts = (
    <TradeShortcuts
      symbol={symbol}
      spec={spec}
      quote={quote}
      onTicket={(side) => {
        setPreset({ side, nonce: Date.now() });
        if (phone) setMobileTab('trade');
        else document.querySelector<HTMLElement>('[data-testid=ticket-submit]')?.focus();
      }}
    />
  );
  // A phone shows the active pane alone, without the layout switch.
  const chart = phone ? (
    <ChartPanel
      symbol={symbol}
      quote={quote}
      spec={spec}
      timeframe={timeframe}
      onTimeframe={(tf) => changeTimeframe(layout.active, tf)}
      klineColor={klineColor}
      settings={settings}
      historyVersion={historyVersion}
      quickTrade={false}
      tools={shortcuts}
    />
  ) : (
    <ChartLayout
      layout={layout}
      onKind={changeKind}
      onActive={activate}
      onTimeframe={changeTimeframe}
      quoteOf={quoteOf}
      specs={catalogue.specs}
      klineColor={klineColor}
      settings={settings}
      historyVersion={historyVersion}
      tools={shortcuts}
    />
  );
  const ticket = <OrderTicket symbol={symbol} spec={spec} quote={quote} preset={preset} />;
  const bottom = (
    <BottomPanel
      tab={bottomTab}
      onTab={setBottomTab}
      symbol={symbol}
      quotes={live}
      specs={catalogue.specs}
      historyVersion={historyVersion}
      layout={phone ? 'cards' : 'table'}
    />
  );

  if (phone) {
    const showBar = shownTab === 'chart';
    const digits = quote?.digits ?? 2;
    return (
      <main
        className="tr-mobile mk-scope"
        data-kline={klineColor}
        data-testid="trade-terminal"
        data-layout="phone"
      >
        <AccountBar compact />
        <div className="tr-mobile-tabs" role="tablist" aria-label={t('trade.title')}>
          {MOBILE_TABS.map((key) => (
            <button
              key={key}
              type="button"
              role="tab"
              aria-selected={mobileTab === key}
              className={`tr-mobile-tab${mobileTab === key ? ' active' : ''}`}
              onClick={() => setMobileTab(key)}
              data-testid={`mobile-tab-${key}`}
            >
              {t(`trade.mobile.${key}`)}
              {key === 'positions' && positions.length > 0 && (
                <span className="tr-count num">{positions.length}</span>
              )}
            </button>
          ))}
        </div>
        <div className={`tr-mobile-body tr-mobile-${shownTab}`}>
          {shownTab === 'quotes' && watchlist}
          {/* The chart stays mounted while another tab shows: coming back to it is instant, with no
              new chart to build and no candles to load (a tab switch took 0.5 s at 4x CPU). */}
          <div className="tr-mobile-keep" data-shown={shownTab === 'chart'}>
            {chart}
          </div>
          {shownTab === 'trade' && ticket}
          {shownTab === 'positions' && bottom}
        </div>
        {showBar && (
          <div className="tr-action-bar" data-testid="action-bar">
            {(['sell', 'buy'] as const).map((side) => (
              <button
                key={side}
                type="button"
                className={`tr-action tr-action-${side}`}
                onClick={() => {
                  setPreset({ side, nonce: Date.now() });
                  setMobileTab('trade');
                }}
                data-testid={`action-${side}`}
              >
                <span className="tr-action-label">{t(`trade.side.${side}`)}</span>{' '}
                <span className="num tr-action-price">
                  {quote ? formatDecimal(intl, side === 'buy' ? quote.ask : quote.bid, digits) : '—'}
                </span>
              </button>
            ))}
          </div>
        )}
      </main>
    );
  }

  return (
    <main
      className="tr-terminal mk-scope"
      data-kline={klineColor}
      data-testid="trade-terminal"
      data-layout="desktop"
    >
      <div className="tr-area-account">
        <AccountBar />
      </div>
      <aside className="tr-area-watch">{watchlist}</aside>
      <div className="tr-area-chart">{chart}</div>
      <aside className="tr-area-ticket" aria-label={t('trade.ticket.title')}>
        <h2 className="tr-panel-title">{t('trade.ticket.title')}</h2>
        {ticket}
      </aside>
      <div className="tr-area-bottom">{bottom}</div>
    </main>
  );
}

function TerminalSkeleton() {
  return (
    <main className="tr-terminal tr-skeleton" aria-busy="true" data-testid="trade-loading">
      <div className="tr-area-account">
        <div className="tr-account">
          <span className="skeleton tr-sk-switcher" />
          <span className="skeleton tr-sk-figures" />
        </div>
      </div>
      <aside className="tr-area-watch">
        <div className="skeleton tr-sk-block" />
      </aside>
      <div className="tr-area-chart">
        <div className="skeleton tr-sk-block" />
      </div>
      <aside className="tr-area-ticket">
        <div className="skeleton tr-sk-block" />
      </aside>
      <div className="tr-area-bottom">
        <div className="skeleton tr-sk-block" />
      </div>
    </main>
  );
}

/** The account list could not be loaded (network, server): say so and offer to try again. */
function AccountsFailed() {
  const { t } = useI18n();
  const { reload, error } = useTrading();
  const [busy, setBusy] = useState(false);
  return (
    <main className="tr-no-account" data-testid="trade-failed">
      <div className="tr-no-account-card" role="alert">
        <div className="empty-state-icon">
          <Icon name="alert" size={26} />
        </div>
        <h1>{t('trade.failed.title')}</h1>
        <p>{t(error ?? 'errors.network')}</p>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await reload();
            setBusy(false);
          }}
        >
          {busy ? <span className="spinner tr-spinner" /> : t('common.retry')}
        </button>
      </div>
    </main>
  );
}

/** No trading account yet: open a demo account at once, or choose another kind. */
function NoAccount() {
  const { t, lang, formatNumber } = useI18n();
  const { reload } = useTrading();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One key per attempt: kept when the answer was lost, so a retry cannot open two accounts.
  const [key, setKey] = useState(newIdempotencyKey);

  const openDemo = async () => {
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'accountcreate',
      { account_type: 1, trade_type: 2, leverage: 100, idempotencyKey: key },
      lang,
    );
    if (answer.succeed) await reload();
    else setError(failureText(answer, t));
    if (answer.code !== 0) setKey(newIdempotencyKey());
    setBusy(false);
  };

  return (
    <main className="tr-no-account" data-testid="trade-empty">
      <div className="tr-no-account-card">
        <div className="empty-state-icon">
          <Icon name="wallet" size={26} />
        </div>
        <h1>{t('trade.empty.title')}</h1>
        <p>{t('trade.empty.text', { amount: formatNumber(100_000) })}</p>
        <div className="tr-no-account-actions">
          <button
            type="button"
            className="btn btn-primary"
            onClick={openDemo}
            disabled={busy}
            data-testid="open-demo"
          >
            {busy ? <span className="spinner tr-spinner" /> : t('trade.empty.openDemo')}
          </button>
          <Link
            className="btn btn-secondary"
            to={paths.personalCenter(lang, 'account/create')}
            data-testid="open-account-link"
          >
            {t('trade.empty.choose')}
          </Link>
        </div>
        {error && (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </main>
  );
}

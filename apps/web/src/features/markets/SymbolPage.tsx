import './markets.css';
import type { TRouteOutput } from '@broker/contracts/routes';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLoaderData, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { ChartOverlay, TimeframeButtons } from '../../components/ChartParts';
import { FlashPrice } from '../../components/FlashPrice';
import { Icon } from '../../components/Icon';
import { StarButton } from '../../components/StarButton';
import { fetchData, RouteCallError } from '../../lib/api';
import { TIMEFRAMES } from '../../lib/candle-chart';
import { useFavourites } from '../../lib/favourites';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal, formatPercent, useKlineColor } from '../../lib/market-format';
import {
  latestQuote,
  type TTimeframe,
  useCandles,
  useMergedQuotes,
  usePolling,
  useQuotes,
} from '../../lib/market-stream';
import { CandleChart } from './CandleChart';
import { ClosedBadge, ErrorCard, StreamStatus } from './parts';
import { summarizeSessions, type TSession } from './sessions';

const DEFAULT_TIMEFRAME: TTimeframe = 'H1';
const STAT_PERIODS = ['1D', '1W', '1M', '3M'] as const;

type TDetail = TRouteOutput<'currencydetail'>;
type TInfo = TDetail['info'];

function parseTimeframe(value: string | null): TTimeframe {
  return TIMEFRAMES.find((tf) => tf === value) ?? DEFAULT_TIMEFRAME;
}

/** Weekday (0 = Sunday) and minute of the day of a moment in the reader's time zone. */
function localDay(ms: number): { day: number; minute: number } {
  const date = new Date(ms);
  return { day: date.getDay(), minute: date.getHours() * 60 + date.getMinutes() };
}

function SessionLines({ sessions }: { sessions: readonly TSession[] }) {
  const { t, formatDate } = useI18n();
  const summary = useMemo(() => summarizeSessions(sessions, Date.now(), localDay), [sessions]);
  const time = (ms: number) => formatDate(ms, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const day = (ms: number) => formatDate(ms, { weekday: 'short' });
  const dayTime = (ms: number) => `${day(ms)} ${time(ms)}`;
  if (summary.kind === 'always') return <span>{t('markets.spec.alwaysOpen')}</span>;
  if (summary.kind === 'range') {
    return (
      <span className="mk-sessions">
        <span>
          {dayTime(summary.from)} – {dayTime(summary.to)}
        </span>
        {summary.breakFrom !== undefined && summary.breakTo !== undefined && (
          <span className="mk-muted">
            {t('markets.spec.dailyBreak')} {time(summary.breakFrom)} – {time(summary.breakTo)}
          </span>
        )}
      </span>
    );
  }
  if (summary.kind === 'days') {
    return (
      <span>
        {day(summary.firstDay)} – {day(summary.lastDay)} {time(summary.from)} – {time(summary.to)}
      </span>
    );
  }
  return (
    <span className="mk-sessions">
      {summary.windows.map((w) => (
        <span key={w.from}>
          {dayTime(w.from)} – {dayTime(w.to)}
        </span>
      ))}
    </span>
  );
}

function SpecCard({ info }: { info: TInfo }) {
  const { t, intl, formatNumber } = useI18n();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const rows: [string, ReactNode][] = [
    [t('markets.spec.contractSize'), formatDecimal(intl, info.contractSize)],
    [t('markets.spec.digits'), formatNumber(info.digits)],
    [t('markets.spec.minVolume'), formatDecimal(intl, info.minVolume)],
    [t('markets.spec.volumeStep'), formatDecimal(intl, info.volumeStep)],
    [t('markets.spec.maxVolume'), formatDecimal(intl, info.maxVolume)],
    [t('markets.spec.leverage'), `1:${formatNumber(info.defaultLeverage)}`],
    [t('markets.spec.marginCurrency'), info.marginCurrency],
    [t('markets.spec.profitCurrency'), info.profitCurrency],
    [
      t('markets.spec.swapLong'),
      <span key="l" className={changeClass(info.swapLong)}>
        {formatDecimal(intl, info.swapLong, undefined, { sign: true })}
      </span>,
    ],
    [
      t('markets.spec.swapShort'),
      <span key="s" className={changeClass(info.swapShort)}>
        {formatDecimal(intl, info.swapShort, undefined, { sign: true })}
      </span>,
    ],
  ];
  return (
    <section className="mk-card" data-testid="spec-card">
      <h2 className="mk-card-title">{t('markets.spec.title')}</h2>
      <dl className="mk-spec">
        {rows.map(([label, value]) => (
          <div key={label} className="mk-spec-row">
            <dt>{label}</dt>
            <dd className="num">{value}</dd>
          </div>
        ))}
        <div className="mk-spec-row mk-spec-sessions">
          <dt>
            {t('markets.spec.sessions')}
            <span className="mk-zone">{zone}</span>
          </dt>
          <dd className="num">
            <SessionLines sessions={info.sessions} />
          </dd>
        </div>
      </dl>
    </section>
  );
}

function StatsCard({ symbol, digits }: { symbol: string; digits: number }) {
  const { t, lang, intl } = useI18n();
  const fetcher = useCallback(() => fetchData('currencystat', { symbol }, lang), [symbol, lang]);
  const stats = usePolling(fetcher, `${symbol}|${lang}`);
  return (
    <section className="mk-card" data-testid="stats-card">
      <h2 className="mk-card-title">{t('markets.stats.title')}</h2>
      {stats.error && !stats.data ? (
        <p className="mk-card-note">
          {t('markets.stats.error')}{' '}
          <button type="button" className="mk-link-button" onClick={stats.retry}>
            {t('common.retry')}
          </button>
        </p>
      ) : (
        <table className="mk-stats">
          <thead>
            <tr>
              <th scope="col">{t('markets.stats.period')}</th>
              <th scope="col">{t('markets.col.high')}</th>
              <th scope="col">{t('markets.col.low')}</th>
              <th scope="col">{t('markets.col.changePercent')}</th>
            </tr>
          </thead>
          <tbody>
            {STAT_PERIODS.map((period) => {
              const range = stats.data?.ranges.find((r) => r.period === period);
              return (
                <tr key={period}>
                  <th scope="row">{t(`markets.stats.period.${period}`)}</th>
                  {range ? (
                    <>
                      <td className="num">{formatDecimal(intl, range.high, digits)}</td>
                      <td className="num">{formatDecimal(intl, range.low, digits)}</td>
                      <td className={`num ${changeClass(range.changePercent)}`}>
                        {formatPercent(intl, range.changePercent)}
                      </td>
                    </>
                  ) : (
                    <>
                      <td>
                        <span className="skeleton mk-sk-num" />
                      </td>
                      <td>
                        <span className="skeleton mk-sk-num" />
                      </td>
                      <td>
                        <span className="skeleton mk-sk-short" />
                      </td>
                    </>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function RelatedCard({ symbol }: { symbol: string }) {
  const { t, lang, intl } = useI18n();
  const [items, setItems] = useState<TRouteOutput<'currencyother'> | null>(null);
  useEffect(() => {
    let cancelled = false;
    setItems(null);
    fetchData('currencyother', { symbol }, lang).then(
      (data) => !cancelled && setItems(data),
      () => !cancelled && setItems([]),
    );
    return () => {
      cancelled = true;
    };
  }, [symbol, lang]);
  const symbols = useMemo(() => (items ?? []).map((q) => q.symbol), [items]);
  const quotes = useMergedQuotes(items ?? [], useQuotes(symbols));
  if (items && items.length === 0) return null;
  return (
    <section className="mk-card" data-testid="related-card">
      <h2 className="mk-card-title">{t('markets.related.title')}</h2>
      <ul className="mk-related">
        {items === null
          ? Array.from({ length: 5 }, (_, i) => (
              <li key={i} className="mk-related-row" aria-hidden="true">
                <span className="mk-sk-stack">
                  <span className="skeleton mk-sk-symbol" />
                  <span className="skeleton mk-sk-name" />
                </span>
                <span className="skeleton mk-sk-num" />
              </li>
            ))
          : quotes.slice(0, 12).map((quote) => (
              <li key={quote.symbol}>
                <Link
                  to={paths.symbol(lang, quote.symbol)}
                  className={`mk-related-row${quote.status === 'closed' ? ' is-closed' : ''}`}
                >
                  <span className="mk-related-name">
                    <span className="mk-symbol">{quote.symbol}</span>
                    <span className="mk-name">{quote.name}</span>
                  </span>
                  <span className="mk-related-quote">
                    <FlashPrice value={quote.bid} text={formatDecimal(intl, quote.bid, quote.digits)} />
                    <span className={`mk-pct num ${changeClass(quote.change)}`}>
                      {formatPercent(intl, quote.changePercent)}
                    </span>
                  </span>
                </Link>
              </li>
            ))}
      </ul>
    </section>
  );
}

/** One symbol: live header, candlestick chart, specification, statistics and related symbols. */
export function Component() {
  const { symbol } = useLoaderData() as { symbol: string };
  const { t, lang, intl, formatDate, formatNumber } = useI18n();
  const klineColor = useKlineColor();
  const [searchParams, setSearchParams] = useSearchParams();
  const timeframe = parseTimeframe(searchParams.get('tf'));
  const { favourites, toggle } = useFavourites();
  const [detail, setDetail] = useState<{
    status: 'loading' | 'ready' | 'error';
    data: TDetail | null;
    code?: number;
  }>({ status: 'loading', data: null });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt reloads after an error
  useEffect(() => {
    let cancelled = false;
    setDetail((d) => (d.data?.info.symbol === symbol ? d : { status: 'loading', data: null }));
    fetchData('currencydetail', { symbol }, lang).then(
      (data) => !cancelled && setDetail({ status: 'ready', data }),
      (error: unknown) =>
        !cancelled &&
        setDetail({ status: 'error', data: null, code: error instanceof RouteCallError ? error.code : 0 }),
    );
    return () => {
      cancelled = true;
    };
  }, [symbol, lang, attempt]);

  const live = useQuotes([symbol])[symbol];
  const loadedQuote = detail.data?.quote ?? null;
  const quote = loadedQuote ? latestQuote(loadedQuote, live) : (live ?? null);
  const info = detail.data?.info ?? null;
  const name = info?.name ?? '';
  const closed = quote?.status === 'closed';

  // The session opened or closed while the page was open: ask once more for the next opening time.
  const refreshedFor = useRef<string | null>(null);
  const liveStatus = live?.status;
  const loadedStatus = loadedQuote?.status;
  useEffect(() => {
    if (!liveStatus || !loadedStatus || liveStatus === loadedStatus) return;
    if (refreshedFor.current === liveStatus) return;
    refreshedFor.current = liveStatus;
    setAttempt((n) => n + 1);
  }, [liveStatus, loadedStatus]);

  const candles = useCandles(symbol, timeframe, lang);
  const digits = candles.digits ?? info?.digits ?? quote?.digits ?? 2;

  const titleBid = quote ? formatDecimal(intl, quote.bid, quote.digits) : null;
  useEffect(() => {
    if (!titleBid) return;
    document.title = `${symbol} ${titleBid}${name ? ` · ${name}` : ''} · ${t('brand.name')}`;
  }, [symbol, titleBid, name, t]);

  const selectTimeframe = (next: TTimeframe) =>
    setSearchParams(
      (params) => {
        const out = new URLSearchParams(params);
        if (next === DEFAULT_TIMEFRAME) out.delete('tf');
        else out.set('tf', next);
        return out;
      },
      { replace: true, preventScrollReset: true },
    );

  if (detail.status === 'error' && detail.code === -3003) {
    return (
      <div className="mk-page mk-scope" data-kline={klineColor}>
        <div className="mk-container">
          <div className="mk-card">
            <div className="empty-state">
              <div className="empty-state-icon">
                <Icon name="alert" size={26} />
              </div>
              <h3>{t('errors.-3003')}</h3>
              <Link to={paths.markets(lang)} className="btn btn-secondary btn-sm">
                {t('markets.back')}
              </Link>
            </div>
          </div>
        </div>
      </div>
    );
  }

  const price = (value: string) => formatDecimal(intl, value, quote?.digits ?? digits);
  const trend = quote ? changeClass(quote.change) : '';

  return (
    <div className="mk-page mk-scope" data-kline={klineColor} data-testid="symbol-page" data-symbol={symbol}>
      <div className="mk-container">
        <nav className="mk-crumbs" aria-label={t('markets.breadcrumb')}>
          <Link to={paths.markets(lang)}>
            <Icon name="arrowLeft" size={16} />
            {t('markets.back')}
          </Link>
          <StreamStatus />
        </nav>

        <header className={`mk-symbol-head${closed ? ' is-closed' : ''}`} data-status={quote?.status ?? ''}>
          <div className="mk-symbol-title">
            <div className="mk-symbol-line">
              <h1>{symbol}</h1>
              <StarButton active={favourites.includes(symbol)} symbol={symbol} onToggle={toggle} />
              {info && <span className="badge">{t(`markets.tab.${info.category}`)}</span>}
              {quote &&
                (closed ? (
                  <ClosedBadge />
                ) : (
                  <span className="mk-open">
                    <span className="mk-open-dot" aria-hidden="true" />
                    {t('markets.status.open')}
                  </span>
                ))}
            </div>
            {info ? <p className="mk-symbol-name">{name}</p> : <span className="skeleton mk-sk-title" />}
            {quote ? (
              <div className="mk-symbol-price">
                <FlashPrice value={quote.bid} text={price(quote.bid)} tone className="mk-big-price" />
                <span className={`mk-big-change num ${trend}`}>
                  {formatDecimal(intl, quote.change, quote.digits, { sign: true })}
                  <span className="mk-big-pct">{formatPercent(intl, quote.changePercent)}</span>
                </span>
              </div>
            ) : (
              <span className="skeleton mk-sk-price" />
            )}
            {closed && detail.data?.nextOpen && (
              <p className="mk-next-open" data-testid="next-open">
                <Icon name="clock" size={15} />
                {t('markets.nextOpen')}{' '}
                <time dateTime={new Date(detail.data.nextOpen).toISOString()}>
                  {formatDate(detail.data.nextOpen, {
                    weekday: 'short',
                    day: 'numeric',
                    month: 'short',
                    hour: '2-digit',
                    minute: '2-digit',
                  })}
                </time>
              </p>
            )}
          </div>
          <dl className="mk-quote-grid">
            <div>
              <dt>{t('markets.col.bid')}</dt>
              <dd data-testid="symbol-bid">
                {quote ? <FlashPrice value={quote.bid} text={price(quote.bid)} /> : '—'}
              </dd>
            </div>
            <div>
              <dt>{t('markets.col.ask')}</dt>
              <dd data-testid="symbol-ask">
                {quote ? <FlashPrice value={quote.ask} text={price(quote.ask)} /> : '—'}
              </dd>
            </div>
            <div>
              <dt>{t('markets.col.spread')}</dt>
              <dd className="num">{quote ? formatNumber(quote.spread) : '—'}</dd>
            </div>
            <div>
              <dt>{t('markets.col.high')}</dt>
              <dd className="num">{quote ? price(quote.high) : '—'}</dd>
            </div>
            <div>
              <dt>{t('markets.col.low')}</dt>
              <dd className="num">{quote ? price(quote.low) : '—'}</dd>
            </div>
            <div>
              <dt>{t('markets.prevClose')}</dt>
              <dd className="num">{quote ? price(quote.previousClose) : '—'}</dd>
            </div>
          </dl>
        </header>

        {detail.status === 'error' && (
          <ErrorCard
            title={t('markets.error.title')}
            text={t('markets.error.text')}
            onRetry={() => setAttempt((n) => n + 1)}
          />
        )}

        <div className="mk-symbol-grid">
          <div className="mk-main-col">
            <section className="mk-card mk-chart-card" aria-label={t('markets.chart.title')}>
              <div className="mk-chart-toolbar">
                <TimeframeButtons scope="mk" timeframe={timeframe} onTimeframe={selectTimeframe} />
              </div>
              <div className="mk-chart-body">
                <CandleChart
                  candles={candles.candles}
                  loading={candles.status === 'loading'}
                  digits={digits}
                  timeframe={timeframe}
                  klineColor={klineColor}
                  onNeedOlder={candles.loadOlder}
                  loadingOlder={candles.loadingOlder}
                />
                <ChartOverlay scope="mk" candles={candles} />
              </div>
            </section>
            {info ? (
              <SpecCard info={info} />
            ) : (
              detail.status === 'loading' && <section className="mk-card mk-card-skeleton skeleton" />
            )}
          </div>
          <aside className="mk-side-col">
            <StatsCard symbol={symbol} digits={digits} />
            <RelatedCard symbol={symbol} />
          </aside>
        </div>
      </div>
    </div>
  );
}

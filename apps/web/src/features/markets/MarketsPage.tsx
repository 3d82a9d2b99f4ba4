import './markets.css';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLoaderData, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { FlashPrice } from '../../components/FlashPrice';
import { Icon } from '../../components/Icon';
import { StarButton } from '../../components/StarButton';
import { callRoute } from '../../lib/api';
import { useFavourites } from '../../lib/favourites';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal, formatPercent, useKlineColor } from '../../lib/market-format';
import { type TNamedQuote, useMergedQuotes, useQuotes } from '../../lib/market-stream';
import { ClosedBadge, ErrorCard, StreamStatus } from './parts';

export const MARKET_TABS = ['all', 'forex', 'metals', 'energy', 'indices', 'crypto', 'favourites'] as const;
export type TMarketTab = (typeof MARKET_TABS)[number];

function parseTab(value: string | null): TMarketTab {
  return MARKET_TABS.find((tab) => tab === value) ?? 'all';
}

/** Search text against a symbol and its name: case, spaces and "/" do not matter ("eur/usd"). */
export function matchesSearch(item: { symbol: string; name: string }, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const compact = q.replace(/[\s/]+/g, '');
  return (
    item.symbol.toLowerCase().includes(compact) ||
    item.name.toLowerCase().includes(q) ||
    item.name
      .toLowerCase()
      .replace(/[\s/]+/g, '')
      .includes(compact)
  );
}

interface TListState {
  status: 'loading' | 'ready' | 'error';
  items: TNamedQuote[];
  hot: TNamedQuote[];
}

const QuoteRow = memo(function QuoteRow({
  quote,
  favourite,
  onToggle,
}: {
  quote: TNamedQuote;
  favourite: boolean;
  onToggle(symbol: string): void;
}) {
  const { t, lang, intl, formatNumber } = useI18n();
  const closed = quote.status === 'closed';
  const trend = changeClass(quote.change);
  const price = (value: string) => formatDecimal(intl, value, quote.digits);
  return (
    <tr
      className={`mk-row${closed ? ' is-closed' : ''}`}
      data-symbol={quote.symbol}
      data-status={quote.status}
    >
      <td className="mk-col-symbol">
        <div className="mk-symbol-cell">
          <StarButton active={favourite} symbol={quote.symbol} onToggle={onToggle} />
          <Link to={paths.symbol(lang, quote.symbol)} className="mk-row-link" data-testid="symbol-link">
            <span className="mk-symbol-top">
              <span className="mk-symbol">{quote.symbol}</span>
              {closed && <span className="mk-closed-inline">{t('markets.status.closed')}</span>}
            </span>
            <span className="mk-name">{quote.name}</span>
          </Link>
        </div>
      </td>
      <td className="mk-col-num mk-col-bid">
        <FlashPrice value={quote.bid} text={price(quote.bid)} className="mk-price" />
      </td>
      <td className="mk-col-num mk-col-ask mk-hide-sm">
        <FlashPrice value={quote.ask} text={price(quote.ask)} className="mk-price" />
      </td>
      <td className="mk-col-num mk-hide-sm mk-muted num">{formatNumber(quote.spread)}</td>
      <td className="mk-col-num mk-col-pct">
        <span className={`mk-pct num ${trend}`}>{formatPercent(intl, quote.changePercent)}</span>
      </td>
      <td className={`mk-col-num mk-hide-sm num ${trend}`}>
        {formatDecimal(intl, quote.change, quote.digits, { sign: true })}
      </td>
      <td className="mk-col-num mk-hide-md mk-muted num">{price(quote.high)}</td>
      <td className="mk-col-num mk-hide-md mk-muted num">{price(quote.low)}</td>
      <td className="mk-col-status mk-hide-sm">
        {closed ? (
          <ClosedBadge />
        ) : (
          <span className="mk-open">
            <span className="mk-open-dot" aria-hidden="true" />
            {t('markets.status.open')}
          </span>
        )}
      </td>
    </tr>
  );
});

function SkeletonRows() {
  return (
    <>
      {Array.from({ length: 10 }, (_, i) => (
        <tr key={i} className="mk-row mk-row-skeleton">
          <td className="mk-col-symbol">
            <div className="mk-symbol-cell">
              <span className="skeleton mk-sk-star" />
              <span className="mk-sk-stack">
                <span className="skeleton mk-sk-symbol" />
                <span className="skeleton mk-sk-name" />
              </span>
            </div>
          </td>
          <td className="mk-col-num">
            <span className="skeleton mk-sk-num" />
          </td>
          <td className="mk-col-num mk-hide-sm">
            <span className="skeleton mk-sk-num" />
          </td>
          <td className="mk-col-num mk-hide-sm">
            <span className="skeleton mk-sk-short" />
          </td>
          <td className="mk-col-num">
            <span className="skeleton mk-sk-short" />
          </td>
          <td className="mk-col-num mk-hide-sm">
            <span className="skeleton mk-sk-short" />
          </td>
          <td className="mk-col-num mk-hide-md">
            <span className="skeleton mk-sk-num" />
          </td>
          <td className="mk-col-num mk-hide-md">
            <span className="skeleton mk-sk-num" />
          </td>
          <td className="mk-col-status mk-hide-sm">
            <span className="skeleton mk-sk-short" />
          </td>
        </tr>
      ))}
    </>
  );
}

function HotStrip({ items, loading }: { items: TNamedQuote[]; loading: boolean }) {
  const { t, lang, intl } = useI18n();
  return (
    <section className="mk-hot" aria-label={t('markets.hot')} data-testid="hot-strip">
      <h2 className="mk-hot-title">
        <Icon name="bolt" size={16} />
        {t('markets.hot')}
      </h2>
      <div className="mk-hot-list">
        {loading
          ? Array.from({ length: 6 }, (_, i) => (
              // Each bar sits in a line of the loaded card's own type (`mk-sk-line`: one line high),
              // so the strip keeps its height when the quotes arrive.
              <div key={i} className="mk-hot-card" aria-hidden="true">
                <span className="mk-hot-head">
                  <span className="mk-symbol mk-sk-line">
                    <span className="skeleton mk-sk-symbol" />
                  </span>
                </span>
                <span className="mk-hot-price mk-sk-line">
                  <span className="skeleton mk-sk-num" />
                </span>
                <span className="mk-name mk-sk-line">
                  <span className="skeleton mk-sk-name" />
                </span>
              </div>
            ))
          : items.map((quote) => {
              const trend = changeClass(quote.change);
              return (
                <Link
                  key={quote.symbol}
                  to={paths.symbol(lang, quote.symbol)}
                  className={`mk-hot-card${quote.status === 'closed' ? ' is-closed' : ''}`}
                  data-symbol={quote.symbol}
                >
                  <span className="mk-hot-head">
                    <span className="mk-symbol">{quote.symbol}</span>
                    <span className={`mk-pct num ${trend}`}>{formatPercent(intl, quote.changePercent)}</span>
                  </span>
                  <FlashPrice
                    value={quote.bid}
                    text={formatDecimal(intl, quote.bid, quote.digits)}
                    tone
                    className="mk-hot-price"
                  />
                  <span className="mk-name">{quote.name}</span>
                </Link>
              );
            })}
      </div>
    </section>
  );
}

/** Markets: hot list, category tabs, search and the live quotes table. */
export function Component() {
  const { t, lang } = useI18n();
  const klineColor = useKlineColor();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = parseTab(searchParams.get('tab'));
  const [query, setQuery] = useState('');
  const { favourites, toggle } = useFavourites();
  // The server's render comes with the lists (marketsLoader); a navigation in the browser loads them.
  const served = (useLoaderData() as { markets?: Omit<TListState, 'status'> } | null)?.markets;
  const [list, setList] = useState<TListState>(() =>
    served ? { status: 'ready', ...served } : { status: 'loading', items: [], hot: [] },
  );
  const [attempt, setAttempt] = useState(0);
  // The served lists are the first effect's: it has nothing to load.
  const servedFirst = useRef(served !== undefined);

  // Loads the lists, again after an error (`attempt`) and in another language.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt reloads after an error
  useEffect(() => {
    if (servedFirst.current) {
      servedFirst.current = false;
      return;
    }
    let cancelled = false;
    setList((s) => ({ ...s, status: 'loading' }));
    void Promise.all([callRoute('currencyall', {}, lang), callRoute('currencyhot', {}, lang)]).then(
      ([all, hot]) => {
        if (cancelled) return;
        if (!all.succeed || !all.Data) {
          setList({ status: 'error', items: [], hot: [] });
          return;
        }
        setList({ status: 'ready', items: all.Data, hot: hot.succeed && hot.Data ? hot.Data : [] });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [lang, attempt]);

  const symbols = useMemo(() => list.items.map((q) => q.symbol), [list.items]);
  const live = useQuotes(symbols);
  const quotes = useMergedQuotes(list.items, live);
  const bySymbol = useMemo(() => new Map(quotes.map((q) => [q.symbol, q])), [quotes]);
  const hot = useMemo(() => list.hot.map((q) => bySymbol.get(q.symbol) ?? q), [list.hot, bySymbol]);
  const favouriteSet = useMemo(() => new Set(favourites), [favourites]);
  const rows = quotes.filter(
    (q) =>
      (tab === 'all' || (tab === 'favourites' ? favouriteSet.has(q.symbol) : q.category === tab)) &&
      matchesSearch(q, query),
  );

  const selectTab = useCallback(
    (next: TMarketTab) =>
      setSearchParams(
        (params) => {
          const out = new URLSearchParams(params);
          if (next === 'all') out.delete('tab');
          else out.set('tab', next);
          return out;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setSearchParams],
  );

  const emptyFavourites = tab === 'favourites' && favouriteSet.size === 0 && !query.trim();

  return (
    <div className="mk-page mk-scope" data-kline={klineColor} data-testid="markets-page">
      <div className="mk-container">
        <header className="mk-head">
          <div>
            <h1>{t('markets.title')}</h1>
            <p>{t('markets.subtitle')}</p>
          </div>
          <StreamStatus />
        </header>

        {list.status !== 'error' && (list.status === 'loading' || hot.length > 0) && (
          <HotStrip items={hot} loading={list.status === 'loading'} />
        )}

        <div className="mk-toolbar">
          <div className="mk-tabs" role="tablist" aria-label={t('markets.tabs.label')}>
            {MARKET_TABS.map((key) => (
              <button
                key={key}
                type="button"
                role="tab"
                aria-selected={tab === key}
                className={`mk-tab${tab === key ? ' active' : ''}`}
                data-tab={key}
                onClick={() => selectTab(key)}
              >
                {key === 'favourites' && <Icon name="star" size={14} />}
                {t(`markets.tab.${key}`)}
              </button>
            ))}
          </div>
          <label className="mk-search">
            <Icon name="search" size={16} />
            <input
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder={t('markets.search')}
              aria-label={t('markets.search')}
              maxLength={40}
              data-testid="markets-search"
              autoComplete="off"
              spellCheck={false}
            />
          </label>
        </div>

        <div className="mk-table-card">
          {list.status === 'error' ? (
            <ErrorCard
              title={t('markets.error.title')}
              text={t('markets.error.text')}
              onRetry={() => setAttempt((n) => n + 1)}
            />
          ) : (
            <table className="mk-table" aria-busy={list.status === 'loading'}>
              <thead>
                <tr>
                  <th className="mk-col-symbol" scope="col">
                    {t('markets.col.symbol')}
                  </th>
                  <th className="mk-col-num" scope="col">
                    {t('markets.col.bid')}
                  </th>
                  <th className="mk-col-num mk-hide-sm" scope="col">
                    {t('markets.col.ask')}
                  </th>
                  <th className="mk-col-num mk-hide-sm" scope="col">
                    {t('markets.col.spread')}
                  </th>
                  <th className="mk-col-num mk-col-pct" scope="col">
                    {t('markets.col.changePercent')}
                  </th>
                  <th className="mk-col-num mk-hide-sm" scope="col">
                    {t('markets.col.change')}
                  </th>
                  <th className="mk-col-num mk-hide-md" scope="col">
                    {t('markets.col.high')}
                  </th>
                  <th className="mk-col-num mk-hide-md" scope="col">
                    {t('markets.col.low')}
                  </th>
                  <th className="mk-col-status mk-hide-sm" scope="col">
                    {t('markets.col.status')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.status === 'loading' ? (
                  <SkeletonRows />
                ) : (
                  rows.map((quote) => (
                    <QuoteRow
                      key={quote.symbol}
                      quote={quote}
                      favourite={favouriteSet.has(quote.symbol)}
                      onToggle={toggle}
                    />
                  ))
                )}
              </tbody>
            </table>
          )}
          {list.status === 'ready' && rows.length === 0 && (
            <div className="empty-state mk-empty" data-testid="markets-empty">
              <div className="empty-state-icon">
                <Icon name={emptyFavourites ? 'star' : 'search'} size={26} />
              </div>
              <h3>{t(emptyFavourites ? 'markets.favourites.emptyTitle' : 'markets.empty.title')}</h3>
              <p>{t(emptyFavourites ? 'markets.favourites.emptyText' : 'markets.empty.text')}</p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

import { memo, useMemo, useState } from 'react';
import { FlashPrice } from '../../components/FlashPrice';
import { Icon } from '../../components/Icon';
import { StarButton } from '../../components/StarButton';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal, formatPercent } from '../../lib/market-format';
import { staleSymbols, type TNamedQuote, useStreamHealth } from '../../lib/market-stream';

export const WATCH_TABS = ['favourites', 'all', 'forex', 'metals', 'energy', 'indices', 'crypto'] as const;
export type TWatchTab = (typeof WATCH_TABS)[number];

/**
 * How well search text matches a symbol and its name, best first: 0 the symbol starts with it, 1 the
 * symbol contains it, 2 the name does; null no match. Case, spaces and "/" do not matter ("btc/usdt").
 */
export function queryRank(item: { symbol: string; name: string }, query: string): number | null {
  const q = query.trim().toLowerCase();
  if (!q) return 0;
  const compact = q.replace(/[\s/]+/g, '');
  const symbol = item.symbol.toLowerCase();
  if (symbol.startsWith(compact)) return 0;
  if (symbol.includes(compact)) return 1;
  const name = item.name.toLowerCase();
  return name.includes(q) || name.replace(/[\s/]+/g, '').includes(compact) ? 2 : null;
}

/** The items matching the search text, symbol matches before name matches, otherwise in list order. */
export function searchItems<T extends { symbol: string; name: string }>(
  items: readonly T[],
  query: string,
): T[] {
  if (!query.trim()) return [...items];
  return items
    .map((item, index) => ({ item, index, rank: queryRank(item, query) }))
    .filter((x): x is { item: T; index: number; rank: number } => x.rank !== null)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((x) => x.item);
}

const Row = memo(function Row({
  quote,
  selected,
  favourite,
  stale,
  onSelect,
  onToggle,
}: {
  quote: TNamedQuote;
  selected: boolean;
  favourite: boolean;
  /** Not ticked for a while with the price stream down: the prices may be out of date. */
  stale: boolean;
  onSelect(symbol: string): void;
  onToggle(symbol: string): void;
}) {
  const { t, intl } = useI18n();
  const closed = quote.status === 'closed';
  const price = (v: string) => formatDecimal(intl, v, quote.digits);
  return (
    <li
      className={`tr-watch-row${selected ? ' selected' : ''}${closed ? ' is-closed' : ''}${stale ? ' is-stale' : ''}`}
      data-symbol={quote.symbol}
      data-status={quote.status}
      data-stale={stale ? 'true' : undefined}
      title={stale ? t('trade.chart.stream.stale') : undefined}
    >
      <StarButton active={favourite} symbol={quote.symbol} onToggle={onToggle} />
      <button
        type="button"
        className="tr-watch-main"
        onClick={() => onSelect(quote.symbol)}
        aria-current={selected ? 'true' : undefined}
        data-testid="watch-row"
      >
        <span className="tr-watch-name">
          <span className="tr-watch-symbol">{quote.symbol}</span>
          <span className="tr-watch-sub" title={quote.name}>
            {closed ? t('markets.status.closed') : quote.name}
          </span>
        </span>
        <FlashPrice value={quote.bid} text={price(quote.bid)} className="tr-watch-price" />
        <FlashPrice value={quote.ask} text={price(quote.ask)} className="tr-watch-price" />
        <span className={`tr-watch-pct num ${changeClass(quote.change)}`}>
          {formatPercent(intl, quote.changePercent)}
        </span>
      </button>
    </li>
  );
});

/** Symbols to trade: search, categories and favourites, live bid and ask with change %. */
export function Watchlist({
  items,
  status,
  selected,
  onSelect,
  favourites,
  onToggleFavourite,
  onRetry,
}: {
  items: readonly TNamedQuote[];
  status: 'loading' | 'ready' | 'error';
  selected: string;
  onSelect(symbol: string): void;
  favourites: readonly string[];
  onToggleFavourite(symbol: string): void;
  onRetry(): void;
}) {
  const { t } = useI18n();
  const [tab, setTab] = useState<TWatchTab>('all');
  const [query, setQuery] = useState('');
  const favouriteSet = useMemo(() => new Set(favourites), [favourites]);
  const rows = searchItems(
    items.filter(
      (q) => tab === 'all' || (tab === 'favourites' ? favouriteSet.has(q.symbol) : q.category === tab),
    ),
    query,
  );
  const { down, now } = useStreamHealth();
  const stale = staleSymbols(
    rows.map((q) => q.symbol),
    down,
    now,
  );

  return (
    <section className="tr-watch" aria-label={t('trade.watch.title')} data-testid="watchlist">
      <div className="tr-watch-head">
        <label className="tr-search">
          <Icon name="search" size={15} />
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('markets.search')}
            aria-label={t('markets.search')}
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            data-testid="watch-search"
          />
        </label>
        <div className="tr-watch-tabs" role="tablist" aria-label={t('markets.tabs.label')}>
          {WATCH_TABS.map((key) => (
            <button
              key={key}
              type="button"
              role="tab"
              aria-selected={tab === key}
              className={`tr-chip${tab === key ? ' active' : ''}`}
              onClick={() => setTab(key)}
              data-tab={key}
              title={t(`markets.tab.${key}`)}
            >
              {key === 'favourites' ? <Icon name="star" size={13} /> : t(`markets.tab.${key}`)}
            </button>
          ))}
        </div>
      </div>
      {/* One set of columns for the names and every row (a subgrid): the change column is as wide as
          its name or its widest value, and the symbol column takes what is left. */}
      <div className="tr-watch-table">
        <div className="tr-watch-cols" aria-hidden="true">
          <span className="tr-watch-col-name">{t('markets.col.symbol')}</span>
          <span>{t('markets.col.bid')}</span>
          <span>{t('markets.col.ask')}</span>
          <span>{t('markets.col.changePercent')}</span>
        </div>
        {status === 'error' ? (
          <div className="tr-empty">
            <p>{t('markets.error.title')}</p>
            <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
              {t('common.retry')}
            </button>
          </div>
        ) : status === 'loading' && items.length === 0 ? (
          <ul className="tr-watch-list" aria-busy="true">
            {Array.from({ length: 14 }, (_, i) => (
              <li key={i} className="tr-watch-row tr-watch-skeleton">
                <span className="skeleton tr-sk-symbol" />
                <span className="skeleton tr-sk-num" />
                <span className="skeleton tr-sk-num" />
              </li>
            ))}
          </ul>
        ) : rows.length === 0 ? (
          <div className="tr-empty" data-testid="watch-empty">
            <Icon name={tab === 'favourites' && !query ? 'star' : 'search'} size={22} />
            <p>
              {t(tab === 'favourites' && !query ? 'markets.favourites.emptyText' : 'markets.empty.title')}
            </p>
          </div>
        ) : (
          <ul className="tr-watch-list">
            {rows.map((quote) => (
              <Row
                key={quote.symbol}
                quote={quote}
                selected={quote.symbol === selected}
                favourite={favouriteSet.has(quote.symbol)}
                stale={stale.has(quote.symbol)}
                onSelect={onSelect}
                onToggle={onToggleFavourite}
              />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

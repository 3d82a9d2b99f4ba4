import type { TMarketInstrument, TMarketQuote } from '@broker/contracts/admin/market-routes';
import { useEffect, useMemo, useState } from 'react';
import { callApi } from '../../api';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { useQuery } from '../../kit/useApi';
import { CATEGORY_LABEL, formatDecimal } from './format';
import { InstrumentDrawer } from './InstrumentDrawer';

const CATEGORIES = ['forex', 'metals', 'energy', 'indices', 'crypto'] as const;
const QUOTE_MS = 1_000;

/** The feed's latest quotes, asked for every second while the page is visible. */
export function useLiveQuotes(): Map<string, TMarketQuote> {
  const [quotes, setQuotes] = useState(() => new Map<string, TMarketQuote>());
  useEffect(() => {
    let controller: AbortController | null = null;
    const load = () => {
      if (document.hidden || controller) return;
      controller = new AbortController();
      const current = controller;
      callApi('adminmarketquotes', {}, { signal: current.signal })
        .then(({ items }) => setQuotes(new Map(items.map((q) => [q.symbol, q]))))
        // A missed second is asked again at the next one.
        .catch(() => undefined)
        .finally(() => {
          if (controller === current) controller = null;
        });
    };
    load();
    const timer = setInterval(load, QUOTE_MS);
    return () => {
      clearInterval(timer);
      controller?.abort();
    };
  }, []);
  return quotes;
}

/** Status pills: trading or disabled, close-only, short selling off, groups overriding. */
export function StatusPills({ config }: { config: TMarketInstrument['config'] }) {
  const { t } = useI18n();
  return (
    <span className="mk-pills">
      {config.enabled ? (
        <span className="kit-pill kit-pill-up">{t('admin.market.status.enabled')}</span>
      ) : (
        <span className="kit-pill kit-pill-down">{t('admin.market.status.disabled')}</span>
      )}
      {config.closeOnly ? (
        <span className="kit-pill kit-pill-warn">{t('admin.market.status.closeOnly')}</span>
      ) : null}
      {config.shortAllowed ? null : <span className="kit-pill">{t('admin.market.status.shortOff')}</span>}
    </span>
  );
}

export function InstrumentsTab() {
  const { t, intl, formatNumber } = useI18n();
  const list = useQuery('adminmarketinstruments', {});
  const quotes = useLiveQuotes();
  const [category, setCategory] = useState<string>('all');
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'warn'; text: string } | null>(null);
  const items = list.data?.items ?? [];
  const rows = category === 'all' ? items : items.filter((i) => i.category === category);

  const columns: TColumn<TMarketInstrument>[] = useMemo(() => {
    const quoteOf = (row: TMarketInstrument) => quotes.get(row.symbol) ?? row.lastQuote ?? undefined;
    const leverage = (row: TMarketInstrument) => row.config.maxLeverage ?? row.defaultLeverage;
    return [
      {
        key: 'symbol',
        header: t('admin.market.col.symbol'),
        sortValue: (row) => row.symbol,
        render: (row) => (
          <span className="mk-sym">
            <strong>{row.symbol}</strong>
            <span>{t(CATEGORY_LABEL[row.category] ?? row.category)}</span>
          </span>
        ),
      },
      {
        key: 'quote',
        header: t('admin.market.col.bidAsk'),
        align: 'end',
        render: (row) => {
          const q = quoteOf(row);
          return q ? (
            <span className="mk-quote">
              <span data-testid="quote-bid">{formatDecimal(intl, q.bid, q.digits)}</span>
              <span className="mk-muted">{formatDecimal(intl, q.ask, q.digits)}</span>
            </span>
          ) : (
            '—'
          );
        },
      },
      {
        key: 'spread',
        header: t('admin.market.col.spread'),
        align: 'end',
        sortValue: (row) => (quoteOf(row)?.spread ?? 0) + row.config.markupPoints,
        render: (row) => {
          const q = quoteOf(row);
          if (!q) return '—';
          const markup = row.config.markupPoints;
          return (
            <span className="mk-spread" data-testid="client-spread" data-value={q.spread + markup}>
              {markup > 0 ? (
                <span className="mk-spread-parts">
                  {t('admin.market.spreadParts', {
                    feed: formatNumber(q.spread),
                    markup: formatNumber(markup),
                  })}
                </span>
              ) : null}
              <strong>{formatNumber(q.spread + markup)}</strong>
            </span>
          );
        },
      },
      {
        key: 'status',
        header: t('admin.market.col.status'),
        sortValue: (row) => (row.config.enabled ? (row.config.closeOnly ? 1 : 0) : 2),
        render: (row) => (
          <span className="mk-status-cell">
            <StatusPills config={row.config} />
            {quoteOf(row)?.status === 'closed' ? (
              <span className="kit-pill">{t('admin.market.status.marketClosed')}</span>
            ) : null}
          </span>
        ),
      },
      {
        key: 'volumes',
        header: t('admin.market.col.volumes'),
        render: (row) =>
          t('admin.market.volumeRange', {
            min: formatDecimal(intl, row.config.minVolume),
            max: formatDecimal(intl, row.config.maxVolume),
            step: formatDecimal(intl, row.config.volumeStep),
          }),
      },
      {
        key: 'leverage',
        header: t('admin.market.col.leverage'),
        align: 'end',
        sortValue: leverage,
        render: (row) => (
          <span className={row.config.maxLeverage === null ? 'mk-muted' : undefined}>1:{leverage(row)}</span>
        ),
      },
      {
        key: 'swaps',
        header: t('admin.market.col.swaps'),
        align: 'end',
        render: (row) =>
          `${formatDecimal(intl, row.config.swapLong)} / ${formatDecimal(intl, row.config.swapShort)}`,
      },
      {
        key: 'commission',
        header: t('admin.market.col.commission'),
        align: 'end',
        sortValue: (row) => Number(row.config.commissionPerLot),
        render: (row) => formatDecimal(intl, row.config.commissionPerLot),
      },
      {
        key: 'groups',
        header: t('admin.market.col.groups'),
        align: 'end',
        sortValue: (row) => row.groups.length,
        render: (row) =>
          row.groups.length > 0 ? (
            <span className="kit-pill" title={row.groups.map((g) => g.groupName).join(', ')}>
              {formatNumber(row.groups.length)}
            </span>
          ) : (
            <span className="mk-muted">—</span>
          ),
      },
    ];
  }, [t, intl, formatNumber, quotes]);

  const counts = useMemo(() => {
    const byCategory = new Map<string, number>();
    for (const item of items) byCategory.set(item.category, (byCategory.get(item.category) ?? 0) + 1);
    return byCategory;
  }, [items]);
  const selected = editing ? items.find((i) => i.symbol === editing) : undefined;

  return (
    <div className="mk-tab" data-testid="market-instruments">
      {notice ? (
        <div className={`mk-notice mk-notice-${notice.tone}`} role="status" data-testid="market-notice">
          <span>{notice.text}</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setNotice(null)}>
            {t('admin.kit.close')}
          </button>
        </div>
      ) : null}
      <DataTable
        testId="instruments-table"
        rowTestId="instrument-row"
        rows={rows}
        columns={columns}
        rowKey={(row) => row.symbol}
        filterText={(row) => `${row.symbol} ${row.base} ${row.quote}`}
        filterPlaceholder={t('admin.market.search')}
        pageSize={25}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        initialSort={null}
        onRowClick={(row) => setEditing(row.symbol)}
        empty={t('admin.market.emptyInstruments')}
        toolbar={
          <label className="mk-select-label">
            <span className="mk-sr">{t('admin.market.category.label')}</span>
            <select
              className="input mk-select"
              value={category}
              onChange={(e) => setCategory(e.target.value)}
              data-testid="category-filter"
            >
              <option value="all">{t('admin.market.category.all', { count: items.length })}</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {t('admin.market.category.option', {
                    name: t(CATEGORY_LABEL[c] ?? c),
                    count: counts.get(c) ?? 0,
                  })}
                </option>
              ))}
            </select>
          </label>
        }
      />
      {selected ? (
        <InstrumentDrawer
          key={selected.version}
          instrument={selected}
          quote={quotes.get(selected.symbol) ?? selected.lastQuote ?? undefined}
          onClose={() => setEditing(null)}
          onReload={list.reload}
          onSaved={(answer) => {
            setEditing(null);
            setNotice(
              answer.applied
                ? { tone: 'ok', text: t('admin.market.saved', { symbol: answer.item.symbol }) }
                : { tone: 'warn', text: t('admin.market.savedNotApplied', { symbol: answer.item.symbol }) },
            );
            list.reload();
          }}
        />
      ) : null}
    </div>
  );
}

import { useMemo } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Notice, useNotice } from '../../kit/Feedback';
import { FilterSelect } from '../../kit/FilterSelect';
import { RefreshButton } from '../../kit/RefreshButton';
import { SearchBox } from '../../kit/SearchBox';
import { Segmented } from '../../kit/Segmented';
import { useQuery } from '../../kit/useApi';
import { pick, useFilterParams } from '../../kit/useFilterParams';
import { BotDrawer } from './BotDrawer';
import {
  DIRECTION_LABELS,
  FILTER_LABELS,
  KIND_LABELS,
  KINDS,
  STATE_FILTERS,
  STATE_TONES,
  stateCounts,
  type TAdminBot,
  type TStateFilter,
  tone,
  useBotFormat,
} from './format';
import './strategies.css';

const PAGE_SIZE = 20;

/**
 * Strategy bots (/admin/strategies): every grid and martingale bot of the broker's customers, working
 * ones first by default, by state, symbol, kind and customer, 20 a page; a row opens the bot's drawer
 * with its parameters, levels and log, and the stop (strategies.stop).
 */
export function StrategiesPage() {
  const { t } = useI18n();
  const format = useBotFormat();
  const title = t('admin.menu.strategies');
  useDocumentTitle(title);
  const { params, update } = useFilterParams();
  const [notice, setNotice] = useNotice();
  const state: TStateFilter = pick(params.get('state'), STATE_FILTERS) ?? 'working';
  const kind = pick(params.get('kind'), KINDS);
  const symbol = params.get('symbol')?.trim().toUpperCase() || undefined;
  const search = params.get('q')?.trim() || undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const open = Number(params.get('open')) || null;
  const list = useQuery('adminstrategies', {
    state,
    ...(symbol ? { symbol } : {}),
    ...(kind ? { kind } : {}),
    ...(search ? { search } : {}),
    page,
    size: PAGE_SIZE,
  });
  const counts = useMemo(() => stateCounts(list.data?.counts), [list.data]);
  const symbols = list.data?.symbols ?? [];
  const filtered = Boolean(symbol || kind || search);

  const columns = useMemo<TColumn<TAdminBot>[]>(
    () => [
      {
        key: 'bot',
        header: t('admin.strategies.field.bot'),
        render: (row) => (
          <span className="sg-stack">
            <button
              type="button"
              className="sg-rowbtn num"
              onClick={(e) => {
                e.stopPropagation();
                update({ open: String(row.strategy_id) });
              }}
              data-testid="strategy-open"
            >
              #{row.strategy_id}
            </button>
            <span className="sg-muted">{t(KIND_LABELS[row.kind])}</span>
          </span>
        ),
      },
      {
        key: 'customer',
        header: t('admin.strategies.field.customer'),
        render: (row) => (
          <span className="sg-stack">
            <Link to={`/users/${encodeURIComponent(row.userId)}`} onClick={(e) => e.stopPropagation()}>
              {row.customerName || row.customerEmail || row.userId}
            </Link>
            <span className="sg-muted">{row.customerEmail ?? '—'}</span>
          </span>
        ),
      },
      {
        key: 'account',
        header: t('admin.strategies.field.account'),
        render: (row) => (
          <span className="sg-stack">
            <span className="num">#{row.account_id}</span>
            <span className="sg-muted">
              {t('admin.strategies.field.mainAccount', { id: String(row.parent_account_id) })}
            </span>
          </span>
        ),
      },
      {
        key: 'symbol',
        header: t('admin.strategies.field.symbol'),
        render: (row) => (
          <span className="sg-stack">
            <strong>{row.symbol}</strong>
            <span className="sg-muted">
              {t(DIRECTION_LABELS[row.params.params.direction] ?? row.params.params.direction)}
            </span>
          </span>
        ),
      },
      {
        key: 'state',
        header: t('admin.strategies.field.state'),
        render: (row) => (
          <span
            className={`kit-pill ${STATE_TONES[row.state]}`}
            data-testid="strategy-state"
            data-state={row.state}
          >
            {t(FILTER_LABELS[row.state])}
          </span>
        ),
      },
      {
        key: 'investment',
        header: t('admin.strategies.field.investment'),
        align: 'end',
        render: (row) => <span className="num sg-nowrap">{format.money(row.investment, row.currency)}</span>,
      },
      {
        key: 'equity',
        header: t('admin.strategies.field.equity'),
        align: 'end',
        render: (row) => <span className="num">{format.amount(row.equity)}</span>,
      },
      {
        key: 'realized',
        header: t('admin.strategies.field.realized'),
        align: 'end',
        render: (row) => (
          <span className={`num ${tone(row.realizedProfit) ?? ''}`}>
            {format.signedAmount(row.realizedProfit)}
          </span>
        ),
      },
      {
        key: 'unrealized',
        header: t('admin.strategies.field.unrealized'),
        align: 'end',
        render: (row) => (
          <span className={`num ${tone(row.unrealizedProfit) ?? ''}`}>
            {format.signedAmount(row.unrealizedProfit)}
          </span>
        ),
      },
      {
        key: 'margin',
        header: t('admin.strategies.field.margin'),
        align: 'end',
        render: (row) => <span className="num">{format.amount(row.margin)}</span>,
      },
      {
        key: 'open',
        header: t('admin.strategies.field.openItems'),
        align: 'end',
        render: (row) => (
          <span className="num sg-nowrap" title={t('admin.strategies.field.openItemsHint')}>
            {format.count(row.openPositions)} / {format.count(row.openOrders)}
          </span>
        ),
      },
      {
        key: 'started',
        header: t('admin.strategies.field.started'),
        render: (row) => (
          <span className="num sg-nowrap" title={format.dateTime(row.startedAt ?? row.createdAt)}>
            {row.startedAt ? format.shortDateTime(row.startedAt) : t('admin.strategies.notStarted')}
          </span>
        ),
      },
    ],
    [t, format, update],
  );

  return (
    <div className="bo-page sg-page">
      <PageHeader title={title} description={t('admin.module.strategies.description')} />
      <Notice message={notice} testId="strategy-notice" />
      <Segmented
        classPrefix="kit-segments"
        label={t('admin.strategies.field.state')}
        testId="strategy-states"
        value={state}
        counts={counts}
        onChange={(next) => update({ state: next === 'working' ? null : next })}
        options={STATE_FILTERS.map((value) => ({ value, label: t(FILTER_LABELS[value]) }))}
      />
      <DataTable
        testId="strategies-table"
        rowTestId="strategy-row"
        dense
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(row) => String(row.strategy_id)}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        onRowClick={(row) => update({ open: String(row.strategy_id) })}
        empty={
          filtered
            ? t('admin.strategies.noMatch')
            : state === 'working'
              ? t('admin.strategies.noneWorking')
              : t('admin.strategies.empty')
        }
        server={{
          total: list.data?.total ?? 0,
          page,
          pageSize: PAGE_SIZE,
          onPage: (next) => update({ page: String(next) }),
        }}
        toolbar={
          <div className="sg-filters">
            <SearchBox
              value={search ?? ''}
              onChange={(next) => update({ q: next })}
              label={t('admin.strategies.filter.search')}
              testId="strategy-filter-search"
              className="sg-search"
            />
            <FilterSelect
              value={symbol}
              options={(symbol && !symbols.includes(symbol) ? [symbol, ...symbols] : symbols).map((s) => ({
                value: s,
                label: s,
              }))}
              onChange={(next) => update({ symbol: next })}
              label={t('admin.strategies.filter.symbol')}
              anyLabel={t('admin.strategies.filter.anySymbol')}
              className="sg-select"
              testId="strategy-filter-symbol"
            />
            <FilterSelect
              value={kind}
              options={KINDS.map((k) => ({ value: k, label: t(KIND_LABELS[k]) }))}
              onChange={(next) => update({ kind: next })}
              label={t('admin.strategies.filter.kind')}
              anyLabel={t('admin.strategies.filter.anyKind')}
              className="sg-select"
              testId="strategy-filter-kind"
            />
            <RefreshButton
              onRefresh={list.reload}
              refreshing={list.status === 'loading'}
              label={t('admin.strategies.refresh')}
              className="sg-refresh"
            />
          </div>
        }
      />
      {open ? (
        <BotDrawer
          strategyId={open}
          onClose={() => update({ open: null })}
          onStopped={(message) => {
            setNotice(message);
            list.reload();
          }}
        />
      ) : null}
    </div>
  );
}

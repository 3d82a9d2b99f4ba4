import type { TTranslate } from '@broker/i18n/translator';
import { type KeyboardEvent, type ReactNode, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../app/paths';
import { Signed } from '../../components/Figure';
import { Icon } from '../../components/Icon';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { StackTable, type TColumn } from '../../components/StackTable';
import { dateText } from '../../lib/date-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { moneyText } from '../../lib/money';
import { type TCallResult, type TLoad, useCall, useLoad } from '../../lib/use-call';
import { LevelsChart } from './LevelsChart';
import {
  isWorking,
  ParamsList,
  StateBadge,
  StopButton,
  StopDialog,
  StrategyFigures,
  useMinuteClock,
} from './parts';
import type { TDeal, TLogEntry, TPendingOrder, TPosition, TStrategy, TStrategyDetail } from './strategy-api';
import { useRefresh } from './strategy-api';
import { botPlan } from './strategy-lines';

/** Log actions the catalog names (docs/strategies.md, events); others show as written. */
const LOG_ACTIONS = new Set([
  'started',
  'waiting',
  'triggered',
  'order_placed',
  'order_refused',
  'order_cancelled',
  'filled',
  'position_closed',
  'round_started',
  'add_placed',
  'added',
  'take_profit_moved',
  'round_closed',
  'trailed',
  'stopped',
]);
const STOP_REASONS = new Set([
  'client',
  'take_profit',
  'stop_loss',
  'stop_out',
  'symbol_disabled',
  'out_of_range',
  'cycle_done',
  'account_closed',
]);
const CLOSE_REASONS = new Set(['1', '2', '3', '4', '5', '6', '7']);
const CANCEL_REASONS = new Set(['client', 'insufficient_margin', 'restricted', 'account_closed']);

/** The log entries shown before "Show more". */
const LOG_PAGE = 30;

/** Why the bot did it, in words: a reason the catalog names, the cell or add, the lots. */
export function logWhy(entry: TLogEntry, kind: TStrategy['kind'], t: TTranslate, intl: string): string {
  const parts: string[] = [];
  const { action, detail } = entry;
  if (action === 'order_refused' && entry.code !== null) parts.push(t(`errors.${entry.code}`));
  else if (action === 'stopped' && detail && STOP_REASONS.has(detail))
    parts.push(t(`strategy.stopReason.${detail}`));
  else if (action === 'started' && (detail === 'grid' || detail === 'martingale'))
    parts.push(t(`strategy.kind.${detail}`));
  else if (action === 'position_closed' && detail && CLOSE_REASONS.has(detail))
    parts.push(t(`history.reason.${detail}`));
  else if (action === 'order_cancelled' && detail && CANCEL_REASONS.has(detail))
    parts.push(t(`history.cancelReason.${detail}`));
  else if ((action === 'round_started' || action === 'round_closed') && detail && /^\d+$/.test(detail))
    parts.push(t('strategy.log.round', { n: Number(detail) }));
  else if (action === 'waiting' && (detail === 'above' || detail === 'below'))
    parts.push(t(`strategy.log.trigger.${detail}`));
  else if (action === 'added' && detail === 'market') parts.push(t('strategy.log.atMarket'));
  else if (action === 'take_profit_moved' && entry.level !== null)
    return t('strategy.log.afterAdd', { n: entry.level });
  else if (detail) parts.push(detail);
  if (entry.level !== null && action !== 'round_started' && action !== 'round_closed')
    parts.push(
      kind === 'grid'
        ? t('strategy.levels.level', { n: entry.level + 1 })
        : entry.level === 0
          ? t('strategy.log.firstOrder')
          : t('strategy.chart.add', { n: entry.level }),
    );
  if (entry.volume !== null) parts.push(`${formatDecimal(intl, entry.volume, 2)} ${t('strategy.unit.lots')}`);
  return parts.join(' · ') || '—';
}

type TTab = 'positions' | 'orders' | 'history' | 'log';

/** What the bot page reads besides the bot: its account's positions, orders and closed positions. */
interface THoldings {
  positions: TPosition[];
  orders: TPendingOrder[];
  deals: TDeal[];
}

/**
 * One bot (issue 19): its whole profit and figures, its levels over the symbol's candles, its
 * parameters, its positions, orders and closed positions (with their close reasons), and the log of
 * what it did and why; Stop (close or keep), or close what a stopped bot kept. Refreshed every few
 * seconds while it holds anything.
 */
export function Component() {
  const { t, lang, intl } = useI18n();
  const call = useCall();
  const id = Number(useParams().strategyId);
  const detail = useLoad(`detail:${id}`, (signal) => call('strategydetail', { strategy_id: id }, signal));
  const strategy = detail.load.status === 'ready' ? detail.load.data.strategy : null;
  const accountId = strategy?.account_id ?? null;
  const since = strategy ? new Date(strategy.createdAt).getTime() - 60_000 : 0;
  const holdings = useLoad<THoldings>(
    accountId === null ? null : `holdings:${accountId}`,
    async (signal): Promise<TCallResult<THoldings>> => {
      const account = accountId as number;
      const [positions, orders, deals] = await Promise.all([
        call('positions', { account_id: account }, signal),
        call('pendingorders', { account_id: account }, signal),
        call('dealhistory', { account_id: account, from: since, page: 1, size: 100 }, signal),
      ]);
      if (!('ok' in positions)) return positions;
      if (!('ok' in orders)) return orders;
      if (!('ok' in deals)) return deals;
      return { ok: true, data: { positions: positions.data, orders: orders.data, deals: deals.data.items } };
    },
  );
  const [stopping, setStopping] = useState(false);
  const [tab, setTab] = useState<TTab>('positions');
  const now = useMinuteClock();
  const active = strategy !== null && (isWorking(strategy) || strategy.state === 'stopped_open');
  useRefresh(() => {
    void detail.reload(true);
    void holdings.reload(true);
  }, active && !stopping);

  return (
    <div className="ui-page sb-page" data-testid="strategy-page">
      <Link to={paths.strategies(lang)} className="ui-back">
        <Icon name="arrowLeft" size={16} />
        {t('strategy.list.title')}
      </Link>
      {detail.load.status === 'loading' && <Skeleton rows={3} height={120} testId="strategy-loading" />}
      {detail.load.status === 'failed' && (
        <LoadError
          message={detail.load.message}
          onRetry={() => void detail.reload(false)}
          testId="strategy-error"
        />
      )}
      {detail.load.status === 'ready' && strategy && (
        <>
          <div className="ui-head">
            <div className="ui-head-text sb-title">
              <span className="sb-kind-icon sb-kind-icon-lg" data-kind={strategy.kind} aria-hidden="true">
                <Icon name={strategy.kind === 'grid' ? 'chart' : 'bolt'} size={22} />
              </span>
              <div>
                <h1>
                  {t(`strategy.kind.${strategy.kind}`)} · {strategy.symbol}
                </h1>
                <p>
                  {t('strategy.list.number', { id: strategy.strategy_id })} ·{' '}
                  {t(`strategy.direction.${strategy.params.params.direction}`)} ·{' '}
                  {t('strategy.detail.created', { date: dateText(intl, strategy.createdAt, true) })}
                </p>
              </div>
            </div>
            <div className="sb-head-side">
              <StateBadge state={strategy.state} />
              <StopButton strategy={strategy} onStop={() => setStopping(true)} />
            </div>
          </div>
          {strategy.stopReason && (
            <p className="sb-note" data-tone="warning" data-testid="strategy-stop-reason">
              <Icon name="alert" size={16} />
              {t(`strategy.stopReason.${strategy.stopReason}`)}
              {strategy.state === 'stopped_open' && ` ${t('strategy.detail.keptHint')}`}
            </p>
          )}
          <section className="card ui-section" aria-labelledby="sb-figures-title">
            <h2 id="sb-figures-title" className="sr-only">
              {t('strategy.detail.figures')}
            </h2>
            <StrategyFigures strategy={strategy} now={now} />
          </section>
          <div className="sb-columns">
            <section className="card sb-chart-card" aria-labelledby="sb-chart-title">
              <h2 id="sb-chart-title">{t('strategy.chart.botTitle')}</h2>
              <BotChart strategy={strategy} />
            </section>
            <section className="card ui-section" aria-labelledby="sb-params-title">
              <h2 id="sb-params-title">{t('strategy.detail.params')}</h2>
              <ParamsList strategy={strategy} />
            </section>
          </div>
          <section className="card ui-section sb-tabs-card" aria-label={t('strategy.detail.activity')}>
            <Tabs<TTab>
              value={tab}
              onChange={setTab}
              label={t('strategy.detail.activity')}
              tabs={[
                {
                  value: 'positions',
                  label: t('strategy.detail.positions', {
                    count: holdings.load.status === 'ready' ? holdings.load.data.positions.length : 0,
                  }),
                },
                {
                  value: 'orders',
                  label: t('strategy.detail.orders', {
                    count: holdings.load.status === 'ready' ? holdings.load.data.orders.length : 0,
                  }),
                },
                { value: 'history', label: t('strategy.detail.history') },
                { value: 'log', label: t('strategy.log.title') },
              ]}
            >
              {tab === 'log' ? (
                <BotLog detail={detail.load.data} />
              ) : (
                <HoldingsView tab={tab} strategy={strategy} holdings={holdings} />
              )}
            </Tabs>
          </section>
          {stopping && (
            <StopDialog
              strategy={strategy}
              onClose={() => setStopping(false)}
              onDone={() => {
                setStopping(false);
                void detail.reload(true);
                void holdings.reload(true);
              }}
            />
          )}
        </>
      )}
    </div>
  );
}

/** The bot's lines over its symbol's candles. */
function BotChart({ strategy }: { strategy: TStrategy }) {
  const { t, intl } = useI18n();
  const digits = strategy.levels[0]?.split('.')[1]?.length ?? 5;
  const plan = useMemo(
    () => botPlan(strategy, t, (value) => formatDecimal(intl, value, digits), digits),
    [strategy, t, intl, digits],
  );
  return (
    <LevelsChart
      symbol={strategy.symbol}
      lines={plan.lines}
      legend={plan.legend}
      summary={t('strategy.chart.summary', {
        kind: t(`strategy.kind.${strategy.kind}`),
        symbol: strategy.symbol,
        count: plan.lines.length,
      })}
      testId="bot-chart"
    />
  );
}

/** Tabs over one panel (WAI-ARIA tabs: arrow keys move between them, the panel follows). */
function Tabs<T extends string>({
  value,
  onChange,
  label,
  tabs,
  children,
}: {
  value: T;
  onChange(value: T): void;
  label: string;
  tabs: readonly { value: T; label: string }[];
  children: ReactNode;
}) {
  const move = (event: KeyboardEvent<HTMLButtonElement>) => {
    const at = tabs.findIndex((tab) => tab.value === value);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = tabs[(at + step + tabs.length) % tabs.length] as { value: T };
    onChange(next.value);
    document.getElementById(`sb-tab-${next.value}`)?.focus();
  };
  return (
    <>
      <div className="sb-tabs" role="tablist" aria-label={label}>
        {tabs.map((tab) => (
          <button
            key={tab.value}
            type="button"
            role="tab"
            id={`sb-tab-${tab.value}`}
            aria-selected={tab.value === value}
            aria-controls={`sb-panel-${tab.value}`}
            tabIndex={tab.value === value ? 0 : -1}
            className="sb-tab"
            onClick={() => onChange(tab.value)}
            onKeyDown={move}
            data-testid={`tab-${tab.value}`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`sb-panel-${value}`}
        aria-labelledby={`sb-tab-${value}`}
        className="sb-tab-panel"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a tab panel is focusable (WAI-ARIA tabs)
        tabIndex={0}
      >
        {children}
      </div>
    </>
  );
}

/** The bot account's positions, pending orders or closed positions, as tables. */
function HoldingsView({
  tab,
  strategy,
  holdings,
}: {
  tab: Exclude<TTab, 'log'>;
  strategy: TStrategy;
  holdings: { load: TLoad<THoldings>; reload(quiet?: boolean): Promise<void> };
}) {
  const { t, lang, intl } = useI18n();
  if (holdings.load.status === 'loading') return <Skeleton rows={2} height={40} />;
  if (holdings.load.status === 'failed')
    return <LoadError message={holdings.load.message} onRetry={() => void holdings.reload(false)} />;
  const { positions, orders, deals } = holdings.load.data;
  const price = (value: string | null) => (value ? formatDecimal(intl, value) : '—');
  const lots = (value: string) => formatDecimal(intl, value, 2);
  const money = (value: string) => (
    <Signed value={value}>{moneyText(intl, value, strategy.currency, true)}</Signed>
  );
  const time = (ms: number) => dateText(intl, new Date(ms).toISOString(), true);
  const side = (value: 'buy' | 'sell') => (
    <span className={`sb-side ${value === 'buy' ? 'rise' : 'fall'}`}>{t(`history.side.${value}`)}</span>
  );
  if (tab === 'positions') {
    if (positions.length === 0) return <p className="sb-muted">{t('strategy.detail.noPositions')}</p>;
    const columns: TColumn<TPosition>[] = [
      { key: 'ticket', label: t('strategy.col.ticket'), cell: (p) => `#${p.order_id}` },
      { key: 'side', label: t('history.col.side'), cell: (p) => side(p.side) },
      { key: 'volume', label: t('history.col.volume'), numeric: true, cell: (p) => lots(p.volume) },
      { key: 'open', label: t('strategy.col.openPrice'), numeric: true, cell: (p) => price(p.open_price) },
      {
        key: 'current',
        label: t('strategy.col.currentPrice'),
        numeric: true,
        cell: (p) => price(p.current_price),
      },
      { key: 'tp', label: t('strategy.chart.takeProfit'), numeric: true, cell: (p) => price(p.take_profit) },
      { key: 'profit', label: t('history.col.profit'), numeric: true, cell: (p) => money(p.profit) },
    ];
    return (
      <StackTable
        rows={positions}
        columns={columns}
        rowKey={(p) => p.order_id}
        rowProps={() => ({ 'data-testid': 'strategy-position' })}
        testId="strategy-positions"
      />
    );
  }
  if (tab === 'orders') {
    if (orders.length === 0) return <p className="sb-muted">{t('strategy.detail.noOrders')}</p>;
    const columns: TColumn<TPendingOrder>[] = [
      { key: 'ticket', label: t('strategy.col.ticket'), cell: (o) => `#${o.order_id}` },
      { key: 'type', label: t('history.col.type'), cell: (o) => t(`history.orderType.${o.type}`) },
      { key: 'volume', label: t('history.col.volume'), numeric: true, cell: (o) => lots(o.volume) },
      { key: 'price', label: t('history.col.price'), numeric: true, cell: (o) => price(o.price) },
      { key: 'tp', label: t('strategy.chart.takeProfit'), numeric: true, cell: (o) => price(o.take_profit) },
      { key: 'placed', label: t('history.col.placed'), cell: (o) => time(o.time) },
    ];
    return (
      <StackTable
        rows={orders}
        columns={columns}
        rowKey={(o) => o.order_id}
        rowProps={() => ({ 'data-testid': 'strategy-order' })}
        testId="strategy-orders"
      />
    );
  }
  const columns: TColumn<TDeal>[] = [
    { key: 'closed', label: t('history.col.close'), cell: (d) => time(d.close_time) },
    { key: 'side', label: t('history.col.side'), cell: (d) => side(d.side) },
    { key: 'volume', label: t('history.col.volume'), numeric: true, cell: (d) => lots(d.volume) },
    {
      key: 'prices',
      label: t('strategy.col.openClose'),
      numeric: true,
      cell: (d) => `${price(d.open_price)} → ${price(d.close_price)}`,
    },
    { key: 'profit', label: t('history.col.profit'), numeric: true, cell: (d) => money(d.profit) },
    {
      key: 'reason',
      label: t('history.col.reason'),
      testId: 'strategy-deal-reason',
      cell: (d) =>
        CLOSE_REASONS.has(String(d.close_reason))
          ? t(`history.reason.${d.close_reason}`)
          : t('history.reason.other', { reason: d.close_reason }),
    },
  ];
  return (
    <>
      {deals.length === 0 ? (
        <p className="sb-muted">{t('strategy.detail.noHistory')}</p>
      ) : (
        <StackTable
          rows={deals}
          columns={columns}
          rowKey={(d) => d.id}
          rowProps={(d) => ({ 'data-testid': 'strategy-deal', 'data-reason': d.close_reason })}
          testId="strategy-deals"
        />
      )}
      <Link
        to={`${paths.personalCenter(lang, 'history')}?account=${strategy.account_id}`}
        className="sb-link"
        data-testid="strategy-full-history"
      >
        {t('strategy.detail.fullHistory')}
        <Icon name="chevronRight" size={14} />
      </Link>
    </>
  );
}

/** The log of what the bot did and why, newest first. */
function BotLog({ detail }: { detail: TStrategyDetail }) {
  const { t, intl } = useI18n();
  const [shown, setShown] = useState(LOG_PAGE);
  const { strategy, log } = detail;
  if (log.length === 0) return <p className="sb-muted">{t('strategy.log.empty')}</p>;
  // Two entries may say the same thing at the same moment: a row is known by its place in the log.
  const rows = log.slice(0, shown).map((entry, at) => ({ ...entry, at }));
  const columns: TColumn<TLogEntry & { at: number }>[] = [
    { key: 'time', label: t('strategy.log.time'), cell: (entry) => dateText(intl, entry.time, true) },
    {
      key: 'action',
      label: t('strategy.log.action'),
      className: 'sb-log-action',
      testId: 'log-action',
      cell: (entry) => (LOG_ACTIONS.has(entry.action) ? t(`strategy.log.${entry.action}`) : entry.action),
    },
    {
      key: 'price',
      label: t('strategy.log.price'),
      numeric: true,
      cell: (entry) => (entry.price ? formatDecimal(intl, entry.price) : '—'),
    },
    {
      key: 'detail',
      label: t('strategy.log.detail'),
      className: 'sb-log-detail',
      testId: 'log-detail',
      cell: (entry) => logWhy(entry, strategy.kind, t, intl),
    },
    {
      key: 'profit',
      label: t('history.col.profit'),
      numeric: true,
      cell: (entry) =>
        entry.profit === null ? (
          '—'
        ) : (
          <Signed value={entry.profit}>{moneyText(intl, entry.profit, strategy.currency, true)}</Signed>
        ),
    },
  ];
  return (
    <>
      <StackTable
        rows={rows}
        columns={columns}
        rowKey={(entry) => entry.at}
        rowProps={(entry) => ({ 'data-action': entry.action, 'data-detail': entry.detail ?? '' })}
        className="sb-log"
        testId="strategy-log"
      />
      {log.length > shown && (
        <button
          type="button"
          className="btn btn-ghost btn-sm sb-more-button"
          onClick={() => setShown((n) => n + LOG_PAGE)}
        >
          {t('strategy.log.more', { count: log.length - shown })}
        </button>
      )}
    </>
  );
}

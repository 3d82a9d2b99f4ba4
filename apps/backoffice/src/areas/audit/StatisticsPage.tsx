import { STATS_MAX_DAYS } from '@broker/contracts/admin/audit-rules';
import type { TRouteOutput } from '@broker/contracts/routes';
import { type FormEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { Segmented } from '../../kit/Segmented';
import { useQuery } from '../../kit/useApi';
import { DayChart } from './Chart';
import { formatDecimal, formatUsd, presetRange, rangeDays, type TPreset, utcToday } from './format';
import './audit.css';

type TStats = TRouteOutput<'adminstatsdaily'>;
type TSymbolRow = TStats['symbols'][number];
type TScope = 'real' | 'demo' | 'all';
const SCOPES: readonly TScope[] = ['real', 'demo', 'all'];
const PRESETS: readonly TPreset[] = ['7d', '30d', '90d', 'custom'];

/** Statistics: registrations, traders, volume, broker P&L and funding per UTC day, with charts. */
export function StatisticsPage() {
  const { t, intl, formatNumber } = useI18n();
  const title = t('admin.menu.statistics');
  useDocumentTitle(title);
  const [params, setParams] = useSearchParams();
  const preset = (PRESETS.includes(params.get('range') as TPreset) ? params.get('range') : '30d') as TPreset;
  const scope = (SCOPES.includes(params.get('scope') as TScope) ? params.get('scope') : 'real') as TScope;
  const range =
    preset === 'custom'
      ? { from: params.get('from') ?? presetRange('30d').from, to: params.get('to') ?? utcToday() }
      : presetRange(preset);
  const [draft, setDraft] = useState(range);
  const [draftError, setDraftError] = useState<string | null>(null);
  const input = { from: range.from, to: range.to, scope };
  const stats = useQuery('adminstatsdaily', input);
  const data = stats.data;

  const update = (next: Record<string, string | null>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value === null) merged.delete(key);
      else merged.set(key, value);
    }
    setParams(merged, { replace: true });
  };
  const choosePreset = (value: TPreset) => {
    if (value === 'custom') {
      setDraft(range);
      update({ range: 'custom', from: range.from, to: range.to });
    } else update({ range: value, from: null, to: null });
  };
  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    const days = rangeDays(draft.from, draft.to);
    if (days === 0) return setDraftError(t('admin.audit.stats.rangeReversed'));
    if (days > STATS_MAX_DAYS)
      return setDraftError(t('admin.audit.stats.rangeTooLong', { max: STATS_MAX_DAYS }));
    setDraftError(null);
    update({ range: 'custom', from: draft.from, to: draft.to });
  };

  const usd = (value: number) => formatUsd(value.toFixed(2), intl);
  const lots = (value: number) => formatDecimal(value.toFixed(2), intl);
  const count = (value: number) => formatNumber(value);
  const days = data?.days.map((d) => d.day) ?? [];
  const series = (pick: (d: TStats['days'][number]) => string | number) =>
    data?.days.map((d) => Number(pick(d))) ?? [];

  const columns = useMemo<TColumn<TSymbolRow>[]>(
    () => [
      {
        key: 'symbol',
        header: t('admin.audit.stats.symbol'),
        render: (r) => <strong>{r.symbol}</strong>,
        sortValue: (r) => r.symbol,
      },
      {
        key: 'deals',
        header: t('admin.audit.stats.deals'),
        render: (r) => formatNumber(r.deals),
        sortValue: (r) => r.deals,
        align: 'end',
      },
      {
        key: 'traders',
        header: t('admin.audit.stats.traders'),
        render: (r) => formatNumber(r.traders),
        sortValue: (r) => r.traders,
        align: 'end',
      },
      {
        key: 'volume',
        header: t('admin.audit.stats.volumeLots'),
        render: (r) => formatDecimal(r.volumeLots, intl),
        sortValue: (r) => Number(r.volumeLots),
        align: 'end',
      },
      {
        key: 'notional',
        header: t('admin.audit.stats.notional'),
        render: (r) => formatUsd(r.notionalUsd, intl),
        sortValue: (r) => Number(r.notionalUsd),
        align: 'end',
      },
      {
        key: 'clientProfit',
        header: t('admin.audit.stats.clientProfit'),
        render: (r) => formatUsd(r.clientProfitUsd, intl),
        sortValue: (r) => Number(r.clientProfitUsd),
        align: 'end',
      },
      {
        key: 'brokerPnl',
        header: t('admin.audit.stats.brokerPnl'),
        render: (r) => (
          <span className={Number(r.brokerPnlUsd) >= 0 ? 'kit-up' : 'kit-down'}>
            {formatUsd(r.brokerPnlUsd, intl)}
          </span>
        ),
        sortValue: (r) => Number(r.brokerPnlUsd),
        align: 'end',
      },
    ],
    [t, intl, formatNumber],
  );

  const totals = data?.totals;
  const cards = totals
    ? [
        {
          key: 'registrations',
          icon: 'users',
          tone: 'brand',
          value: formatNumber(totals.registrations),
          hint: null,
        },
        {
          key: 'activeTraders',
          icon: 'user',
          tone: 'brand',
          value: formatNumber(totals.activeTraders),
          hint: null,
        },
        {
          key: 'volume',
          icon: 'chart',
          tone: 'warning',
          value: formatDecimal(totals.volumeLots, intl),
          hint: t('admin.audit.stats.volumeHint', {
            deals: totals.deals,
            notional: formatUsd(totals.notionalUsd, intl),
          }),
        },
        {
          key: 'brokerPnl',
          icon: 'wallet',
          tone: Number(totals.brokerPnlUsd) >= 0 ? 'up' : 'down',
          value: formatUsd(totals.brokerPnlUsd, intl),
          hint: t('admin.audit.stats.clientProfitHint', { amount: formatUsd(totals.clientProfitUsd, intl) }),
        },
        {
          key: 'deposits',
          icon: 'arrowRight',
          tone: 'up',
          value: formatUsd(totals.depositsUsd, intl),
          hint: null,
        },
        {
          key: 'withdrawals',
          icon: 'arrowLeft',
          tone: 'down',
          value: formatUsd(totals.withdrawalsUsd, intl),
          hint: null,
        },
      ]
    : [];
  const CARD_LABEL: Record<string, string> = {
    registrations: t('admin.audit.stats.registrations'),
    activeTraders: t('admin.audit.stats.activeTraders'),
    volume: t('admin.audit.stats.volumeLots'),
    brokerPnl: t('admin.audit.stats.brokerPnl'),
    deposits: t('admin.audit.stats.deposits'),
    withdrawals: t('admin.audit.stats.withdrawals'),
  };

  return (
    <div className="bo-page audit-page" data-testid="statistics-page">
      <PageHeader
        title={title}
        description={t('admin.module.statistics.description')}
        actions={
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={stats.reload}
            disabled={stats.status === 'loading'}
          >
            <Icon name="refresh" size={14} className={stats.status === 'loading' ? 'bo-spin' : undefined} />
            {t('admin.audit.refresh')}
          </button>
        }
      />

      <section className="card audit-toolbar" aria-label={t('admin.audit.stats.controls')}>
        <div className="audit-toolbar-row">
          <Segmented
            classPrefix="audit-seg"
            value={preset}
            onChange={choosePreset}
            label={t('admin.audit.stats.range')}
            testId="stats-preset"
            options={[
              { value: '7d', label: t('admin.audit.stats.preset7') },
              { value: '30d', label: t('admin.audit.stats.preset30') },
              { value: '90d', label: t('admin.audit.stats.preset90') },
              { value: 'custom', label: t('admin.audit.stats.presetCustom') },
            ]}
          />
          <Segmented
            classPrefix="audit-seg"
            value={scope}
            onChange={(value) => update({ scope: value })}
            label={t('admin.audit.stats.scope')}
            testId="stats-scope"
            options={[
              { value: 'real', label: t('admin.audit.stats.scopeReal') },
              { value: 'demo', label: t('admin.audit.stats.scopeDemo') },
              { value: 'all', label: t('admin.audit.stats.scopeAll') },
            ]}
          />
        </div>
        {preset === 'custom' ? (
          <form className="audit-range-form" onSubmit={applyCustom} noValidate>
            <Field label={t('admin.audit.from')} error={draftError}>
              {(props) => (
                <input
                  {...props}
                  className="input"
                  type="date"
                  value={draft.from}
                  max={utcToday()}
                  onChange={(e) => setDraft({ ...draft, from: e.target.value })}
                  data-testid="stats-from"
                />
              )}
            </Field>
            <Field label={t('admin.audit.to')}>
              {(props) => (
                <input
                  {...props}
                  className="input"
                  type="date"
                  value={draft.to}
                  onChange={(e) => setDraft({ ...draft, to: e.target.value })}
                  data-testid="stats-to"
                />
              )}
            </Field>
            <button type="submit" className="btn btn-primary btn-sm" data-testid="stats-apply">
              {t('admin.audit.apply')}
            </button>
          </form>
        ) : null}
        <p className="audit-note" data-testid="stats-range">
          <Icon name="info" size={14} />
          {t('admin.audit.stats.rangeNote', {
            from: range.from,
            to: range.to,
            days: formatNumber(rangeDays(range.from, range.to)),
          })}
        </p>
      </section>

      {stats.status === 'error' ? (
        <div className="card audit-error" role="alert">
          <Icon name="alert" size={18} />
          <span>{stats.error.message}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={stats.reload}>
            {t('admin.kit.retry')}
          </button>
        </div>
      ) : null}

      <div className="audit-cards" aria-busy={stats.status === 'loading'} data-testid="stats-totals">
        {(cards.length
          ? cards
          : Object.keys(CARD_LABEL).map((key) => ({
              key,
              icon: 'chart',
              tone: 'brand',
              value: null,
              hint: null,
            }))
        ).map((card) => (
          <div
            key={card.key}
            className="bo-stat"
            data-tone={card.tone}
            data-testid={`stats-card-${card.key}`}
          >
            <div className="bo-stat-head">
              <span className="bo-stat-label">{CARD_LABEL[card.key]}</span>
              <span className="bo-stat-icon" aria-hidden="true">
                <Icon name={card.icon} size={16} />
              </span>
            </div>
            <div className="bo-stat-value audit-stat-value">
              {card.value ?? <span className="kit-skeleton bo-stat-skeleton" />}
            </div>
            {card.hint ? <div className="bo-stat-hint">{card.hint}</div> : null}
          </div>
        ))}
      </div>

      {data ? (
        <div className="audit-charts" data-testid="stats-charts">
          <DayChart
            kind="line"
            integer
            title={t('admin.audit.stats.chartPeople')}
            days={days}
            format={count}
            testId="chart-people"
            series={[
              {
                key: 'registrations',
                label: t('admin.audit.stats.registrations'),
                tone: 'brand',
                values: series((d) => d.registrations),
              },
              {
                key: 'traders',
                label: t('admin.audit.stats.activeTraders'),
                tone: 'up',
                values: series((d) => d.activeTraders),
              },
            ]}
          />
          <DayChart
            kind="bar"
            title={t('admin.audit.stats.chartVolume')}
            days={days}
            format={lots}
            testId="chart-volume"
            series={[
              {
                key: 'volume',
                label: t('admin.audit.stats.volumeLots'),
                tone: 'warning',
                values: series((d) => d.volumeLots),
              },
            ]}
          />
          <DayChart
            kind="bar"
            signed
            title={t('admin.audit.stats.chartPnl')}
            days={days}
            format={usd}
            testId="chart-pnl"
            series={[
              {
                key: 'pnl',
                label: t('admin.audit.stats.brokerPnl'),
                tone: 'up',
                values: series((d) => d.brokerPnlUsd),
              },
            ]}
          />
          <DayChart
            kind="bar"
            title={t('admin.audit.stats.chartFunding')}
            days={days}
            format={usd}
            testId="chart-funding"
            series={[
              {
                key: 'deposits',
                label: t('admin.audit.stats.deposits'),
                tone: 'up',
                values: series((d) => d.depositsUsd),
              },
              {
                key: 'withdrawals',
                label: t('admin.audit.stats.withdrawals'),
                tone: 'down',
                values: series((d) => d.withdrawalsUsd),
              },
            ]}
          />
        </div>
      ) : null}

      <section className="audit-section">
        <h2 className="audit-section-title">{t('admin.audit.stats.bySymbol')}</h2>
        <DataTable
          rows={data?.symbols ?? []}
          columns={columns}
          rowKey={(r) => r.symbol}
          filterText={(r) => r.symbol}
          filterPlaceholder={t('admin.audit.stats.filterSymbol')}
          loading={stats.status === 'loading' && !data}
          initialSort={{ key: 'deals', direction: 'desc' }}
          empty={t('admin.audit.stats.noDeals')}
          testId="stats-symbols"
        />
      </section>

      <div className="audit-definitions" role="note">
        <p>{t('admin.audit.stats.definitions')}</p>
        {data?.unconverted.length ? (
          <p className="kit-pill kit-pill-warn">
            {t('admin.audit.stats.unconverted', { list: data.unconverted.join(', ') })}
          </p>
        ) : null}
      </div>
    </div>
  );
}

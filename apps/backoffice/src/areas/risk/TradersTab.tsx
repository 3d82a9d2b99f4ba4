import type { TRouteOutput } from '@broker/contracts/routes';
import { useState } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Segmented } from '../../kit/Segmented';
import { useQuery } from '../../kit/useApi';
import { sortNumber, tone, usePolling, useRiskFormat } from './format';
import { ScopeSelect, type TScope } from './ScopeSelect';

type TTrader = TRouteOutput<'adminriskwinners'>['winners'][number];
type TPeriod = 'today' | '7d' | '30d';

/** Top winning and losing customers: the period's realized result plus what is floating now. */
export function TradersTab() {
  const { t } = useI18n();
  const f = useRiskFormat();
  const [scope, setScope] = useState<TScope>('real');
  const [period, setPeriod] = useState<TPeriod>('today');
  const query = useQuery('adminriskwinners', { period, scope, limit: 10 });
  usePolling(query.reload, 5_000);
  const data = query.data;
  const error = query.status === 'error' ? query.error.message : null;
  const firstLoad = query.status === 'loading' && !data;
  const columns: TColumn<TTrader>[] = [
    {
      key: 'customer',
      header: t('admin.risk.col.customer'),
      render: (r) => (
        <Link to={`/users/${r.userId}`} className="risk-who">
          <strong>{r.name || r.email}</strong>
          <span>{r.email}</span>
        </Link>
      ),
    },
    {
      key: 'total',
      header: t('admin.risk.col.total'),
      align: 'end',
      render: (r) => <strong className={tone(r.totalUsd)}>{f.usd(r.totalUsd)}</strong>,
      sortValue: (r) => sortNumber(r.totalUsd),
    },
    {
      key: 'realized',
      header: t('admin.risk.col.realized'),
      align: 'end',
      render: (r) => <span className={tone(r.realizedUsd)}>{f.usd(r.realizedUsd)}</span>,
      sortValue: (r) => sortNumber(r.realizedUsd),
    },
    {
      key: 'floating',
      header: t('admin.risk.col.floatingPnl'),
      align: 'end',
      render: (r) => <span className={tone(r.floatingUsd)}>{f.usd(r.floatingUsd)}</span>,
      sortValue: (r) => sortNumber(r.floatingUsd),
    },
    {
      key: 'deals',
      header: t('admin.risk.col.deals'),
      align: 'end',
      render: (r) => f.count(r.deals),
      sortValue: (r) => r.deals,
    },
    {
      key: 'winRate',
      header: t('admin.risk.col.winRate'),
      align: 'end',
      render: (r) => (r.deals > 0 ? f.percent(r.winRate) : '—'),
      sortValue: (r) => sortNumber(r.winRate),
    },
  ];
  return (
    <div className="risk-tab-body">
      <div className="risk-toolbar">
        <Segmented
          classPrefix="risk-seg"
          value={period}
          onChange={setPeriod}
          label={t('admin.risk.period.label')}
          testId="risk-period"
          options={[
            { value: 'today', label: t('admin.risk.period.today') },
            { value: '7d', label: t('admin.risk.period.week') },
            { value: '30d', label: t('admin.risk.period.month') },
          ]}
        />
        <ScopeSelect value={scope} onChange={setScope} />
      </div>
      <p className="risk-note">{t('admin.risk.traders.text')}</p>
      <div className="risk-columns">
        <section className="bo-section">
          <div className="bo-section-head">
            <h2>{t('admin.risk.traders.winners')}</h2>
          </div>
          <DataTable
            rows={data?.winners ?? []}
            columns={columns}
            rowKey={(r) => r.userId}
            loading={firstLoad}
            error={error}
            onRetry={query.reload}
            empty={t('admin.risk.traders.noWinners')}
            testId="risk-winners"
          />
        </section>
        <section className="bo-section">
          <div className="bo-section-head">
            <h2>{t('admin.risk.traders.losers')}</h2>
          </div>
          <DataTable
            rows={data?.losers ?? []}
            columns={columns}
            rowKey={(r) => r.userId}
            loading={firstLoad}
            empty={t('admin.risk.traders.noLosers')}
            testId="risk-losers"
          />
        </section>
      </div>
    </div>
  );
}

import type { TRouteOutput } from '@broker/contracts/routes';
import { useState } from 'react';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Segmented } from '../../kit/Segmented';
import { sortNumber, tone, useRiskFormat } from './format';
import { ScopeSelect, type TScope } from './ScopeSelect';
import { customerColumn, TableSection, usePolledQuery } from './ui';

type TTrader = TRouteOutput<'adminriskwinners'>['winners'][number];
type TPeriod = 'today' | '7d' | '30d';

/** Top winning and losing customers: the period's realized result plus what is floating now. */
export function TradersTab() {
  const { t } = useI18n();
  const f = useRiskFormat();
  const [scope, setScope] = useState<TScope>('real');
  const [period, setPeriod] = useState<TPeriod>('today');
  const { data, error, firstLoad, reload } = usePolledQuery(
    'adminriskwinners',
    { period, scope, limit: 10 },
    5_000,
  );
  const columns: TColumn<TTrader>[] = [
    customerColumn(t('admin.risk.col.customer')),
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
        <TableSection title={t('admin.risk.traders.winners')}>
          <DataTable
            rows={data?.winners ?? []}
            columns={columns}
            rowKey={(r) => r.userId}
            loading={firstLoad}
            error={error}
            onRetry={reload}
            empty={t('admin.risk.traders.noWinners')}
            testId="risk-winners"
          />
        </TableSection>
        <TableSection title={t('admin.risk.traders.losers')}>
          <DataTable
            rows={data?.losers ?? []}
            columns={columns}
            rowKey={(r) => r.userId}
            loading={firstLoad}
            empty={t('admin.risk.traders.noLosers')}
            testId="risk-losers"
          />
        </TableSection>
      </div>
    </div>
  );
}

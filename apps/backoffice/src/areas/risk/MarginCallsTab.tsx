import type { TRouteOutput } from '@broker/contracts/routes';
import { useState } from 'react';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { useQuery } from '../../kit/useApi';
import { sortNumber, usePolling, useRiskFormat } from './format';
import { ScopeSelect, type TScope } from './ScopeSelect';
import { customerColumn } from './ui';

type TRow = TRouteOutput<'adminriskmargincalls'>[number];

/** Accounts at or below their margin-call level, closest to stop-out first, refreshed live. */
export function MarginCallsTab() {
  const { t } = useI18n();
  const f = useRiskFormat();
  const [scope, setScope] = useState<TScope>('real');
  const query = useQuery('adminriskmargincalls', { scope });
  usePolling(query.reload, 2_000);
  const rows = query.data ?? [];
  const error = query.status === 'error' ? query.error.message : null;
  const severity = (r: TRow) => {
    const distance = Number(r.distanceToStopOut);
    // every row is at its margin call already; within 10 points of the stop-out it is urgent
    return distance <= 10 ? 'kit-pill kit-pill-down' : 'kit-pill kit-pill-warn';
  };
  const columns: TColumn<TRow>[] = [
    {
      key: 'account',
      header: t('admin.risk.col.account'),
      render: (r) => (
        <span className="risk-who">
          <strong className="num">#{r.accountId}</strong>
          <span>{r.groupName ?? '—'}</span>
        </span>
      ),
      sortValue: (r) => r.accountId,
    },
    customerColumn(t('admin.risk.col.customer')),
    {
      key: 'level',
      header: t('admin.risk.col.marginLevel'),
      align: 'end',
      render: (r) => <span className={severity(r)}>{f.percent(r.marginLevel)}</span>,
      sortValue: (r) => sortNumber(r.marginLevel),
    },
    {
      key: 'levels',
      header: t('admin.risk.col.callStop'),
      align: 'end',
      render: (r) => `${f.percent(r.marginCallLevel)} / ${f.percent(r.stopOutLevel)}`,
    },
    {
      key: 'distance',
      header: t('admin.risk.col.distance'),
      align: 'end',
      render: (r) => (
        <span className="risk-who risk-end">
          <strong>{t('admin.risk.points', { value: f.money(r.distanceToStopOut) })}</strong>
          <span>
            {f.money(r.equityToStopOut)} {r.currency}
          </span>
        </span>
      ),
      sortValue: (r) => sortNumber(r.distanceToStopOut),
    },
    {
      key: 'equity',
      header: t('admin.risk.col.equity'),
      align: 'end',
      render: (r) => `${f.money(r.equity)} ${r.currency}`,
      sortValue: (r) => sortNumber(r.equity),
    },
    {
      key: 'margin',
      header: t('admin.risk.col.margin'),
      align: 'end',
      render: (r) => `${f.money(r.margin)} ${r.currency}`,
      sortValue: (r) => sortNumber(r.margin),
    },
    {
      key: 'balance',
      header: t('admin.risk.col.balance'),
      align: 'end',
      render: (r) => `${f.money(r.balance)} ${r.currency}`,
      sortValue: (r) => sortNumber(r.balance),
    },
    {
      key: 'positions',
      header: t('admin.risk.col.positions'),
      align: 'end',
      render: (r) => f.count(r.positions),
      sortValue: (r) => r.positions,
    },
  ];
  return (
    <div className="risk-tab-body">
      <div className="risk-toolbar">
        <ScopeSelect value={scope} onChange={setScope} />
        <span className="bo-updated">{t('admin.risk.margin.sorted')}</span>
      </div>
      <DataTable
        rows={rows}
        columns={columns}
        rowKey={(r) => String(r.accountId)}
        loading={query.status === 'loading' && !query.data}
        error={error}
        onRetry={query.reload}
        empty={t('admin.risk.margin.empty')}
        testId="risk-margin"
        pageSize={50}
      />
    </div>
  );
}

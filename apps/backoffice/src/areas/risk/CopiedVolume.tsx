import type { TRouteOutput } from '@broker/contracts/routes';
import { Link } from 'react-router';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { useSession } from '../../session';
import { sortNumber, useRiskFormat } from './format';
import { netLotsColumn, positionsColumn, TableSection, usePolledQuery } from './ui';

type TCopyExposure = TRouteOutput<'admincopyexposure'>;
type TSymbolRow = TCopyExposure['symbols'][number];
type TLeaderRow = TCopyExposure['leaders'][number];

const POLL_MS = 5_000;

/**
 * The volume open in followers' copy accounts (copy trading): per symbol the lots bought and sold and
 * the net, and per leader how many followers and copied positions depend on that leader's trades.
 */
export function CopiedVolume() {
  const { t } = useI18n();
  const f = useRiskFormat();
  const { can } = useSession();
  const { data, error, firstLoad, reload } = usePolledQuery('admincopyexposure', {}, POLL_MS);

  const symbolColumns: TColumn<TSymbolRow>[] = [
    {
      key: 'symbol',
      header: t('admin.risk.col.symbol'),
      render: (r) => <strong>{r.symbol}</strong>,
      sortValue: (r) => r.symbol,
    },
    {
      key: 'buy',
      header: t('admin.risk.copy.col.buyLots'),
      align: 'end',
      render: (r) => <span className="num">{f.plainLots(r.buyLots)}</span>,
      sortValue: (r) => sortNumber(r.buyLots),
    },
    {
      key: 'sell',
      header: t('admin.risk.copy.col.sellLots'),
      align: 'end',
      render: (r) => <span className="num">{f.plainLots(r.sellLots)}</span>,
      sortValue: (r) => sortNumber(r.sellLots),
    },
    netLotsColumn(t('admin.risk.col.netLots'), f),
    positionsColumn(t('admin.risk.col.positions'), f),
  ];
  const leaderColumns: TColumn<TLeaderRow>[] = [
    {
      key: 'leader',
      header: t('admin.risk.copy.col.leader'),
      render: (r) =>
        can('copy.view') ? (
          <Link
            to={`/copy?${new URLSearchParams({ status: 'all', q: String(r.leader_id), open: String(r.leader_id) })}`}
            className="risk-who"
          >
            <strong>{r.nick}</strong>
            <span>#{r.leader_id}</span>
          </Link>
        ) : (
          <span className="risk-who">
            <strong>{r.nick}</strong>
            <span>#{r.leader_id}</span>
          </span>
        ),
      sortValue: (r) => r.nick,
    },
    {
      key: 'followers',
      header: t('admin.risk.copy.col.followers'),
      align: 'end',
      render: (r) => <span className="num">{f.count(r.followers)}</span>,
      sortValue: (r) => r.followers,
    },
    positionsColumn(t('admin.risk.col.positions'), f),
    {
      key: 'lots',
      header: t('admin.risk.copy.col.lots'),
      align: 'end',
      render: (r) => <strong className="num">{f.plainLots(r.lots)}</strong>,
      sortValue: (r) => sortNumber(r.lots),
    },
  ];

  return (
    <div className="risk-copy" data-testid="risk-copy">
      <TableSection title={t('admin.risk.copy.symbols.title')} text={t('admin.risk.copy.symbols.text')}>
        <DataTable
          rows={data?.symbols ?? []}
          columns={symbolColumns}
          rowKey={(r) => r.symbol}
          loading={firstLoad}
          error={error}
          onRetry={reload}
          empty={t('admin.risk.copy.symbols.empty')}
          initialSort={{ key: 'positions', direction: 'desc' }}
          testId="risk-copy-symbols"
          rowTestId="risk-copy-symbol-row"
          pageSize={20}
        />
      </TableSection>
      <TableSection title={t('admin.risk.copy.leaders.title')} text={t('admin.risk.copy.leaders.text')}>
        <DataTable
          rows={data?.leaders ?? []}
          columns={leaderColumns}
          rowKey={(r) => String(r.leader_id)}
          loading={firstLoad}
          error={error}
          onRetry={reload}
          empty={t('admin.risk.copy.leaders.empty')}
          initialSort={{ key: 'lots', direction: 'desc' }}
          testId="risk-copy-leaders"
          rowTestId="risk-copy-leader-row"
          pageSize={20}
        />
      </TableSection>
    </div>
  );
}

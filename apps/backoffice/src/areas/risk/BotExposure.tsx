import type { TRouteOutput } from '@broker/contracts/routes';
import { Link } from 'react-router';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { useSession } from '../../session';
import { sortNumber, useRiskFormat } from './format';
import type { TScope } from './ScopeSelect';
import { netLotsColumn, positionsColumn, TableSection, usePolledQuery } from './ui';

type TBotSymbol = TRouteOutput<'adminstrategyexposure'>['symbols'][number];

const POLL_MS = 5_000;

/**
 * The strategy bots' part of the exposure, per symbol, in the page's account scope: how many bots
 * work on it, the lots their positions hold long and short and the net, the margin those positions
 * hold (USD), and their pending orders with the lots they would buy and sell.
 */
export function BotExposure({ scope }: { scope: TScope }) {
  const { t } = useI18n();
  const f = useRiskFormat();
  const { can } = useSession();
  const { data, error, firstLoad, reload } = usePolledQuery('adminstrategyexposure', { scope }, POLL_MS);

  const columns: TColumn<TBotSymbol>[] = [
    {
      key: 'symbol',
      header: t('admin.risk.col.symbol'),
      render: (r) =>
        can('strategies.view') ? (
          <Link to={`/strategies?${new URLSearchParams({ symbol: r.symbol })}`} className="risk-who">
            <strong>{r.symbol}</strong>
          </Link>
        ) : (
          <strong>{r.symbol}</strong>
        ),
      sortValue: (r) => r.symbol,
    },
    {
      key: 'bots',
      header: t('admin.risk.bots.col.bots'),
      align: 'end',
      render: (r) => <span className="num">{f.count(r.workingBots)}</span>,
      sortValue: (r) => r.workingBots,
    },
    {
      key: 'longShort',
      header: t('admin.risk.bots.col.longShort'),
      align: 'end',
      render: (r) => (
        <span className="num">
          {f.plainLots(r.longLots)} / {f.plainLots(r.shortLots)}
        </span>
      ),
      sortValue: (r) => Number(r.longLots) + Number(r.shortLots),
    },
    netLotsColumn(t('admin.risk.col.netLots'), f),
    positionsColumn(t('admin.risk.col.positions'), f),
    {
      key: 'margin',
      header: t('admin.risk.bots.col.margin'),
      align: 'end',
      render: (r) => <span className="num">{f.usd(r.marginUsd)}</span>,
      sortValue: (r) => sortNumber(r.marginUsd),
    },
    {
      key: 'orders',
      header: t('admin.risk.bots.col.orders'),
      align: 'end',
      render: (r) => (
        <span className="num" title={t('admin.risk.bots.col.ordersHint')}>
          {f.count(r.orders)} · {f.plainLots(r.buyOrderLots)} / {f.plainLots(r.sellOrderLots)}
        </span>
      ),
      sortValue: (r) => r.orders,
    },
  ];

  return (
    <div data-testid="risk-bots">
      <TableSection title={t('admin.risk.bots.title')} text={t('admin.risk.bots.text')}>
        <DataTable
          rows={data?.symbols ?? []}
          columns={columns}
          rowKey={(r) => r.symbol}
          loading={firstLoad}
          error={error}
          onRetry={reload}
          empty={t('admin.risk.bots.empty')}
          initialSort={{ key: 'bots', direction: 'desc' }}
          testId="risk-bot-symbols"
          rowTestId="risk-bot-symbol-row"
          pageSize={20}
        />
      </TableSection>
    </div>
  );
}

import type { TRouteOutput } from '@broker/contracts/routes';
import { useState } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { BotExposure } from './BotExposure';
import { CopiedVolume } from './CopiedVolume';
import { sortNumber, tone, useRiskFormat } from './format';
import { ScopeSelect, type TScope } from './ScopeSelect';
import { customerColumn, TableSection, usePolledQuery } from './ui';

type TExposure = TRouteOutput<'adminriskexposure'>;
type TSymbolRow = TExposure['symbols'][number];
type TCustomerRow = TExposure['customers'][number];
type TGroupRow = TExposure['groups'][number];

const POLL_MS = 2_000;

/** Live exposure: what the broker carries per symbol, customer and group, A-book apart from B-book. */
export function ExposureTab() {
  const { t } = useI18n();
  const f = useRiskFormat();
  const [scope, setScope] = useState<TScope>('real');
  const { data, error, firstLoad, reload } = usePolledQuery('adminriskexposure', { scope, top: 20 }, POLL_MS);

  const symbolColumns: TColumn<TSymbolRow>[] = [
    {
      key: 'symbol',
      header: t('admin.risk.col.symbol'),
      render: (r) => (
        <span className="risk-who">
          <strong>{r.symbol}</strong>
          <span className="num">{r.bid && r.ask ? `${f.price(r.bid)} / ${f.price(r.ask)}` : '—'}</span>
        </span>
      ),
      sortValue: (r) => r.symbol,
    },
    {
      key: 'buySell',
      header: t('admin.risk.col.buySell'),
      align: 'end',
      render: (r) => `${f.plainLots(r.buyLots)} / ${f.plainLots(r.sellLots)}`,
      sortValue: (r) => Number(r.buyLots) + Number(r.sellLots),
    },
    {
      key: 'net',
      header: t('admin.risk.col.netLots'),
      align: 'end',
      render: (r) => <strong className={tone(r.netLots)}>{f.lots(r.netLots)}</strong>,
      sortValue: (r) => sortNumber(r.netLots),
    },
    {
      key: 'split',
      header: t('admin.risk.col.netAB'),
      align: 'end',
      render: (r) => (
        <span className="risk-split">
          <span className="kit-pill">A {f.lots(r.netLotsA)}</span>
          <span className="kit-pill">B {f.lots(r.netLotsB)}</span>
        </span>
      ),
    },
    {
      key: 'notional',
      header: t('admin.risk.col.notional'),
      align: 'end',
      render: (r) => f.usd(r.netNotionalUsd),
      sortValue: (r) => Math.abs(Number(r.netNotionalUsd)),
    },
    {
      key: 'clientPnl',
      header: t('admin.risk.col.clientPnl'),
      align: 'end',
      render: (r) => <span className={tone(r.clientPnlUsd)}>{f.usd(r.clientPnlUsd)}</span>,
      sortValue: (r) => sortNumber(r.clientPnlUsd),
    },
    {
      key: 'brokerPnl',
      header: t('admin.risk.col.brokerPnl'),
      align: 'end',
      render: (r) => <span className={tone(r.brokerPnlUsd)}>{f.usd(r.brokerPnlUsd)}</span>,
      sortValue: (r) => sortNumber(r.brokerPnlUsd),
    },
    {
      key: 'positions',
      header: t('admin.risk.col.positions'),
      align: 'end',
      render: (r) => f.count(r.positions),
      sortValue: (r) => r.positions,
    },
  ];

  const symbolsCell = (symbols: TCustomerRow['symbols']) =>
    symbols.length === 0 ? (
      '—'
    ) : (
      <span className="risk-chips">
        {symbols.slice(0, 3).map((s) => (
          <span key={s.symbol} className="kit-pill risk-chip">
            <span>{s.symbol}</span>
            <span className={tone(s.netLots)}>{f.lots(s.netLots)}</span>
          </span>
        ))}
      </span>
    );
  const holderColumns = <R extends TCustomerRow | TGroupRow>(): TColumn<R>[] => [
    {
      key: 'exposure',
      header: t('admin.risk.col.exposure'),
      align: 'end',
      render: (r) => f.usd(r.exposureUsd),
      sortValue: (r) => sortNumber(r.exposureUsd),
    },
    {
      key: 'pnl',
      header: t('admin.risk.col.floatingPnl'),
      align: 'end',
      render: (r) => <span className={tone(r.floatingPnlUsd)}>{f.usd(r.floatingPnlUsd)}</span>,
      sortValue: (r) => sortNumber(r.floatingPnlUsd),
    },
    {
      key: 'equity',
      header: t('admin.risk.col.equity'),
      align: 'end',
      render: (r) => f.usd(r.equityUsd),
      sortValue: (r) => sortNumber(r.equityUsd),
    },
    {
      key: 'positions',
      header: t('admin.risk.col.positions'),
      align: 'end',
      render: (r) => f.count(r.positions),
      sortValue: (r) => r.positions,
    },
    { key: 'symbols', header: t('admin.risk.col.topSymbols'), render: (r) => symbolsCell(r.symbols) },
  ];
  const customerColumns: TColumn<TCustomerRow>[] = [
    customerColumn(t('admin.risk.col.customer'), (r) => r.name),
    ...holderColumns<TCustomerRow>(),
  ];
  const groupColumns: TColumn<TGroupRow>[] = [
    {
      key: 'group',
      header: t('admin.risk.col.group'),
      render: (r) => <strong>{r.name}</strong>,
      sortValue: (r) => r.name,
    },
    ...holderColumns<TGroupRow>(),
  ];

  return (
    <div className="risk-tab-body">
      <div className="risk-toolbar">
        <ScopeSelect value={scope} onChange={setScope} />
        <span className="bo-updated risk-live" aria-live="off">
          <span className="risk-dot" aria-hidden="true" />
          {data ? t('admin.risk.updated', { time: f.clock(data.time) }) : t('admin.risk.loading')}
        </span>
      </div>

      <section className="bo-stats risk-stats" aria-busy={firstLoad}>
        <Stat
          label={t('admin.risk.stat.exposure')}
          value={data ? f.usd(data.totals.exposureUsd) : null}
          hint={
            data
              ? t('admin.risk.stat.exposureHint', {
                  positions: data.totals.positions,
                  accounts: data.totals.accounts,
                })
              : ''
          }
          icon="chart"
          tone="brand"
        />
        <Stat
          label={t('admin.risk.stat.clientPnl')}
          value={data ? f.usd(data.totals.clientPnlUsd) : null}
          hint={
            !data
              ? ''
              : /^-/.test(data.totals.clientPnlUsd)
                ? t('admin.risk.stat.clientPnlHintLosing')
                : /^0(\.0+)?$/.test(data.totals.clientPnlUsd)
                  ? t('admin.risk.stat.clientPnlHintFlat')
                  : t('admin.risk.stat.clientPnlHint')
          }
          icon="users"
          tone={data && /^-/.test(data.totals.clientPnlUsd) ? 'down' : 'up'}
        />
        <Stat
          label={t('admin.risk.stat.brokerPnl')}
          value={data ? f.usd(data.totals.brokerPnlUsd) : null}
          hint={t('admin.risk.stat.brokerPnlHint')}
          icon="wallet"
          tone={data && /^-/.test(data.totals.brokerPnlUsd) ? 'down' : 'up'}
        />
        <article className="bo-stat risk-book-stat" data-tone="warning" data-testid="risk-books">
          <div className="bo-stat-head">
            <span className="bo-stat-label">{t('admin.risk.stat.books')}</span>
            <span className="bo-stat-icon">
              <Icon name="shield" size={18} />
            </span>
          </div>
          {data ? (
            <dl className="risk-books">
              {(['A', 'B'] as const).map((book) => (
                <div key={book}>
                  <dt>{book === 'A' ? t('admin.risk.book.a') : t('admin.risk.book.b')}</dt>
                  <dd>
                    <strong className="num">{f.usd(data.books[book].exposureUsd)}</strong>
                    <span>
                      {t('admin.risk.book.positions', { count: f.count(data.books[book].positions) })}
                    </span>
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <span className="skeleton bo-stat-skeleton" />
          )}
        </article>
      </section>

      <TableSection title={t('admin.risk.symbols.title')} text={t('admin.risk.symbols.text')}>
        <DataTable
          rows={data?.symbols ?? []}
          columns={symbolColumns}
          rowKey={(r) => r.symbol}
          loading={firstLoad}
          error={error}
          onRetry={reload}
          empty={t('admin.risk.symbols.empty')}
          testId="risk-symbols"
          rowTestId="risk-symbol-row"
          pageSize={50}
        />
      </TableSection>

      <div className="risk-columns">
        <TableSection title={t('admin.risk.customers.title')} text={t('admin.risk.customers.text')}>
          <DataTable
            rows={data?.customers ?? []}
            columns={customerColumns}
            rowKey={(r) => r.userId}
            loading={firstLoad}
            empty={t('admin.risk.customers.empty')}
            testId="risk-customers"
          />
        </TableSection>
        <TableSection title={t('admin.risk.groups.title')} text={t('admin.risk.groups.text')}>
          <DataTable
            rows={data?.groups ?? []}
            columns={groupColumns}
            rowKey={(r) => r.groupId}
            loading={firstLoad}
            empty={t('admin.risk.groups.empty')}
            testId="risk-groups"
          />
        </TableSection>
      </div>

      <CopiedVolume />
      <BotExposure scope={scope} />
    </div>
  );
}

function Stat({
  label,
  value,
  hint,
  icon,
  tone: statTone,
}: {
  label: string;
  value: string | null;
  hint: string;
  icon: string;
  tone: string;
}) {
  return (
    <article className="bo-stat" data-tone={statTone}>
      <div className="bo-stat-head">
        <span className="bo-stat-label">{label}</span>
        <span className="bo-stat-icon">
          <Icon name={icon} size={18} />
        </span>
      </div>
      {value === null ? (
        <span className="skeleton bo-stat-skeleton" />
      ) : (
        <strong className="bo-stat-value num">{value}</strong>
      )}
      <span className="bo-stat-hint">{hint}</span>
    </article>
  );
}

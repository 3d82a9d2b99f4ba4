import type { TMarketHistoryEntry } from '@broker/contracts/admin/market-routes';
import { useMemo, useState } from 'react';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { useQuery } from '../../kit/useApi';
import { ChangeList } from './ChangeList';

const PAGE_SIZE = 20;
type TScope = TMarketHistoryEntry['scope'];

/** A date input's value ("YYYY-MM-DD") as the local midnight, in ms. */
const localMidnight = (value: string, addDays = 0) => {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + addDays).getTime();
};

/** Who changed what and when, newest first, with each change as "before → after". */
export function HistoryTab() {
  const { t, intl } = useI18n();
  const [symbol, setSymbol] = useState('');
  const [groupId, setGroupId] = useState('');
  const [scope, setScope] = useState<TScope | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const instruments = useQuery('adminmarketinstruments', {});
  const groups = useQuery('adminmarketgrouplist', {});
  const input = {
    ...(symbol ? { symbol } : {}),
    ...(groupId ? { groupId } : {}),
    ...(scope ? { scope } : {}),
    ...(from ? { from: localMidnight(from) } : {}),
    ...(to ? { to: localMidnight(to, 1) } : {}),
    page,
    pageSize: PAGE_SIZE,
  };
  const history = useQuery('adminmarkethistory', input);
  const dateTime = useMemo(
    () => new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'medium' }),
    [intl],
  );
  const defaults = useMemo(
    () => new Map((instruments.data?.items ?? []).map((i) => [i.symbol, i.defaultLeverage])),
    [instruments.data],
  );
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const what = (entry: TMarketHistoryEntry) => {
    if (entry.scope === 'instrument') return entry.symbol ?? '—';
    if (entry.scope === 'group_terms') return `${entry.groupName ?? '—'} · ${entry.symbol ?? ''}`;
    if (entry.before === null)
      return t('admin.market.history.groupCreated', { group: entry.groupName ?? '—' });
    if (entry.after === null)
      return t('admin.market.history.groupDeleted', { group: entry.groupName ?? '—' });
    return t('admin.market.history.group', { group: entry.groupName ?? '—' });
  };

  const columns: TColumn<TMarketHistoryEntry>[] = [
    {
      key: 'when',
      header: t('admin.market.history.when'),
      render: (e) => <span className="mk-muted">{dateTime.format(new Date(e.createdAt))}</span>,
    },
    {
      key: 'who',
      header: t('admin.market.history.who'),
      render: (e) => e.staffName ?? t('admin.market.history.system'),
    },
    { key: 'what', header: t('admin.market.history.what'), render: (e) => <strong>{what(e)}</strong> },
    {
      key: 'changes',
      header: t('admin.market.history.changes'),
      render: (e) =>
        e.scope === 'group' && (e.before === null || e.after === null) ? (
          <span className="mk-muted">
            {e.before === null
              ? t('admin.market.history.createdNote')
              : t('admin.market.history.deletedNote')}
          </span>
        ) : (
          <ChangeList
            before={e.before}
            after={e.after}
            defaultLeverage={e.symbol ? defaults.get(e.symbol) : undefined}
          />
        ),
    },
  ];

  const scopes: { value: TScope; key: string }[] = [
    { value: 'instrument', key: 'admin.market.history.scopeInstrument' },
    { value: 'group_terms', key: 'admin.market.history.scopeGroupTerms' },
    { value: 'group', key: 'admin.market.history.scopeGroup' },
  ];
  const filtered = Boolean(symbol || groupId || scope || from || to);

  return (
    <div className="mk-tab" data-testid="market-history">
      <div className="card mk-filters" role="search">
        <label className="field">
          <span className="field-label">{t('admin.market.col.symbol')}</span>
          <select
            className="input"
            value={symbol}
            onChange={(e) => filter(setSymbol)(e.target.value)}
            data-testid="history-symbol"
          >
            <option value="">{t('admin.market.history.any')}</option>
            {(instruments.data?.items ?? []).map((i) => (
              <option key={i.symbol} value={i.symbol}>
                {i.symbol}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t('admin.market.history.groupFilter')}</span>
          <select className="input" value={groupId} onChange={(e) => filter(setGroupId)(e.target.value)}>
            <option value="">{t('admin.market.history.any')}</option>
            {(groups.data?.items ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t('admin.market.history.scope')}</span>
          <select
            className="input"
            value={scope}
            onChange={(e) => filter(setScope)(e.target.value as TScope | '')}
          >
            <option value="">{t('admin.market.history.any')}</option>
            {scopes.map((s) => (
              <option key={s.value} value={s.value}>
                {t(s.key)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t('admin.market.history.from')}</span>
          <input
            className="input"
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => filter(setFrom)(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.market.history.to')}</span>
          <input
            className="input"
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => filter(setTo)(e.target.value)}
          />
        </label>
        <div className="mk-filters-end">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={!filtered}
            onClick={() => {
              setSymbol('');
              setGroupId('');
              setScope('');
              setFrom('');
              setTo('');
              setPage(1);
            }}
          >
            {t('admin.market.history.reset')}
          </button>
        </div>
      </div>
      <DataTable
        testId="history-table"
        rowTestId="history-row"
        rows={history.data?.items ?? []}
        columns={columns}
        rowKey={(e) => e.id}
        loading={history.status === 'loading'}
        error={history.status === 'error' ? history.error.message : null}
        onRetry={history.reload}
        empty={filtered ? t('admin.market.history.noMatch') : t('admin.market.history.empty')}
        server={{ total: history.data?.total ?? 0, page, pageSize: PAGE_SIZE, onPage: setPage }}
      />
    </div>
  );
}

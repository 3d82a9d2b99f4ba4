import type { TMarketInstrument } from '@broker/contracts/admin/market-routes';
import {
  GROUP_OVERRIDE_KEYS,
  mergeOverrides,
  type TGroupOverrideKey,
  type TGroupOverrides,
} from '@broker/domain/market/market-config';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { callApi } from '../../api';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { ConfirmDialog } from '../../kit/Modal';
import { useQuery } from '../../kit/useApi';
import { ApiError } from '../../lib/api';
import { CATEGORY_LABEL, FIELD_LABEL, formatDecimal } from './format';
import { GroupForm, percent } from './GroupsTab';
import { StatusPills } from './InstrumentsTab';
import { OverridesDrawer } from './OverridesDrawer';

interface TRow {
  instrument: TMarketInstrument;
  entry: { overrides: TGroupOverrides; version: string } | null;
}

/** One account group: its details and actions, and its overrides of every instrument. */
export function GroupDetail() {
  const { groupId = '' } = useParams();
  const { t, intl, formatNumber } = useI18n();
  const navigate = useNavigate();
  const terms = useQuery('adminmarketgroupterms', { groupId });
  const instruments = useQuery('adminmarketinstruments', {});
  const [category, setCategory] = useState('all');
  const [onlyOverridden, setOnlyOverridden] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [action, setAction] = useState<'edit' | 'default' | 'delete' | null>(null);
  const [pending, setPending] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'warn'; text: string } | null>(null);
  const group = terms.data?.group;

  const rows: TRow[] = useMemo(() => {
    const bySymbol = new Map((terms.data?.items ?? []).map((e) => [e.symbol, e]));
    return (instruments.data?.items ?? []).map((instrument) => {
      const entry = bySymbol.get(instrument.symbol);
      return { instrument, entry: entry ? { overrides: entry.overrides, version: entry.version } : null };
    });
  }, [terms.data, instruments.data]);
  const shown = rows.filter(
    (r) => (category === 'all' || r.instrument.category === category) && (!onlyOverridden || r.entry),
  );
  const reload = () => {
    terms.reload();
    instruments.reload();
  };

  /** Values the group sets itself stand out from inherited ones. */
  const mark = (r: TRow, ...keys: TGroupOverrideKey[]) =>
    keys.some((k) => r.entry?.overrides[k] !== undefined) ? 'mk-overridden' : undefined;
  const columns: TColumn<TRow>[] = [
    {
      key: 'symbol',
      header: t('admin.market.col.symbol'),
      sortValue: (r) => r.instrument.symbol,
      render: (r) => (
        <span className="mk-sym">
          <strong>{r.instrument.symbol}</strong>
          <span>{t(CATEGORY_LABEL[r.instrument.category] ?? r.instrument.category)}</span>
        </span>
      ),
    },
    {
      key: 'overrides',
      header: t('admin.market.groups.overridden'),
      sortValue: (r) => Object.keys(r.entry?.overrides ?? {}).length,
      render: (r) =>
        r.entry ? (
          <span className="mk-pills">
            {GROUP_OVERRIDE_KEYS.filter((k) => r.entry?.overrides[k] !== undefined).map((k) => (
              <span key={k} className="kit-pill kit-pill-warn">
                {t(FIELD_LABEL[k] ?? k)}
              </span>
            ))}
          </span>
        ) : (
          <span className="mk-muted">{t('admin.market.groups.inheritsAll')}</span>
        ),
    },
    {
      key: 'status',
      header: t('admin.market.col.status'),
      render: (r) => <StatusPills config={mergeOverrides(r.instrument.config, r.entry?.overrides ?? {})} />,
    },
    {
      key: 'volumes',
      header: t('admin.market.col.volumes'),
      render: (r) => {
        const c = mergeOverrides(r.instrument.config, r.entry?.overrides ?? {});
        return (
          <span className={mark(r, 'minVolume', 'volumeStep', 'maxVolume')}>
            {t('admin.market.volumeRange', {
              min: formatDecimal(intl, c.minVolume),
              max: formatDecimal(intl, c.maxVolume),
              step: formatDecimal(intl, c.volumeStep),
            })}
          </span>
        );
      },
    },
    {
      key: 'leverage',
      header: t('admin.market.col.leverage'),
      align: 'end',
      render: (r) => {
        const c = mergeOverrides(r.instrument.config, r.entry?.overrides ?? {});
        return (
          <span className={mark(r, 'maxLeverage', 'leverageTiers')}>
            1:{c.maxLeverage ?? r.instrument.defaultLeverage}
          </span>
        );
      },
    },
    {
      key: 'swaps',
      header: t('admin.market.col.swaps'),
      align: 'end',
      render: (r) => {
        const c = mergeOverrides(r.instrument.config, r.entry?.overrides ?? {});
        return (
          <span className={mark(r, 'swapLong', 'swapShort')}>
            {formatDecimal(intl, c.swapLong)} / {formatDecimal(intl, c.swapShort)}
          </span>
        );
      },
    },
    {
      key: 'commission',
      header: t('admin.market.col.commission'),
      align: 'end',
      render: (r) => (
        <span className={mark(r, 'commissionPerLot')}>
          {formatDecimal(
            intl,
            mergeOverrides(r.instrument.config, r.entry?.overrides ?? {}).commissionPerLot,
          )}
        </span>
      ),
    },
  ];

  if (terms.status === 'error' && !group)
    return (
      <div className="mk-tab">
        <div className="card bo-status-card" role="alert">
          <p>{terms.error.errorCode === -6009 ? t('admin.market.groups.notFound') : terms.error.message}</p>
          <Link className="btn btn-secondary btn-sm" to="/market/groups">
            {t('admin.market.groups.back')}
          </Link>
        </div>
      </div>
    );

  const runAction = async (kind: 'default' | 'delete') => {
    if (!group) return;
    setPending(true);
    setActionError(null);
    try {
      if (kind === 'default') {
        const answer = await callApi('adminmarketgroupdefault', { id: group.id });
        setNotice(
          answer.applied
            ? { tone: 'ok', text: t('admin.market.groups.defaultDone', { name: group.name }) }
            : { tone: 'warn', text: t('admin.market.notApplied') },
        );
        setAction(null);
        reload();
      } else {
        await callApi('adminmarketgroupdelete', { id: group.id, version: group.version });
        navigate('/market/groups');
      }
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError('http', String(error));
      setActionError(
        apiError.errorCode === -6013 && group.accounts > 0
          ? t('admin.market.groups.deleteHasAccounts', { count: group.accounts })
          : apiError.message,
      );
    } finally {
      setPending(false);
    }
  };
  const editingRow = editing ? rows.find((r) => r.instrument.symbol === editing) : undefined;
  const deleteBlocked = group
    ? group.isDefault
      ? t('admin.market.groups.deleteDefault')
      : group.accounts > 0
        ? t('admin.market.groups.deleteHasAccounts', { count: group.accounts })
        : null
    : null;

  return (
    <div className="mk-tab" data-testid="market-group">
      <Link className="mk-back" to="/market/groups">
        <Icon name="arrowLeft" size={14} />
        {t('admin.market.groups.back')}
      </Link>
      {notice ? (
        <div className={`mk-notice mk-notice-${notice.tone}`} role="status">
          <span>{notice.text}</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setNotice(null)}>
            {t('admin.kit.close')}
          </button>
        </div>
      ) : null}
      <section className="card mk-group-card" aria-busy={!group}>
        <div className="mk-group-head">
          <div>
            <h2 className="mk-group-title">
              {group ? group.name : <span className="kit-skeleton mk-title-skeleton" />}
              {group?.isDefault ? (
                <span className="kit-pill kit-pill-up">{t('admin.market.groups.default')}</span>
              ) : null}
            </h2>
            <p className="mk-muted">{group?.description || t('admin.market.groups.noDescription')}</p>
          </div>
          {group ? (
            <Can permission="market.groups">
              <div className="kit-actions">
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => setAction('edit')}>
                  {t('admin.market.groups.edit')}
                </button>
                {group.isDefault ? null : (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => {
                      setActionError(null);
                      setAction('default');
                    }}
                  >
                    {t('admin.market.groups.makeDefault')}
                  </button>
                )}
                <button
                  type="button"
                  className="btn btn-secondary btn-sm mk-danger"
                  disabled={deleteBlocked !== null}
                  title={deleteBlocked ?? undefined}
                  onClick={() => {
                    setActionError(null);
                    setAction('delete');
                  }}
                >
                  {t('admin.market.groups.delete')}
                </button>
              </div>
            </Can>
          ) : null}
        </div>
        {group ? (
          <dl className="mk-facts">
            <div>
              <dt>{t('admin.market.groups.accounts')}</dt>
              <dd>{formatNumber(group.accounts)}</dd>
            </div>
            <div>
              <dt>{t('admin.market.groups.overrides')}</dt>
              <dd>{formatNumber(group.overrides)}</dd>
            </div>
            <div>
              <dt>{t('admin.market.groups.marginCall')}</dt>
              <dd>{percent(group.marginCallBp, intl)}</dd>
            </div>
            <div>
              <dt>{t('admin.market.groups.stopOut')}</dt>
              <dd>{percent(group.stopOutBp, intl)}</dd>
            </div>
          </dl>
        ) : null}
        {group && deleteBlocked ? <p className="kit-hint">{deleteBlocked}</p> : null}
      </section>
      <DataTable
        testId="group-terms-table"
        rowTestId="group-term-row"
        rows={shown}
        columns={columns}
        rowKey={(r) => r.instrument.symbol}
        filterText={(r) => r.instrument.symbol}
        filterPlaceholder={t('admin.market.search')}
        pageSize={25}
        loading={terms.status === 'loading' || instruments.status === 'loading'}
        error={instruments.status === 'error' ? instruments.error.message : null}
        onRetry={reload}
        onRowClick={(r) => setEditing(r.instrument.symbol)}
        initialSort={{ key: 'overrides', direction: 'desc' }}
        empty={onlyOverridden ? t('admin.market.groups.noOverrides') : t('admin.market.emptyInstruments')}
        toolbar={
          <>
            <label className="kit-check">
              <input
                type="checkbox"
                checked={onlyOverridden}
                onChange={(e) => setOnlyOverridden(e.target.checked)}
                data-testid="only-overridden"
              />
              {t('admin.market.groups.onlyOverridden')}
            </label>
            <label className="mk-select-label">
              <span className="mk-sr">{t('admin.market.category.label')}</span>
              <select
                className="input mk-select"
                value={category}
                onChange={(e) => setCategory(e.target.value)}
              >
                <option value="all">{t('admin.market.category.all', { count: rows.length })}</option>
                {Object.entries(CATEGORY_LABEL).map(([value, key]) => (
                  <option key={value} value={value}>
                    {t(key)}
                  </option>
                ))}
              </select>
            </label>
          </>
        }
      />
      {group && editingRow ? (
        <OverridesDrawer
          key={editingRow.entry?.version ?? 'none'}
          group={group}
          instrument={editingRow.instrument}
          entry={editingRow.entry}
          onClose={() => setEditing(null)}
          onReload={reload}
          onSaved={(applied) => {
            setEditing(null);
            setNotice(
              applied
                ? {
                    tone: 'ok',
                    text: t('admin.market.overrides.saved', {
                      group: group.name,
                      symbol: editingRow.instrument.symbol,
                    }),
                  }
                : { tone: 'warn', text: t('admin.market.notApplied') },
            );
            reload();
          }}
        />
      ) : null}
      {group && action === 'edit' ? (
        <GroupForm
          group={group}
          onClose={() => setAction(null)}
          onSaved={() => {
            setAction(null);
            reload();
          }}
        />
      ) : null}
      {group && action === 'default' ? (
        <ConfirmDialog
          title={t('admin.market.groups.makeDefaultTitle', { name: group.name })}
          message={t('admin.market.groups.makeDefaultText')}
          confirmLabel={t('admin.market.groups.makeDefault')}
          pending={pending}
          error={actionError}
          onConfirm={() => void runAction('default')}
          onCancel={() => setAction(null)}
        />
      ) : null}
      {group && action === 'delete' ? (
        <ConfirmDialog
          title={t('admin.market.groups.deleteTitle', { name: group.name })}
          message={t('admin.market.groups.deleteText', { count: group.overrides })}
          confirmLabel={t('admin.market.groups.delete')}
          danger
          pending={pending}
          error={actionError}
          onConfirm={() => void runAction('delete')}
          onCancel={() => setAction(null)}
        />
      ) : null}
    </div>
  );
}

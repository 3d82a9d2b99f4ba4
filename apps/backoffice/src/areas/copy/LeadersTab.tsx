import { useMemo, useState } from 'react';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Notice, useNotice } from '../../kit/Feedback';
import { RefreshButton } from '../../kit/RefreshButton';
import { SearchBox } from '../../kit/SearchBox';
import { Segmented } from '../../kit/Segmented';
import { useQuery } from '../../kit/useApi';
import { pick, useFilterParams } from '../../kit/useFilterParams';
import {
  ACCOUNT_TYPE_LABELS,
  LEADER_STATE_LABELS,
  LEADER_STATE_TONES,
  LEADER_STATES,
  leaderCounts,
  RISK_BAND_TONES,
  riskBand,
  type TAdminLeader,
  TRADE_TYPE_LABELS,
  tone,
  useCopyFormat,
} from './format';
import { LeaderDrawer } from './LeaderDrawer';

const PAGE_SIZE = 20;
const FILTERS = [...LEADER_STATES, 'all'] as const;
type TFilter = (typeof FILTERS)[number];

/**
 * Leader applications and leaders: state segments with counts (waiting applications first), a search by
 * nick or e-mail, 20 a page; a row opens the leader's drawer with the full statistics and the decisions.
 */
export function LeadersTab({ onChanged }: { onChanged: () => void }) {
  const { t } = useI18n();
  const format = useCopyFormat();
  const { params, update } = useFilterParams();
  const [notice, setNotice] = useNotice();
  const status: TFilter = pick(params.get('status'), FILTERS) ?? 'pending';
  const search = params.get('q')?.trim() || undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const open = Number(params.get('open')) || null;
  const list = useQuery('admincopyleaders', {
    ...(status === 'all' ? {} : { status }),
    ...(search ? { search } : {}),
    page,
    size: PAGE_SIZE,
  });
  const counts = useMemo(() => leaderCounts(list.data?.counts), [list.data]);
  const rows = list.data?.items ?? [];
  // The drawer keeps the leader it opened with, then each decision's answer: a decided application
  // leaves the "waiting" list, and the drawer still shows it in its new state.
  const [shown, setShown] = useState<TAdminLeader | null>(null);
  const fromList = open ? rows.find((row) => row.leader_id === open) : undefined;
  const selected = fromList ?? (shown?.leader_id === open ? shown : null);

  const columns = useMemo<TColumn<TAdminLeader>[]>(
    () => [
      {
        key: 'nick',
        header: t('admin.copy.field.nick'),
        render: (row) => (
          <span className="cp-who">
            <button
              type="button"
              className="cp-rowbtn"
              onClick={(e) => {
                e.stopPropagation();
                setShown(row);
                update({ open: String(row.leader_id) });
              }}
              data-testid="leader-open"
            >
              {row.nick}
            </button>
            <span>{row.email ?? '—'}</span>
            {status === 'all' ? (
              <span
                className={`kit-pill ${LEADER_STATE_TONES[row.status]}`}
                data-testid="leader-status"
                data-status={row.status}
              >
                {t(LEADER_STATE_LABELS[row.status])}
              </span>
            ) : null}
          </span>
        ),
      },
      {
        key: 'account',
        header: t('admin.copy.field.account'),
        render: (row) => (
          <span className="cp-stack">
            <span className="num">#{row.leader_id}</span>
            <span className="cp-muted">{row.currency}</span>
          </span>
        ),
      },
      {
        key: 'type',
        header: t('admin.copy.field.typeMode'),
        render: (row) => (
          <span className="cp-stack">
            <span>
              {ACCOUNT_TYPE_LABELS[row.accountType]
                ? t(ACCOUNT_TYPE_LABELS[row.accountType] ?? '')
                : row.accountType}
            </span>
            <span className="cp-muted">
              {TRADE_TYPE_LABELS[row.tradeType] ? t(TRADE_TYPE_LABELS[row.tradeType] ?? '') : row.tradeType}
            </span>
          </span>
        ),
      },
      {
        key: 'equity',
        header: t('admin.copy.field.equity'),
        align: 'end',
        render: (row) => <span className="num">{format.amount(row.equity)}</span>,
      },
      {
        key: 'fee',
        header: t('admin.copy.field.fee'),
        align: 'end',
        render: (row) => <span className="num">{format.percent(row.feePercent)}</span>,
      },
      {
        key: 'followers',
        header: t('admin.copy.field.followers'),
        align: 'end',
        render: (row) => (
          <span className="cp-stack cp-end">
            <span className="num">{format.count(row.followers)}</span>
            {row.followersPaused ? (
              <span className="cp-muted">{t('admin.copy.leader.closedShort')}</span>
            ) : null}
          </span>
        ),
      },
      {
        key: 'assets',
        header: t('admin.copy.field.copiedAssets'),
        align: 'end',
        render: (row) => <span className="num">{format.amount(row.copiedAssets)}</span>,
      },
      {
        key: 'earned',
        header: t('admin.copy.field.earned'),
        align: 'end',
        render: (row) => <span className="num">{format.amount(row.earned)}</span>,
      },
      {
        key: 'risk',
        header: t('admin.copy.field.risk'),
        align: 'end',
        render: (row) => (
          <span
            className={`kit-pill cp-risk ${RISK_BAND_TONES[riskBand(row.stats.riskScore)]}`}
            title={t('admin.copy.stats.riskHint')}
          >
            {format.count(row.stats.riskScore)}
          </span>
        ),
      },
      {
        key: 'return30d',
        header: t('admin.copy.field.return30d'),
        align: 'end',
        render: (row) => (
          <strong className={`num ${tone(row.stats.return30d) ?? ''}`}>
            {format.signedPercent(row.stats.return30d)}
          </strong>
        ),
      },
      {
        key: 'drawdown',
        header: t('admin.copy.field.drawdown'),
        align: 'end',
        render: (row) => <span className="num">{format.percent(row.stats.maxDrawdown)}</span>,
      },
      {
        key: 'applied',
        header: t('admin.copy.field.applied'),
        render: (row) => (
          <span className="num cp-nowrap" title={format.dateTime(row.appliedAt)}>
            {format.shortDate(row.appliedAt)}
          </span>
        ),
      },
    ],
    [t, format, update, status],
  );

  return (
    <div className="cp-tab">
      <Notice message={notice} testId="copy-notice" />
      <Segmented
        classPrefix="kit-segments"
        label={t('admin.copy.field.state')}
        testId="leader-states"
        value={status}
        counts={counts}
        onChange={(next) => update({ status: next === 'pending' ? null : next })}
        options={FILTERS.map((value) => ({
          value,
          label: value === 'all' ? t('admin.copy.filter.all') : t(LEADER_STATE_LABELS[value]),
        }))}
      />
      <DataTable
        testId="leaders-table"
        rowTestId="leader-row"
        dense
        rows={rows}
        columns={columns}
        rowKey={(row) => String(row.leader_id)}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        onRowClick={(row) => {
          setShown(row);
          update({ open: String(row.leader_id) });
        }}
        empty={
          search
            ? t('admin.copy.noMatch')
            : status === 'pending'
              ? t('admin.copy.leaders.noneWaiting')
              : t('admin.copy.leaders.empty')
        }
        server={{
          total: list.data?.total ?? 0,
          page,
          pageSize: PAGE_SIZE,
          onPage: (next) => update({ page: String(next) }),
        }}
        toolbar={
          <SearchBar
            value={search ?? ''}
            onChange={(next) => update({ q: next })}
            onRefresh={list.reload}
            refreshing={list.status === 'loading'}
          />
        }
      />
      {open && selected ? (
        <LeaderDrawer
          leader={selected}
          onClose={() => update({ open: null })}
          onChanged={(answer, message) => {
            setShown(answer);
            setNotice(message);
            list.reload();
            onChanged();
          }}
        />
      ) : null}
    </div>
  );
}

/** The search by nick or e-mail, applied 400 ms after the last keystroke, and a refresh. */
function SearchBar({
  value,
  onChange,
  onRefresh,
  refreshing,
}: {
  value: string;
  onChange: (value: string | null) => void;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const { t } = useI18n();
  return (
    <div className="cp-filters">
      <SearchBox
        value={value}
        onChange={onChange}
        label={t('admin.copy.filter.search')}
        testId="copy-filter-search"
        className="cp-search"
      />
      <RefreshButton
        onRefresh={onRefresh}
        refreshing={refreshing}
        label={t('admin.copy.refresh')}
        className="cp-refresh"
      />
    </div>
  );
}

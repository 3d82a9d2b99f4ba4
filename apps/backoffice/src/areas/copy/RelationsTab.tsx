import { useMemo } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { RefreshButton } from '../../kit/RefreshButton';
import { Segmented } from '../../kit/Segmented';
import { useQuery } from '../../kit/useApi';
import { pick, useFilterParams } from '../../kit/useFilterParams';
import {
  COPY_STATE_LABELS,
  COPY_STATE_TONES,
  COPY_STATES,
  MODE_LABELS,
  modeText,
  STOP_REASON_LABELS,
  subtractDecimals,
  type TAdminRelation,
  tone,
  useCopyFormat,
} from './format';
import { idParam, LeaderSelect, leaderPath, useLeaderChoices } from './ui';

const PAGE_SIZE = 20;
const FILTERS = ['all', ...COPY_STATES] as const;
type TFilter = (typeof FILTERS)[number];

/**
 * Copy relations, by leader and state: who copies whom, how (mode and value), the money in the copy
 * account and its result, the fees paid to the leader, open copies and skipped trades.
 */
export function RelationsTab() {
  const { t } = useI18n();
  const format = useCopyFormat();
  const { params, update } = useFilterParams();
  const status: TFilter = pick(params.get('status'), FILTERS) ?? 'all';
  const leaderId = idParam(params.get('leader'));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const choices = useLeaderChoices();
  const list = useQuery('admincopyrelations', {
    ...(leaderId ? { leader_id: leaderId } : {}),
    ...(status === 'all' ? {} : { status }),
    page,
    size: PAGE_SIZE,
  });

  const columns = useMemo<TColumn<TAdminRelation>[]>(
    () => [
      {
        key: 'follower',
        header: t('admin.copy.field.follower'),
        render: (row) => (
          <span className="cp-who">
            <Link
              to={`/users/${encodeURIComponent(row.followerUserId)}`}
              onClick={(e) => e.stopPropagation()}
            >
              {row.followerNick}
            </Link>
            <span>{t('admin.copy.relation.copyAccount', { id: String(row.copy_account_id) })}</span>
          </span>
        ),
      },
      {
        key: 'leader',
        header: t('admin.copy.field.leader'),
        render: (row) => (
          <span className="cp-who">
            <Link to={leaderPath(row.leader_id)}>{row.leaderNick}</Link>
            <span className="num">#{row.leader_id}</span>
          </span>
        ),
      },
      {
        key: 'mode',
        header: t('admin.copy.field.mode'),
        render: (row) => {
          const text = modeText(
            row.mode,
            row.mode === 'fixed_margin' ? format.amount(row.value) : format.plain(row.value),
            row.currency,
          );
          return (
            <span className="cp-stack">
              <span>{t(MODE_LABELS[row.mode])}</span>
              <span className="cp-muted">{t(text.key, text.values)}</span>
            </span>
          );
        },
      },
      {
        key: 'status',
        header: t('admin.copy.field.state'),
        render: (row) => (
          <span className="cp-stack">
            <span
              className={`kit-pill ${COPY_STATE_TONES[row.status]}`}
              data-testid="relation-status"
              data-status={row.status}
            >
              {t(COPY_STATE_LABELS[row.status])}
            </span>
            {row.stopReason ? (
              <span className="cp-muted">{t(STOP_REASON_LABELS[row.stopReason])}</span>
            ) : null}
          </span>
        ),
      },
      {
        key: 'allocated',
        header: t('admin.copy.field.allocated'),
        align: 'end',
        render: (row) => <span className="num">{format.money(row.allocated, row.currency)}</span>,
      },
      {
        key: 'equity',
        header: t('admin.copy.field.equity'),
        align: 'end',
        render: (row) => {
          const result = subtractDecimals(row.equity, row.allocated);
          return (
            <span className="cp-stack cp-end">
              <span className="num">{format.money(row.equity, row.currency)}</span>
              <span className={`num cp-small ${tone(result) ?? ''}`}>
                {format.signedMoney(result, row.currency)}
              </span>
            </span>
          );
        },
      },
      {
        key: 'fees',
        header: t('admin.copy.field.feesPaid'),
        align: 'end',
        render: (row) => <span className="num">{format.money(row.feesPaid, row.currency)}</span>,
      },
      {
        key: 'open',
        header: t('admin.copy.field.openPositions'),
        align: 'end',
        render: (row) => <span className="num">{format.count(row.openPositions)}</span>,
      },
      {
        key: 'skipped',
        header: t('admin.copy.field.skipped'),
        align: 'end',
        render: (row) => (
          <span className={`num${row.skipped > 0 ? ' cp-warn' : ''}`}>{format.count(row.skipped)}</span>
        ),
      },
      {
        key: 'since',
        header: t('admin.copy.field.since'),
        render: (row) => <span className="num cp-nowrap">{format.date(row.createdAt)}</span>,
      },
    ],
    [t, format],
  );

  return (
    <div className="cp-tab">
      <Segmented
        classPrefix="kit-segments"
        label={t('admin.copy.field.state')}
        testId="relation-states"
        value={status}
        onChange={(next) => update({ status: next === 'all' ? null : next })}
        options={FILTERS.map((value) => ({
          value,
          label: value === 'all' ? t('admin.copy.filter.all') : t(COPY_STATE_LABELS[value]),
        }))}
      />
      <DataTable
        testId="relations-table"
        rowTestId="relation-row"
        dense
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(row) => String(row.copy_account_id)}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        empty={leaderId || status !== 'all' ? t('admin.copy.noMatch') : t('admin.copy.relations.empty')}
        server={{
          total: list.data?.total ?? 0,
          page,
          pageSize: PAGE_SIZE,
          onPage: (next) => update({ page: String(next) }),
        }}
        toolbar={
          <div className="cp-filters">
            <LeaderSelect
              value={leaderId}
              leaders={choices.leaders}
              onChange={(next) => update({ leader: next })}
            />
            <RefreshButton
              onRefresh={list.reload}
              refreshing={list.status === 'loading'}
              label={t('admin.copy.refresh')}
              className="cp-refresh"
            />
          </div>
        }
      />
    </div>
  );
}

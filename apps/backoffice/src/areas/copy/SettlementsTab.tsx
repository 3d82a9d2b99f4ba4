import { useMemo } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Skeleton } from '../../kit/Feedback';
import { RefreshButton } from '../../kit/RefreshButton';
import { useQuery } from '../../kit/useApi';
import { useFilterParams } from '../../kit/useFilterParams';
import { SETTLEMENT_KIND_LABELS, type TSettlement, tone, useCopyFormat } from './format';
import { idParam, LeaderSelect, leaderPath, useLeaderChoices } from './ui';

const PAGE_SIZE = 20;

/**
 * The leaders' performance fees, newest first: each weekly settlement (Sunday 00:00 GMT+8) and each
 * settlement when a follower stopped, with the copy's profit, the high-water mark before and after, the
 * fee charged to the follower and what the leader was credited; the fees charged per currency above.
 */
export function SettlementsTab() {
  const { t } = useI18n();
  const format = useCopyFormat();
  const { params, update } = useFilterParams();
  const leaderId = idParam(params.get('leader'));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const choices = useLeaderChoices();
  const list = useQuery('admincopysettlements', {
    ...(leaderId ? { leader_id: leaderId } : {}),
    page,
    size: PAGE_SIZE,
  });
  const totals = list.data?.totals ?? null;

  const columns = useMemo<TColumn<TSettlement>[]>(
    () => [
      {
        key: 'date',
        header: t('admin.copy.field.date'),
        render: (row) => <span className="num cp-nowrap">{format.shortDateTime(row.createdAt)}</span>,
      },
      {
        key: 'leader',
        header: t('admin.copy.field.leader'),
        render: (row) => (
          <span className="cp-who">
            <Link to={leaderPath(row.leader_id)}>
              {choices.byId.get(row.leader_id)?.nick ?? `#${row.leader_id}`}
            </Link>
            <span className="num">#{row.leader_id}</span>
          </span>
        ),
      },
      {
        key: 'follower',
        header: t('admin.copy.field.follower'),
        render: (row) => (
          <span className="cp-who">
            <strong>{row.follower}</strong>
            <span>{t('admin.copy.relation.copyAccount', { id: String(row.copy_account_id) })}</span>
          </span>
        ),
      },
      {
        key: 'kind',
        header: t('admin.copy.field.kind'),
        render: (row) => (
          <span className={`kit-pill${row.kind === 'stop' ? ' kit-pill-warn' : ''}`} data-kind={row.kind}>
            {t(SETTLEMENT_KIND_LABELS[row.kind])}
          </span>
        ),
      },
      {
        key: 'profit',
        header: t('admin.copy.field.profit'),
        align: 'end',
        render: (row) => (
          <span className={`num ${tone(row.profit) ?? ''}`}>
            {format.signedMoney(row.profit, row.currency)}
          </span>
        ),
      },
      {
        key: 'mark',
        header: t('admin.copy.field.mark'),
        align: 'end',
        render: (row) => (
          <span className="num cp-nowrap cp-mark">
            <span className="cp-muted">{format.amount(row.markBefore)}</span>
            <span aria-label={t('admin.copy.to')} role="img">
              {' → '}
            </span>
            <span>{format.amount(row.markAfter)}</span>
          </span>
        ),
      },
      {
        key: 'fee',
        header: t('admin.copy.field.fee'),
        align: 'end',
        render: (row) => <strong className="num">{format.money(row.fee, row.currency)}</strong>,
      },
      {
        key: 'credited',
        header: t('admin.copy.field.credited'),
        align: 'end',
        render: (row) => <span className="num">{format.money(row.credited, row.leaderCurrency)}</span>,
      },
    ],
    [t, format, choices.byId],
  );

  return (
    <div className="cp-tab">
      <section
        className="cp-totals"
        aria-label={t('admin.copy.settlements.totals')}
        data-testid="settlement-totals"
      >
        {totals === null ? (
          list.status === 'error' ? null : (
            <div className="card cp-total">
              <Skeleton lines={2} />
            </div>
          )
        ) : totals.length === 0 ? (
          <div className="card cp-total">
            <span className="cp-total-label">{t('admin.copy.settlements.totals')}</span>
            <span className="cp-muted">{t('admin.copy.settlements.noFees')}</span>
          </div>
        ) : (
          totals.map((total) => (
            <div key={total.currency} className="card cp-total" data-currency={total.currency}>
              <span className="cp-total-label">
                {t('admin.copy.settlements.feesIn', { currency: total.currency })}
              </span>
              <strong className="num cp-total-value">{format.money(total.fees, total.currency)}</strong>
            </div>
          ))
        )}
      </section>
      <DataTable
        testId="settlements-table"
        rowTestId="settlement-row"
        dense
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(row) => row.id}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        empty={leaderId ? t('admin.copy.noMatch') : t('admin.copy.settlements.empty')}
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
            <span className="cp-muted cp-filter-note">{t('admin.copy.settlements.when')}</span>
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

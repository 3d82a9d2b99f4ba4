import type { TRouteOutput } from '@broker/contracts/routes';
import { useMemo } from 'react';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { useQuery } from '../../kit/useApi';
import {
  FLAG_TEXT,
  FUNDING_METHODS,
  methodLabel,
  useFundingFormat,
  WITHDRAWAL_STATE_LABELS,
  WITHDRAWAL_STATE_TONES,
  WITHDRAWAL_STATES,
} from './format';
import { QueueFilters } from './QueueFilters';
import { Notice, pick, StateSegments, useFilterParams, useNotice } from './ui';
import { WithdrawalDrawer } from './WithdrawalDrawer';

type TRow = TRouteOutput<'adminfundingqueue'>['withdrawals'][number];
const PAGE_SIZE = 20;
const FILTERS = [
  'awaiting_review',
  ...WITHDRAWAL_STATES.filter((s) => s !== 'awaiting_review'),
  'all',
] as const;
type TFilter = (typeof FILTERS)[number];

/** The withdrawal queue: state segments with counts, method and customer filters, newest first; a row opens the review. */
export function WithdrawalsTab({ onChanged }: { onChanged: () => void }) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const { params, update } = useFilterParams();
  const [notice, setNotice] = useNotice();
  const status: TFilter = pick(params.get('status'), FILTERS) ?? 'awaiting_review';
  const method = pick(params.get('method'), FUNDING_METHODS);
  const userId = params.get('customer')?.trim() || undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const open = params.get('open');
  const list = useQuery('adminfundingqueue', {
    kind: 'withdrawal',
    ...(status === 'all' ? {} : { status }),
    ...(method ? { method } : {}),
    ...(userId ? { userId } : {}),
    page,
    size: PAGE_SIZE,
  });
  const counts = useMemo(() => {
    const byState = list.data?.counts;
    if (!byState) return null;
    // A state no withdrawal is in is left out of the answer: it counts 0.
    const counts: Record<string, number> = { all: 0 };
    for (const state of WITHDRAWAL_STATES) {
      counts[state] = byState[state] ?? 0;
      counts.all = (counts.all ?? 0) + (byState[state] ?? 0);
    }
    return counts;
  }, [list.data]);
  const rows = list.data?.withdrawals ?? [];

  const columns = useMemo<TColumn<TRow>[]>(
    () => [
      {
        key: 'requested',
        header: t('admin.funding.field.requested'),
        render: (row) => (
          <button
            type="button"
            className="fu-rowbtn"
            onClick={(e) => {
              e.stopPropagation();
              update({ open: row.id });
            }}
            data-testid="withdrawal-open"
          >
            {format.shortDateTime(row.createdAt)}
          </button>
        ),
      },
      {
        key: 'customer',
        header: t('admin.funding.field.customer'),
        render: (row) => (
          <span className="fu-who">
            <strong>{row.customer.name || row.customer.email}</strong>
            <span>{row.customer.email}</span>
          </span>
        ),
      },
      { key: 'account', header: t('admin.funding.field.account'), render: (row) => `#${row.account_id}` },
      { key: 'method', header: t('admin.funding.field.method'), render: (row) => methodLabel(t, row.method) },
      {
        key: 'amount',
        header: t('admin.funding.field.amount'),
        align: 'end',
        render: (row) => <strong className="num">{format.money(row.amount, row.accountCurrency)}</strong>,
      },
      {
        key: 'payout',
        header: t('admin.funding.field.payout'),
        align: 'end',
        render: (row) => <span className="num">{format.money(row.payout, row.methodCurrency)}</span>,
      },
      {
        key: 'flags',
        header: t('admin.funding.field.flags'),
        render: (row) =>
          row.flags.length === 0 ? (
            <span className="fu-muted">—</span>
          ) : (
            <span className="fu-flag-pills" data-testid="withdrawal-flags">
              {row.flags.map((flag) => (
                <span
                  key={flag}
                  className={`kit-pill ${flag === 'four_eyes' ? 'fu-pill-brand' : 'kit-pill-warn'}`}
                  data-flag={flag}
                >
                  {t(FLAG_TEXT[flag].title)}
                </span>
              ))}
            </span>
          ),
      },
      {
        key: 'status',
        header: t('admin.funding.field.state'),
        render: (row) => (
          <span className="fu-state-cell">
            <span
              className={`kit-pill ${WITHDRAWAL_STATE_TONES[row.status]}`}
              data-testid="withdrawal-status"
              data-status={row.status}
            >
              {t(WITHDRAWAL_STATE_LABELS[row.status])}
            </span>
            {row.status === 'awaiting_review' && row.firstApprovedBy ? (
              <span className="fu-muted">{t('admin.funding.fourEyes.oneOfTwo')}</span>
            ) : null}
          </span>
        ),
      },
    ],
    [t, format, update],
  );

  return (
    <div className="fu-tab">
      <Notice message={notice} />
      <StateSegments
        label={t('admin.funding.field.state')}
        testId="withdrawal-states"
        value={status}
        counts={counts}
        onChange={(next) => update({ status: next === 'awaiting_review' ? null : next })}
        options={FILTERS.map((value) => ({
          value,
          label: value === 'all' ? t('admin.funding.filter.all') : t(WITHDRAWAL_STATE_LABELS[value]),
        }))}
      />
      <DataTable
        testId="withdrawals-table"
        rowTestId="withdrawal-row"
        rows={rows}
        columns={columns}
        rowKey={(row) => row.id}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        onRowClick={(row) => update({ open: row.id })}
        empty={
          status === 'awaiting_review' && !method && !userId
            ? t('admin.funding.withdrawals.noneWaiting')
            : t('admin.funding.noMatch')
        }
        server={{
          total: list.data?.total ?? 0,
          page,
          pageSize: PAGE_SIZE,
          onPage: (next) => update({ page: String(next) }),
        }}
        toolbar={
          <QueueFilters
            method={method}
            customer={userId ?? ''}
            customerName={userId ? (rows[0]?.customer.name ?? null) : null}
            onMethod={(next) => update({ method: next })}
            onCustomer={(next) => update({ customer: next })}
            onRefresh={list.reload}
            refreshing={list.status === 'loading'}
          />
        }
      />
      {open ? (
        <WithdrawalDrawer
          id={open}
          onClose={() => update({ open: null })}
          onOnlyCustomer={(id) => update({ customer: id, open: null, status: 'all' })}
          onChanged={(message) => {
            setNotice(message);
            list.reload();
            onChanged();
          }}
        />
      ) : null}
    </div>
  );
}

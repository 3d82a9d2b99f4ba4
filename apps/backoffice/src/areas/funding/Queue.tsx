import type { TRouteInput } from '@broker/contracts/routes';
import { useMemo } from 'react';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Segmented } from '../../kit/Segmented';
import { useQuery } from '../../kit/useApi';
import { pick, useFilterParams } from '../../kit/useFilterParams';
import { FUNDING_METHODS, methodLabel, type TFundingFormat, type TFundingMethod } from './format';
import { QueueFilters } from './QueueFilters';

const PAGE_SIZE = 20;

type TQueueState = NonNullable<TRouteInput<'adminfundingqueue'>['status']>;

/**
 * A deposit or withdrawal queue as the address keeps it (state, method, customer, page, the open
 * item), its page of rows and how many items each state holds (a state nobody is in counts 0).
 */
export function useQueue<TFilter extends TQueueState | 'all'>({
  kind,
  filters,
  states,
  defaultFilter,
}: {
  kind: 'deposit' | 'withdrawal';
  filters: readonly TFilter[];
  states: readonly string[];
  /** The state shown when the address names none. */
  defaultFilter: TFilter;
}) {
  const { params, update } = useFilterParams();
  const status: TFilter = pick(params.get('status'), filters) ?? defaultFilter;
  const method = pick(params.get('method'), FUNDING_METHODS);
  const userId = params.get('customer')?.trim() || undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const open = params.get('open');
  const list = useQuery('adminfundingqueue', {
    kind,
    ...(status === 'all' ? {} : { status: status as Exclude<TFilter, 'all'> }),
    ...(method ? { method } : {}),
    ...(userId ? { userId } : {}),
    page,
    size: PAGE_SIZE,
  });
  const counts = useMemo(() => {
    const byState = list.data?.counts;
    if (!byState) return null;
    const counts: Record<string, number> = { all: 0 };
    for (const state of states) {
      counts[state] = byState[state] ?? 0;
      counts.all = (counts.all ?? 0) + (byState[state] ?? 0);
    }
    return counts;
  }, [list.data, states]);
  return { update, status, method, userId, page, open, list, counts, filters, defaultFilter };
}

type TQueue<TFilter extends TQueueState | 'all'> = ReturnType<typeof useQueue<TFilter>>;

interface TQueueRow {
  id: string;
  createdAt: string;
  account_id: number;
  method: TFundingMethod;
  customer: { name: string; email: string | null };
}

/** The first columns of both queues: the date (a button that opens the item), customer, account, method. */
export function leadColumns<TRow extends TQueueRow>({
  t,
  format,
  update,
  dateKey,
  dateHeader,
  openTestId,
}: {
  t: ReturnType<typeof useI18n>['t'];
  format: TFundingFormat;
  update: (changes: Record<string, string | null>) => void;
  dateKey: string;
  dateHeader: string;
  openTestId: string;
}): TColumn<TRow>[] {
  return [
    {
      key: dateKey,
      header: dateHeader,
      render: (row) => (
        <button
          type="button"
          className="fu-rowbtn"
          onClick={(e) => {
            e.stopPropagation();
            update({ open: row.id });
          }}
          data-testid={openTestId}
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
  ];
}

/** A queue's state segments and its table with the method and customer filters, paged by the server. */
export function QueueTable<TRow extends TQueueRow, TFilter extends TQueueState | 'all'>({
  queue,
  rows,
  columns,
  stateLabel,
  segmentsTestId,
  tableTestId,
  rowTestId,
  emptyUnfiltered,
}: {
  queue: TQueue<TFilter>;
  rows: TRow[];
  columns: TColumn<TRow>[];
  stateLabel: (state: Exclude<TFilter, 'all'>) => string;
  segmentsTestId: string;
  tableTestId: string;
  rowTestId: string;
  /** The words of an empty queue on its default state with no filter. */
  emptyUnfiltered: string;
}) {
  const { t } = useI18n();
  const { update, status, method, userId, page, list, counts, filters, defaultFilter } = queue;
  return (
    <>
      <Segmented
        classPrefix="kit-segments"
        label={t('admin.funding.field.state')}
        testId={segmentsTestId}
        value={status}
        counts={counts}
        onChange={(next) => update({ status: next === defaultFilter ? null : next })}
        options={filters.map((value) => ({
          value,
          label:
            value === 'all' ? t('admin.funding.filter.all') : stateLabel(value as Exclude<TFilter, 'all'>),
        }))}
      />
      <DataTable
        testId={tableTestId}
        rowTestId={rowTestId}
        rows={rows}
        columns={columns}
        rowKey={(row) => row.id}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        onRowClick={(row) => update({ open: row.id })}
        empty={status === defaultFilter && !method && !userId ? emptyUnfiltered : t('admin.funding.noMatch')}
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
    </>
  );
}

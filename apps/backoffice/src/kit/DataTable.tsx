import { type ReactNode, useMemo, useState } from 'react';
import { Icon } from '../components/Icon';
import { useI18n } from '../i18n';

export interface TColumn<R> {
  key: string;
  header: ReactNode;
  render: (row: R) => ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?: (row: R) => string | number | null;
  align?: 'start' | 'end';
}

export type TSort = { key: string; direction: 'asc' | 'desc' };

/** Compares two sort values: numbers as numbers, text by the locale, empty values last. */
export function compareValues(a: string | number | null, b: string | number | null, intl: string): number {
  if (a === b) return 0;
  if (a === null || a === '') return 1;
  if (b === null || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), intl, { numeric: true });
}

/** Sorts, filters and pages rows on the client (the pure part of the table, unit tested). */
export function viewRows<R>(
  rows: readonly R[],
  options: {
    columns: readonly TColumn<R>[];
    sort: TSort | null;
    filter: string;
    filterText?: (row: R) => string;
    page: number;
    pageSize: number;
    intl: string;
  },
): { rows: R[]; total: number; pages: number; page: number } {
  const needle = options.filter.trim().toLowerCase();
  let list =
    needle && options.filterText
      ? rows.filter((row) => options.filterText?.(row).toLowerCase().includes(needle))
      : [...rows];
  const column = options.sort ? options.columns.find((c) => c.key === options.sort?.key) : undefined;
  if (column?.sortValue && options.sort) {
    const sign = options.sort.direction === 'asc' ? 1 : -1;
    const value = column.sortValue;
    list = list.sort((a, b) => sign * compareValues(value(a), value(b), options.intl));
  }
  const total = list.length;
  const pages = Math.max(1, Math.ceil(total / options.pageSize));
  const page = Math.min(Math.max(1, options.page), pages);
  return { rows: list.slice((page - 1) * options.pageSize, page * options.pageSize), total, pages, page };
}

/**
 * A table that sorts (click a header), filters (the search box, when `filterText` is given) and
 * pages on the client; or, with `server`, shows one page the server chose and asks for others.
 * Loading, empty and error states are built in.
 */
export function DataTable<R>({
  rows,
  columns,
  rowKey,
  filterText,
  filterPlaceholder,
  pageSize = 20,
  loading = false,
  error = null,
  onRetry,
  empty,
  toolbar,
  server,
  initialSort = null,
  testId,
  rowTestId,
  onRowClick,
  dense = false,
  stackOnMobile = true,
}: {
  rows: readonly R[];
  columns: readonly TColumn<R>[];
  rowKey: (row: R) => string;
  filterText?: (row: R) => string;
  filterPlaceholder?: string;
  pageSize?: number;
  loading?: boolean;
  error?: string | null;
  onRetry?: () => void;
  empty?: ReactNode;
  toolbar?: ReactNode;
  server?: { total: number; page: number; pageSize: number; onPage: (page: number) => void };
  initialSort?: TSort | null;
  testId?: string;
  rowTestId?: string;
  onRowClick?: (row: R) => void;
  /** Narrower cell padding, for wide tables (a customer's positions) that must fit a desktop. */
  dense?: boolean;
  /**
   * On a phone (640 px and narrower) each row becomes a card of label and value pairs instead of a
   * row whose columns are cut off and scroll sideways. On by default, so every back-office table
   * reads on a phone; `false` keeps the scrolling table (a narrow one that fits anyway).
   */
  stackOnMobile?: boolean;
}) {
  const { t, intl, formatNumber } = useI18n();
  const [sort, setSort] = useState<TSort | null>(initialSort);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const view = useMemo(
    () =>
      server
        ? {
            rows: [...rows],
            total: server.total,
            pages: Math.max(1, Math.ceil(server.total / server.pageSize)),
            page: server.page,
          }
        : viewRows(rows, { columns, sort, filter, filterText, page, pageSize, intl }),
    [server, rows, columns, sort, filter, filterText, page, pageSize, intl],
  );
  const goTo = (next: number) => (server ? server.onPage(next) : setPage(next));
  const toggleSort = (key: string) => {
    setSort((current) =>
      current?.key === key
        ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : { key, direction: 'asc' },
    );
    setPage(1);
  };

  return (
    <div
      className={`kit-table card${dense ? ' kit-table-dense' : ''}${stackOnMobile ? ' kit-table-stack' : ''}`}
      data-testid={testId}
      data-loading={loading ? 'true' : 'false'}
    >
      {filterText || toolbar ? (
        <div className="kit-table-toolbar">
          {filterText ? (
            <label className="kit-search">
              <Icon name="compass" size={15} />
              <input
                className="input"
                type="search"
                value={filter}
                placeholder={filterPlaceholder ?? t('admin.kit.filter')}
                aria-label={filterPlaceholder ?? t('admin.kit.filter')}
                onChange={(e) => {
                  setFilter(e.target.value);
                  setPage(1);
                }}
                data-testid={testId ? `${testId}-filter` : undefined}
              />
            </label>
          ) : null}
          <div className="kit-table-tools">{toolbar}</div>
        </div>
      ) : null}
      {error ? (
        <div className="kit-table-error" role="alert">
          <Icon name="alert" size={16} />
          <span>{error}</span>
          {onRetry ? (
            <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
              {t('admin.kit.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
      <div className="kit-table-scroll">
        <table>
          <thead>
            <tr>
              {columns.map((column) => {
                const sorted = sort?.key === column.key ? sort.direction : null;
                return (
                  <th
                    key={column.key}
                    className={column.align === 'end' ? 'kit-end' : undefined}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {column.sortValue && !server ? (
                      <button type="button" className="kit-sort" onClick={() => toggleSort(column.key)}>
                        {column.header}
                        <span
                          className={`kit-sort-mark${sorted ? ` kit-sort-${sorted}` : ''}`}
                          aria-hidden="true"
                        >
                          <Icon name="chevronDown" size={12} />
                        </span>
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {view.rows.map((row) => (
              <tr
                key={rowKey(row)}
                data-testid={rowTestId}
                data-key={rowKey(row)}
                className={onRowClick ? 'kit-row-link' : undefined}
                onClick={onRowClick ? () => onRowClick(row) : undefined}
              >
                {columns.map((column) => (
                  <td key={column.key} className={column.align === 'end' ? 'kit-end' : undefined}>
                    {stackOnMobile ? (
                      <>
                        <span className="kit-cell-label">{column.header}</span>
                        <span className="kit-cell-value">{column.render(row)}</span>
                      </>
                    ) : (
                      column.render(row)
                    )}
                  </td>
                ))}
              </tr>
            ))}
            {loading && view.rows.length === 0
              ? [0, 1, 2, 3].map((n) => (
                  <tr key={`skeleton-${n}`} className="kit-skeleton-row">
                    {columns.map((column) => (
                      <td key={column.key}>
                        <span className="kit-skeleton" />
                      </td>
                    ))}
                  </tr>
                ))
              : null}
          </tbody>
        </table>
        {!loading && !error && view.rows.length === 0 ? (
          <div className="kit-table-empty" data-testid={testId ? `${testId}-empty` : undefined}>
            {empty ?? t('admin.kit.empty')}
          </div>
        ) : null}
      </div>
      {view.pages > 1 || view.total > 0 ? (
        <div className="kit-table-foot">
          <span>{t('admin.kit.total', { count: formatNumber(view.total) })}</span>
          {view.pages > 1 ? (
            <div className="kit-pager">
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={view.page <= 1}
                onClick={() => goTo(view.page - 1)}
                aria-label={t('admin.kit.previous')}
              >
                <Icon name="arrowLeft" size={14} />
              </button>
              <span>
                {t('admin.kit.page', { page: formatNumber(view.page), pages: formatNumber(view.pages) })}
              </span>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={view.page >= view.pages}
                onClick={() => goTo(view.page + 1)}
                aria-label={t('admin.kit.next')}
              >
                <Icon name="arrowRight" size={14} />
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

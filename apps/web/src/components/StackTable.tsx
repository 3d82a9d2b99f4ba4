import type { ReactNode } from 'react';

/** A column: its header, how a row shows in it, and whether it holds figures (aligned to the end). */
export interface TColumn<T> {
  key: string;
  label: string;
  cell(row: T): ReactNode;
  numeric?: boolean;
  /** A column of buttons: its name is read by screen readers only, and not repeated on a phone. */
  labelHidden?: boolean;
  className?: string;
  testId?: string;
}

/**
 * A table that becomes labelled cards on a phone (`ui-table-stack`, components/feature-page.css): each
 * cell carries its column's name for the phone's layout. `rowProps` adds a row's test id and data.
 */
export function StackTable<T>({
  rows,
  columns,
  rowKey,
  rowProps,
  className,
  testId,
}: {
  rows: readonly T[];
  columns: readonly TColumn<T>[];
  rowKey(row: T): string | number;
  rowProps?(row: T): Record<`data-${string}`, string | number | undefined>;
  className?: string;
  testId?: string;
}) {
  return (
    <table className={`ui-table ui-table-stack${className ? ` ${className}` : ''}`} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.key} scope="col" className={column.numeric ? 'num' : undefined}>
              {column.labelHidden ? <span className="sr-only">{column.label}</span> : column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {columns.map((column) => (
              <td
                key={column.key}
                data-label={column.labelHidden ? undefined : column.label}
                className={
                  [column.numeric ? 'num' : '', column.className ?? ''].join(' ').trim() || undefined
                }
                data-testid={column.testId}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

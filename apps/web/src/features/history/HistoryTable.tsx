import type { ReactNode } from 'react';
import { TRADE_TIME, useI18n } from '../../lib/i18n';

/** Dates and times in the history: short date, time with seconds. */
/** Trade times as the terminal shows them. */
export const WHEN = TRADE_TIME;

/** The column names of the history tables; a cell repeats its column's as `data-label` for phones. */
export function useColumnLabels() {
  const { t } = useI18n();
  return {
    side: t('history.col.side'),
    type: t('history.col.type'),
    volume: t('history.col.volume'),
    open: t('history.col.open'),
    close: t('history.col.close'),
    hold: t('history.col.hold'),
    swap: t('history.col.swap'),
    commission: t('history.col.commission'),
    profit: t('history.col.profit'),
    reason: t('history.col.reason'),
    price: t('history.col.price'),
    stops: t('history.col.stops'),
    placed: t('history.col.placed'),
    done: t('history.col.done'),
    status: t('history.col.status'),
  };
}

/**
 * A history table (`deals` or `orders`, also its test id): the symbol column, then `lead` (side or
 * type), the right-aligned `figures` and `last` (reason or status). The rows are `children`.
 */
export function HistoryTable({
  kind,
  lead,
  figures,
  last,
  children,
  foot,
}: {
  kind: 'deals' | 'orders';
  lead: string;
  figures: string[];
  last: string;
  children: ReactNode;
  foot?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <div className="hi-table-wrap">
      <table className={`hi-table hi-${kind}`} data-testid={kind}>
        <thead>
          <tr>
            <th scope="col">{t('history.col.symbol')}</th>
            <th scope="col">{lead}</th>
            {figures.map((label, i) => (
              <th key={i} scope="col" className="hi-end">
                {label}
              </th>
            ))}
            <th scope="col">{last}</th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
        {foot && <tfoot>{foot}</tfoot>}
      </table>
    </div>
  );
}

/** A row's first cell: the symbol and the ticket under it. */
export function SymbolCell({ symbol, ticket }: { symbol: string; ticket: number }) {
  return (
    <th scope="row" className="hi-symbol-cell">
      <span className="hi-symbol">{symbol}</span>
      <span className="hi-ticket num">#{ticket}</span>
    </th>
  );
}

/** A cell's main line with a smaller one under it (a time, a limit price, a reason), if any. */
export function Stacked({ children, under }: { children: ReactNode; under?: ReactNode }) {
  return (
    <span className="hi-stack">
      {children}
      {under && <span className="hi-time">{under}</span>}
    </span>
  );
}

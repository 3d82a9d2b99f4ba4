import type { TRouteInput } from '@broker/contracts/routes';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { TAdminRouteName } from '../../api';
import type { TColumn } from '../../kit/DataTable';
import { useQuery } from '../../kit/useApi';
import { sortNumber, tone, usePolling, type useRiskFormat } from './format';

/** A route's answer refreshed every `ms`, with what a live table needs: the error and whether nothing has come yet. */
export function usePolledQuery<N extends TAdminRouteName>(name: N, input: TRouteInput<N>, ms: number) {
  const query = useQuery(name, input);
  usePolling(query.reload, ms);
  const data = query.data;
  const error = query.status === 'error' ? query.error.message : null;
  const firstLoad = query.status === 'loading' && !data;
  return { data, error, firstLoad, reload: query.reload };
}

/** The customer cell of a risk table: name over email, linking to the customer's page. */
export function customerColumn<R extends { userId: string; name: string; email: string }>(
  header: string,
  sortValue?: TColumn<R>['sortValue'],
): TColumn<R> {
  return {
    key: 'customer',
    header,
    render: (r) => (
      <Link to={`/users/${r.userId}`} className="risk-who">
        <strong>{r.name || r.email}</strong>
        <span>{r.email}</span>
      </Link>
    ),
    ...(sortValue ? { sortValue } : {}),
  };
}

/** A symbol's net lots (buys minus sells), signed and coloured by its sign. */
export function netLotsColumn<R extends { netLots: string }>(
  header: string,
  f: ReturnType<typeof useRiskFormat>,
): TColumn<R> {
  return {
    key: 'net',
    header,
    align: 'end',
    render: (r) => <strong className={`num ${tone(r.netLots) ?? ''}`}>{f.lots(r.netLots)}</strong>,
    sortValue: (r) => sortNumber(r.netLots),
  };
}

/** How many positions a row holds. */
export function positionsColumn<R extends { positions: number }>(
  header: string,
  f: ReturnType<typeof useRiskFormat>,
): TColumn<R> {
  return {
    key: 'positions',
    header,
    align: 'end',
    render: (r) => <span className="num">{f.count(r.positions)}</span>,
    sortValue: (r) => r.positions,
  };
}

/** A titled section around one table. */
export function TableSection({
  title,
  text,
  children,
}: {
  title: string;
  text?: string;
  children: ReactNode;
}) {
  return (
    <section className="bo-section">
      <div className="bo-section-head">
        <h2>{title}</h2>
        {text === undefined ? null : <p>{text}</p>}
      </div>
      {children}
    </section>
  );
}

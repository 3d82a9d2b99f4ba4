import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { useQuery } from '../../kit/useApi';
import { KYC_LABELS, KYC_TONES, STATUS_LABELS, useFormat } from './format';
import { APPROVALS_PATH, customerPath } from './paths';

type TRow = TRouteOutput<'admincustomerlist'>['items'][number];
type TSearch = TRouteInput<'admincustomerlist'>;

const PAGE_SIZE = 20;
const KYC_VALUES = ['none', 'pending', 'approved', 'rejected'] as const;
const SORTS = {
  'created.desc': 'admin.customers.search.sort.newest',
  'created.asc': 'admin.customers.search.sort.oldest',
  'lastSignIn.desc': 'admin.customers.search.sort.lastSignIn',
  'name.asc': 'admin.customers.search.sort.name',
} as const;
type TSortKey = keyof typeof SORTS;

const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  allowed.find((v) => v === value);

/** The customer search: text, KYC and status filters, server-side sort and paging, kept in the address. */
export function CustomerSearchPage() {
  const { t } = useI18n();
  const format = useFormat();
  const navigate = useNavigate();
  const title = t('admin.menu.users');
  useDocumentTitle(title);
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const kyc = pick(params.get('kyc'), KYC_VALUES);
  const status = pick(params.get('status'), ['active', 'disabled'] as const);
  const sort = pick(params.get('sort'), Object.keys(SORTS) as TSortKey[]) ?? 'created.desc';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(query);

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes))
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );

  // The search runs 300 ms after the last keystroke.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `update` changes with every render
  useEffect(() => {
    if (text.trim() === query) return;
    const timer = setTimeout(() => update({ q: text.trim() }), 300);
    return () => clearTimeout(timer);
  }, [text, query]);

  const [sortBy, direction] = sort.split('.') as [TSearch['sort'], TSearch['direction']];
  const input: TSearch = {
    query,
    sort: sortBy,
    direction,
    page,
    size: PAGE_SIZE,
    ...(kyc ? { kyc } : {}),
    ...(status ? { status } : {}),
  };
  const result = useQuery('admincustomerlist', input);
  const waiting = useQuery('admincustomeradjustments', { status: 'pending', page: 1, size: 1 });
  const pending = waiting.data?.total ?? 0;

  const columns = useMemo<TColumn<TRow>[]>(
    () => [
      {
        key: 'name',
        header: t('admin.customers.field.customer'),
        render: (row) => (
          <span className="cu-person">
            <Link to={customerPath(row.id)} className="cu-name" onClick={(e) => e.stopPropagation()}>
              {row.name}
            </Link>
            <span className="cu-id">{row.id.slice(0, 8)}</span>
          </span>
        ),
      },
      {
        key: 'contact',
        header: t('admin.customers.field.contact'),
        render: (row) => (
          <span className="cu-contact">
            <span>{row.email ?? '—'}</span>
            {row.phone ? <span className="cu-muted">{row.phone}</span> : null}
          </span>
        ),
      },
      {
        key: 'country',
        header: t('admin.customers.field.country'),
        render: (row) => format.country(row.country) ?? '—',
      },
      {
        key: 'kyc',
        header: t('admin.customers.field.kyc'),
        render: (row) => <span className={`kit-pill ${KYC_TONES[row.kyc]}`}>{t(KYC_LABELS[row.kyc])}</span>,
      },
      {
        key: 'status',
        header: t('admin.customers.field.status'),
        render: (row) => (
          <span className={`kit-pill ${row.status === 'active' ? 'kit-pill-up' : 'kit-pill-down'}`}>
            {t(STATUS_LABELS[row.status])}
          </span>
        ),
      },
      {
        key: 'accounts',
        header: t('admin.customers.field.accounts'),
        align: 'end',
        render: (row) => row.accounts,
      },
      {
        key: 'created',
        header: t('admin.customers.field.registered'),
        render: (row) => format.date(row.createdAt),
      },
      {
        key: 'lastSignIn',
        header: t('admin.customers.field.lastSignIn'),
        render: (row) => (row.lastSignInAt ? format.dateTime(row.lastSignInAt) : '—'),
      },
    ],
    [t, format],
  );

  const filtered = Boolean(query || kyc || status);

  return (
    <div className="bo-page">
      <PageHeader
        title={title}
        description={t('admin.module.users.description')}
        actions={
          <Link to={APPROVALS_PATH} className="btn btn-secondary btn-sm" data-testid="customers-approvals">
            <Icon name="check" size={14} />
            {t('admin.customers.approvals.title')}
            {pending > 0 ? <span className="cu-count">{pending}</span> : null}
          </Link>
        }
      />
      <DataTable
        testId="customers-table"
        rowTestId="customer-row"
        rows={result.data?.items ?? []}
        columns={columns}
        rowKey={(row) => row.id}
        loading={result.status === 'loading'}
        error={result.status === 'error' ? result.error.message : null}
        onRetry={result.reload}
        onRowClick={(row) => navigate(customerPath(row.id))}
        empty={filtered ? t('admin.customers.search.noMatch') : t('admin.customers.search.none')}
        server={{
          total: result.data?.total ?? 0,
          page,
          pageSize: PAGE_SIZE,
          onPage: (next) => update({ page: String(next) }),
        }}
        toolbar={
          <div className="cu-filters">
            <label className="kit-search cu-search">
              <Icon name="compass" size={15} />
              <input
                className="input"
                type="search"
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder={t('admin.customers.search.placeholder')}
                aria-label={t('admin.customers.search.placeholder')}
                data-testid="customers-search"
                maxLength={100}
              />
            </label>
            <select
              className="input cu-select"
              value={kyc ?? ''}
              onChange={(e) => update({ kyc: e.target.value })}
              aria-label={t('admin.customers.field.kyc')}
              data-testid="customers-kyc"
            >
              <option value="">{t('admin.customers.search.anyKyc')}</option>
              {KYC_VALUES.map((value) => (
                <option key={value} value={value}>
                  {t(KYC_LABELS[value])}
                </option>
              ))}
            </select>
            <select
              className="input cu-select"
              value={status ?? ''}
              onChange={(e) => update({ status: e.target.value })}
              aria-label={t('admin.customers.field.status')}
              data-testid="customers-status"
            >
              <option value="">{t('admin.customers.search.anyStatus')}</option>
              <option value="active">{t(STATUS_LABELS.active)}</option>
              <option value="disabled">{t(STATUS_LABELS.disabled)}</option>
            </select>
            <select
              className="input cu-select"
              value={sort}
              onChange={(e) => update({ sort: e.target.value === 'created.desc' ? null : e.target.value })}
              aria-label={t('admin.customers.search.sortLabel')}
              data-testid="customers-sort"
            >
              {(Object.keys(SORTS) as TSortKey[]).map((key) => (
                <option key={key} value={key}>
                  {t(SORTS[key])}
                </option>
              ))}
            </select>
          </div>
        }
      />
    </div>
  );
}

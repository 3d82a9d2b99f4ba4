import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { FilterSelect } from '../../kit/FilterSelect';
import { RefreshButton } from '../../kit/RefreshButton';
import { Segmented } from '../../kit/Segmented';
import { useQuery } from '../../kit/useApi';
import { pick, useFilterParams } from '../../kit/useFilterParams';
import {
  DOCUMENT_LABELS,
  KYC_FILTERS,
  KYC_LEVELS,
  KYC_STATE_LABELS,
  KYC_STATE_TONES,
  LEVEL_LABELS,
  type TKycSubmission,
  useKycFormat,
} from './format';

const PAGE_SIZE = 20;
type TFilter = (typeof KYC_FILTERS)[number];
export const kycPath = (id: string) => `/kyc/${encodeURIComponent(id)}`;

/** Submissions by state and level, oldest waiting first, with counts per state; a row opens the review. */
export function KycQueue() {
  const { t, formatNumber } = useI18n();
  const format = useKycFormat();
  const navigate = useNavigate();
  const { params, update } = useFilterParams();
  const status: TFilter = pick(params.get('status'), KYC_FILTERS) ?? 'pending';
  const level = pick(params.get('level'), KYC_LEVELS);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery('adminkycqueue', {
    ...(status === 'all' ? {} : { status }),
    ...(level ? { level } : {}),
    page,
    size: PAGE_SIZE,
  });
  const counts = list.data?.counts ?? null;
  const total = counts ? (counts.pending ?? 0) + (counts.approved ?? 0) + (counts.rejected ?? 0) : null;
  // A state no submission is in is left out of the answer: it counts 0.
  const stateCounts = counts
    ? Object.fromEntries(
        KYC_FILTERS.map((value) => [value, value === 'all' ? (total ?? 0) : (counts[value] ?? 0)]),
      )
    : null;

  const columns = useMemo<TColumn<TKycSubmission>[]>(
    () => [
      {
        key: 'submitted',
        header: t('admin.kyc.field.submitted'),
        render: (row) => (
          <span className="ky-when">
            <Link
              to={kycPath(row.id)}
              className="ky-rowlink"
              onClick={(e) => e.stopPropagation()}
              data-testid="kyc-open"
            >
              {format.shortDateTime(row.submittedAt)}
            </Link>
            {row.status === 'pending' ? (
              <span className="ky-muted">
                {t('admin.kyc.waitingFor', { time: format.waited(row.submittedAt) })}
              </span>
            ) : null}
          </span>
        ),
      },
      {
        key: 'customer',
        header: t('admin.kyc.field.customer'),
        render: (row) => (
          <span className="ky-who">
            <strong>{row.customer.name || row.customer.email}</strong>
            <span>{row.customer.email}</span>
          </span>
        ),
      },
      {
        key: 'country',
        header: t('admin.kyc.field.country'),
        render: (row) => format.country(row.details?.country ?? row.customer.country) ?? '—',
      },
      {
        key: 'level',
        header: t('admin.kyc.field.level'),
        render: (row) => (
          <span className={`kit-pill ${row.level === 'senior' ? 'ky-pill-brand' : ''}`}>
            {t(LEVEL_LABELS[row.level])}
          </span>
        ),
      },
      {
        key: 'document',
        header: t('admin.kyc.field.document'),
        render: (row) =>
          row.details
            ? t(DOCUMENT_LABELS[row.details.documentType] ?? row.details.documentType)
            : t('admin.kyc.addressProof'),
      },
      {
        key: 'files',
        header: t('admin.kyc.field.files'),
        align: 'end',
        render: (row) => formatNumber(row.files.length),
      },
      {
        key: 'status',
        header: t('admin.kyc.field.state'),
        render: (row) => (
          <span className="ky-state-cell">
            <span
              className={`kit-pill ${KYC_STATE_TONES[row.status]}`}
              data-testid="kyc-status"
              data-status={row.status}
            >
              {t(KYC_STATE_LABELS[row.status])}
            </span>
            {row.rejectReason ? <span className="ky-muted">{row.rejectReason}</span> : null}
          </span>
        ),
      },
      {
        key: 'reviewer',
        header: t('admin.kyc.field.reviewedBy'),
        render: (row) =>
          row.reviewedBy ? (
            <span className="ky-who">
              <span>{row.reviewedBy}</span>
              {row.reviewedAt ? <span>{format.shortDateTime(row.reviewedAt)}</span> : null}
            </span>
          ) : (
            <span className="ky-muted">—</span>
          ),
      },
    ],
    [t, format, formatNumber],
  );

  return (
    <div className="ky-tab">
      <DataTable
        testId="kyc-table"
        rowTestId="kyc-row"
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(row) => row.id}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        onRowClick={(row) => navigate(kycPath(row.id))}
        empty={
          status === 'pending' && !level ? t('admin.kyc.queue.noneWaiting') : t('admin.kyc.queue.noMatch')
        }
        server={{
          total: list.data?.total ?? 0,
          page,
          pageSize: PAGE_SIZE,
          onPage: (next) => update({ page: String(next) }),
        }}
        toolbar={
          <div className="ky-filters">
            <Segmented
              classPrefix="kit-segments"
              label={t('admin.kyc.field.state')}
              testId="kyc-states"
              value={status}
              counts={stateCounts}
              onChange={(next) => update({ status: next === 'pending' ? null : next })}
              options={KYC_FILTERS.map((value) => ({
                value,
                label: value === 'all' ? t('admin.kyc.filter.all') : t(KYC_STATE_LABELS[value]),
              }))}
            />
            <FilterSelect
              value={level}
              options={KYC_LEVELS.map((value) => ({ value, label: t(LEVEL_LABELS[value]) }))}
              onChange={(next) => update({ level: next })}
              label={t('admin.kyc.field.level')}
              anyLabel={t('admin.kyc.filter.anyLevel')}
              className="ky-select"
              testId="kyc-level"
            />
            <RefreshButton
              onRefresh={list.reload}
              refreshing={list.status === 'loading'}
              label={t('admin.kyc.refresh')}
              className="ky-refresh"
            />
          </div>
        }
      />
    </div>
  );
}

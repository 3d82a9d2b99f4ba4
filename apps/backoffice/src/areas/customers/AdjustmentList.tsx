import type { TRouteOutput } from '@broker/contracts/routes';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { ConfirmDialog } from '../../kit/Modal';
import { useMutation } from '../../kit/useApi';
import { useSession } from '../../session';
import { ADJUSTMENT_STATUS_LABELS, ADJUSTMENT_STATUS_TONES, toneOf, useFormat } from './format';
import { customerPath } from './paths';

export type TAdjustment = TRouteOutput<'admincustomeradjustments'>['items'][number];

/** Rejection reasons have at most 20 characters (spec 5, as for rejected reviews). */
const REJECT_REASON_MAX = 20;

/** Balance adjustments with their state; staff holding users.approve approve or reject waiting ones. */
export function AdjustmentList({
  items,
  onChanged,
  notify,
  compact = false,
  loading = false,
  error = null,
  onRetry,
  server,
  toolbar,
  empty,
}: {
  items: readonly TAdjustment[];
  onChanged: () => void;
  notify: (message: string) => void;
  compact?: boolean;
  loading?: boolean;
  error?: string | null;
  onRetry?: () => void;
  server?: { total: number; page: number; pageSize: number; onPage: (page: number) => void };
  toolbar?: ReactNode;
  empty?: ReactNode;
}) {
  const { t } = useI18n();
  const format = useFormat();
  const { can } = useSession();
  const [deciding, setDeciding] = useState<{ item: TAdjustment; verdict: 'approve' | 'reject' } | null>(null);
  const mayDecide = can('users.approve');

  const columns = useMemo<TColumn<TAdjustment>[]>(() => {
    const list: TColumn<TAdjustment>[] = [
      {
        key: 'requested',
        header: t('admin.customers.adjustment.requestedAt'),
        render: (row) => format.dateTime(row.requestedAt),
      },
    ];
    if (!compact)
      list.push({
        key: 'customer',
        header: t('admin.customers.field.customer'),
        render: (row) => <Link to={customerPath(row.userId)}>{row.userName}</Link>,
      });
    list.push(
      { key: 'account', header: t('admin.customers.field.account'), render: (row) => `#${row.accountId}` },
      {
        key: 'amount',
        header: t('admin.customers.adjustment.amount'),
        align: 'end',
        render: (row) => (
          <span className={`num ${toneOf(row.amount) ?? ''}`}>
            {format.signed(row.amount)} {row.currency}
          </span>
        ),
      },
      {
        key: 'reason',
        header: t('admin.customers.adjustment.reason'),
        render: (row) => (
          <span className="cu-clip" title={row.reason}>
            {row.reason}
          </span>
        ),
      },
      { key: 'by', header: t('admin.customers.adjustment.requestedBy'), render: (row) => row.requestedBy },
      {
        key: 'status',
        header: t('admin.customers.field.status'),
        render: (row) => (
          <span className="cu-status-cell">
            <span
              className={`kit-pill ${ADJUSTMENT_STATUS_TONES[row.status]}`}
              data-testid="adjustment-status"
            >
              {t(ADJUSTMENT_STATUS_LABELS[row.status])}
            </span>
            {row.decidedBy ? (
              <span className="cu-muted">
                {t('admin.customers.adjustment.decidedBy', {
                  name: row.decidedBy,
                  time: row.decidedAt ? format.dateTime(row.decidedAt) : '',
                })}
              </span>
            ) : null}
            {row.rejectReason ? <span className="cu-muted">{row.rejectReason}</span> : null}
          </span>
        ),
      },
    );
    if (mayDecide)
      list.push({
        key: 'actions',
        header: t('admin.customers.actions'),
        align: 'end',
        render: (row) =>
          row.status !== 'pending' ? null : row.mine ? (
            <span className="cu-muted">{t('admin.customers.adjustment.yours')}</span>
          ) : (
            <span className="kit-actions cu-row-actions">
              <button
                type="button"
                className="btn btn-primary btn-sm"
                data-testid="adjustment-approve"
                onClick={() => setDeciding({ item: row, verdict: 'approve' })}
              >
                {t('admin.customers.adjustment.approve')}
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                data-testid="adjustment-reject"
                onClick={() => setDeciding({ item: row, verdict: 'reject' })}
              >
                {t('admin.customers.adjustment.reject')}
              </button>
            </span>
          ),
      });
    return list;
  }, [t, format, compact, mayDecide]);

  return (
    <>
      <DataTable
        testId="adjustments-table"
        rowTestId="adjustment-row"
        rows={items}
        columns={columns}
        rowKey={(row) => row.id}
        loading={loading}
        error={error}
        {...(onRetry ? { onRetry } : {})}
        {...(server ? { server } : {})}
        {...(toolbar ? { toolbar } : {})}
        empty={empty ?? t('admin.customers.adjustment.none')}
      />
      {deciding ? (
        <DecisionDialog
          item={deciding.item}
          verdict={deciding.verdict}
          onClose={() => setDeciding(null)}
          onDone={(message) => {
            setDeciding(null);
            notify(message);
            onChanged();
          }}
        />
      ) : null}
    </>
  );
}

function DecisionDialog({
  item,
  verdict,
  onClose,
  onDone,
}: {
  item: TAdjustment;
  verdict: 'approve' | 'reject';
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useI18n();
  const format = useFormat();
  const approve = useMutation('admincustomerapprove');
  const reject = useMutation('admincustomerreject');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const amount = `${format.signed(item.amount)} ${item.currency}`;
  const reasonProblem = reason.trim() === '' ? t('admin.customers.adjustment.rejectReasonRequired') : null;
  const mutation = verdict === 'approve' ? approve : reject;
  return (
    <ConfirmDialog
      title={t(
        verdict === 'approve'
          ? 'admin.customers.adjustment.approveTitle'
          : 'admin.customers.adjustment.rejectTitle',
      )}
      message={t(
        verdict === 'approve'
          ? 'admin.customers.adjustment.approveText'
          : 'admin.customers.adjustment.rejectText',
        { amount, account: item.accountId, name: item.userName, by: item.requestedBy },
      )}
      confirmLabel={t(
        verdict === 'approve' ? 'admin.customers.adjustment.approve' : 'admin.customers.adjustment.reject',
      )}
      danger={verdict === 'reject'}
      pending={mutation.pending}
      error={mutation.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        if (verdict === 'approve') {
          const done = await approve.run({ id: item.id });
          if (done) onDone(t('admin.customers.adjustment.approved', { amount }));
          return;
        }
        setTouched(true);
        if (reasonProblem) return;
        const done = await reject.run({ id: item.id, reason: reason.trim() });
        if (done) onDone(t('admin.customers.adjustment.rejected', { amount }));
      }}
    >
      <p className="cu-quote">“{item.reason}”</p>
      {verdict === 'reject' ? (
        <label className="field kit-field">
          <span className="field-label">{t('admin.customers.adjustment.rejectReason')}</span>
          <input
            className="input"
            value={reason}
            maxLength={REJECT_REASON_MAX}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={touched && Boolean(reasonProblem)}
            data-testid="reject-reason"
          />
          <span className={touched && reasonProblem ? 'field-error' : 'kit-hint'}>
            {touched && reasonProblem
              ? reasonProblem
              : t('admin.customers.adjustment.rejectReasonHint', {
                  count: reason.length,
                  max: REJECT_REASON_MAX,
                })}
          </span>
        </label>
      ) : null}
    </ConfirmDialog>
  );
}

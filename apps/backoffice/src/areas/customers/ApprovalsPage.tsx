import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { Field } from '../../kit/Field';
import { Modal } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { AdjustmentList } from './AdjustmentList';
import { isAmount, useFormat } from './format';
import { CUSTOMERS_BASE } from './paths';

const PAGE_SIZE = 20;
const FILTERS = {
  pending: 'admin.customers.approvals.waiting',
  decided: 'admin.customers.approvals.decided',
  all: 'admin.customers.approvals.all',
} as const;
type TFilter = keyof typeof FILTERS;

/** Balance adjustments waiting for a second staff member, the decided ones, and the broker's threshold. */
export function ApprovalsPage() {
  const { t } = useI18n();
  const format = useFormat();
  const title = t('admin.customers.approvals.title');
  useDocumentTitle(title);
  const [filter, setFilter] = useState<TFilter>('pending');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useQuery('admincustomeradjustments', { status: filter, page, size: PAGE_SIZE });
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 5000);
    return () => clearTimeout(timer);
  }, [notice]);
  const threshold = list.data?.threshold ?? null;

  return (
    <div className="bo-page">
      <Link to={CUSTOMERS_BASE} className="cu-back">
        <Icon name="arrowLeft" size={14} />
        {t('admin.customers.backToList')}
      </Link>
      <PageHeader title={title} description={t('admin.customers.approvals.description')} />
      {notice ? (
        <div className="cu-notice" role="status" data-testid="customer-notice">
          <Icon name="check" size={16} />
          <span>{notice}</span>
        </div>
      ) : null}
      <section className="card cu-threshold" data-testid="approval-threshold">
        <div>
          <span className="cu-muted">{t('admin.customers.threshold.label')}</span>
          <strong className="num">{threshold === null ? '—' : `${format.money(threshold)} USD`}</strong>
          <p className="kit-hint">{t('admin.customers.threshold.hint')}</p>
        </div>
        <Can permission="users.approve">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={threshold === null}
            onClick={() => setEditing(true)}
            data-testid="threshold-edit"
          >
            {t('admin.customers.threshold.edit')}
          </button>
        </Can>
      </section>
      <AdjustmentList
        items={list.data?.items ?? []}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        onChanged={list.reload}
        notify={setNotice}
        empty={
          filter === 'pending'
            ? t('admin.customers.approvals.noneWaiting')
            : t('admin.customers.adjustment.none')
        }
        server={{ total: list.data?.total ?? 0, page, pageSize: PAGE_SIZE, onPage: setPage }}
        toolbar={
          <div className="cu-segment" role="radiogroup" aria-label={title}>
            {(Object.keys(FILTERS) as TFilter[]).map((key) => (
              <button
                key={key}
                type="button"
                role="radio"
                aria-checked={filter === key}
                className="cu-segment-item"
                data-testid={`approvals-${key}`}
                onClick={() => {
                  setFilter(key);
                  setPage(1);
                }}
              >
                {t(FILTERS[key])}
              </button>
            ))}
          </div>
        }
      />
      {editing && threshold !== null ? (
        <ThresholdDialog
          current={threshold}
          onClose={() => setEditing(false)}
          onDone={(saved) => {
            setEditing(false);
            setNotice(t('admin.customers.threshold.done', { amount: `${format.money(saved)} USD` }));
            list.reload();
          }}
        />
      ) : null}
    </div>
  );
}

function ThresholdDialog({
  current,
  onClose,
  onDone,
}: {
  current: string;
  onClose: () => void;
  onDone: (threshold: string) => void;
}) {
  const { t } = useI18n();
  const save = useMutation('admincustomerthreshold');
  const [amount, setAmount] = useState(current);
  const [touched, setTouched] = useState(false);
  const problem = isAmount(amount) ? null : t('admin.customers.threshold.invalid');
  return (
    <Modal
      title={t('admin.customers.threshold.title')}
      onClose={onClose}
      testId="threshold-dialog"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={save.pending}>
            {t('admin.kit.cancel')}
          </button>
          <button type="submit" form="cu-threshold-form" className="btn btn-primary" disabled={save.pending}>
            {save.pending ? <span className="bo-spin bo-spinner-sm" aria-hidden="true" /> : null}
            {t('admin.customers.threshold.save')}
          </button>
        </>
      }
    >
      <form
        id="cu-threshold-form"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          setTouched(true);
          if (problem) return;
          const result = await save.run({ amount: amount.trim() });
          if (result) onDone(result.threshold);
        }}
      >
        <p className="kit-confirm-text">{t('admin.customers.threshold.text')}</p>
        <Field label={t('admin.customers.threshold.amount')} error={touched ? problem : null}>
          {(props) => (
            <input
              {...props}
              className="input num"
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              data-testid="threshold-amount"
            />
          )}
        </Field>
        {save.error ? (
          <p className="kit-error" role="alert">
            {save.error.message}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}

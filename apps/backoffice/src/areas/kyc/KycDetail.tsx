import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { callApi } from '../../api';
import { Icon } from '../../components/Icon';
import { useDocumentTitle, useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { LoadError, useNotice } from '../../kit/Feedback';
import { ConfirmDialog } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { FileViewer } from './FileViewer';
import {
  ageOn,
  DOCUMENT_LABELS,
  KYC_STATE_LABELS,
  KYC_STATE_TONES,
  LEVEL_LABELS,
  reviewReasonProblem,
  type TKycSubmission,
  useKycFormat,
} from './format';
import { kycPath } from './KycQueue';
import { ReasonField } from './ui';

/** One submission: its files viewed in place, the details the customer gave, earlier submissions; Approve or Reject. */
export function KycDetail() {
  const { id = '' } = useParams();
  const { t } = useI18n();
  const detail = useQuery('adminkycdetail', { id });
  const submission = detail.data?.submission ?? null;
  const name = submission ? submission.customer.name || submission.customer.email || '' : '';
  // The name on the document is what is verified; the account's own name is shown beside it.
  const legalName = submission?.details
    ? `${submission.details.firstName} ${submission.details.lastName}`.trim()
    : name;
  useDocumentTitle(name ? t('admin.kyc.detail.documentTitle', { name }) : t('admin.menu.kyc'));
  const [deciding, setDeciding] = useState<'approve' | 'reject' | null>(null);
  const [notice, setNotice] = useNotice(8000);

  return (
    <div className="ky-detail" data-testid="kyc-detail">
      <Link to="/kyc" className="ky-back">
        <Icon name="arrowLeft" size={14} />
        {t('admin.kyc.detail.back')}
      </Link>
      {detail.status === 'error' && !submission ? (
        <LoadError message={detail.error.message} onRetry={detail.reload} />
      ) : !submission ? (
        <div className="ky-grid" aria-busy="true">
          <div className="card ky-placeholder">
            <span className="kit-skeleton" />
          </div>
          <div className="card ky-placeholder">
            <span className="kit-skeleton" />
            <span className="kit-skeleton" />
            <span className="kit-skeleton" />
          </div>
        </div>
      ) : (
        <>
          <header className="ky-head">
            <div className="ky-head-text">
              <h2>
                {legalName}
                <span className={`kit-pill ${submission.level === 'senior' ? 'ky-pill-brand' : ''}`}>
                  {t(LEVEL_LABELS[submission.level])}
                </span>
                <span
                  className={`kit-pill ${KYC_STATE_TONES[submission.status]}`}
                  data-testid="kyc-detail-status"
                  data-status={submission.status}
                >
                  {t(KYC_STATE_LABELS[submission.status])}
                </span>
              </h2>
              {legalName !== name ? (
                <p className="ky-account-name">
                  {name}
                  {submission.customer.email && submission.customer.email !== name
                    ? ` · ${submission.customer.email}`
                    : null}
                </p>
              ) : null}
              <SubmittedLine submission={submission} />
            </div>
            {submission.status === 'pending' ? (
              <Can permission="kyc.review">
                <div className="ky-head-actions">
                  <button
                    type="button"
                    className="btn btn-secondary"
                    onClick={() => setDeciding('reject')}
                    data-testid="kyc-reject"
                  >
                    {t('admin.kyc.reject.button')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-primary"
                    onClick={() => setDeciding('approve')}
                    data-testid="kyc-approve"
                  >
                    <Icon name="check" size={16} />
                    {t('admin.kyc.approve.button')}
                  </button>
                </div>
              </Can>
            ) : null}
          </header>
          {notice ? <DecisionNotice message={notice} currentId={submission.id} /> : null}
          {submission.status === 'rejected' && submission.rejectReason ? (
            <p className="ky-verdict ky-verdict-down" data-testid="kyc-detail-reason">
              {t('admin.kyc.detail.rejectedBecause', { reason: submission.rejectReason })}
            </p>
          ) : null}
          <div className="ky-grid">
            <section className="card ky-files" aria-labelledby="ky-files-title">
              <h3 id="ky-files-title" className="ky-card-title">
                {t('admin.kyc.files.title')}
              </h3>
              <FileViewer files={submission.files} />
            </section>
            <div className="ky-side">
              <Details submission={submission} />
              <Customer submission={submission} />
              <Review submission={submission} />
              <Earlier items={detail.data?.earlier ?? []} />
            </div>
          </div>
          {deciding === 'approve' ? (
            <ApproveDialog
              submission={submission}
              onClose={() => setDeciding(null)}
              onDone={() => {
                setDeciding(null);
                setNotice(t('admin.kyc.approve.done', { name }));
                detail.reload();
              }}
            />
          ) : null}
          {deciding === 'reject' ? (
            <RejectDialog
              submission={submission}
              onClose={() => setDeciding(null)}
              onDone={() => {
                setDeciding(null);
                setNotice(t('admin.kyc.reject.done', { name }));
                detail.reload();
              }}
            />
          ) : null}
        </>
      )}
    </div>
  );
}

function SubmittedLine({ submission }: { submission: TKycSubmission }) {
  const { t } = useI18n();
  const format = useKycFormat();
  return (
    <p className="ky-muted">
      {t('admin.kyc.detail.submitted', { time: format.dateTime(submission.submittedAt) })}
      {submission.status === 'pending'
        ? ` · ${t('admin.kyc.waitingFor', { time: format.waited(submission.submittedAt) })}`
        : null}
    </p>
  );
}

/** After a decision: what was done, and the way to the next submission that waits. */
function DecisionNotice({ message, currentId }: { message: string; currentId: string }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [looking, setLooking] = useState(false);
  const [none, setNone] = useState(false);
  const next = async () => {
    setLooking(true);
    try {
      const queue = await callApi('adminkycqueue', { status: 'pending', page: 1, size: 5 });
      const item = queue.items.find((s) => s.id !== currentId);
      if (item) navigate(kycPath(item.id));
      else setNone(true);
    } catch {
      setNone(true);
    } finally {
      setLooking(false);
    }
  };
  return (
    <div className="ky-notice" role="status" data-testid="kyc-notice">
      <Icon name="check" size={16} />
      <span>{none ? `${message} ${t('admin.kyc.detail.queueEmpty')}` : message}</span>
      {none ? null : (
        <button type="button" className="btn btn-secondary btn-sm" onClick={next} disabled={looking}>
          {t('admin.kyc.detail.next')}
          <Icon name="arrowRight" size={14} />
        </button>
      )}
    </div>
  );
}

function Card({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="card ky-card" data-testid={testId}>
      <h3 className="ky-card-title">{title}</h3>
      {children}
    </section>
  );
}

function Facts({ items }: { items: readonly (readonly [string, ReactNode] | null)[] }) {
  return (
    <dl className="ky-facts">
      {items.map((item) =>
        item ? (
          <div key={item[0]} className="ky-fact">
            <dt>{item[0]}</dt>
            <dd>{item[1]}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}

function Details({ submission }: { submission: TKycSubmission }) {
  const { t, formatNumber } = useI18n();
  const format = useKycFormat();
  const details = submission.details;
  const address = submission.address;
  const age = details ? ageOn(details.birthDate) : null;
  return (
    <Card title={t('admin.kyc.detail.details')} testId="kyc-details">
      {details ? (
        <Facts
          items={[
            [t('admin.kyc.field.firstName'), details.firstName],
            [t('admin.kyc.field.lastName'), details.lastName],
            [
              t('admin.kyc.field.birthDate'),
              <span key="b">
                {format.day(details.birthDate)}
                {age === null ? null : (
                  <span className={age < 18 ? 'kit-down' : 'ky-muted'}>
                    {' '}
                    · {t('admin.kyc.detail.age', { age: formatNumber(age) })}
                  </span>
                )}
              </span>,
            ],
            [t('admin.kyc.field.country'), format.country(details.country) ?? details.country],
            [t('admin.kyc.field.document'), t(DOCUMENT_LABELS[details.documentType] ?? details.documentType)],
            [t('admin.kyc.field.documentNumber'), <code key="n">{details.documentNumber}</code>],
          ]}
        />
      ) : null}
      {address ? (
        <Facts
          items={[
            [t('admin.kyc.field.address'), address.addressLine],
            [t('admin.kyc.field.city'), address.city],
            address.postalCode ? [t('admin.kyc.field.postalCode'), address.postalCode] : null,
          ]}
        />
      ) : null}
      {!details && !address ? <p className="ky-muted">{t('admin.kyc.detail.noDetails')}</p> : null}
    </Card>
  );
}

function Customer({ submission }: { submission: TKycSubmission }) {
  const { t } = useI18n();
  const format = useKycFormat();
  const customer = submission.customer;
  return (
    <Card title={t('admin.kyc.detail.customer')}>
      <Facts
        items={[
          [t('admin.kyc.field.customer'), customer.name || '—'],
          [t('admin.kyc.field.email'), customer.email ?? '—'],
          [t('admin.kyc.field.profileCountry'), format.country(customer.country) ?? '—'],
          [t('admin.kyc.field.registered'), format.dateTime(customer.createdAt)],
        ]}
      />
      <Link
        className="btn btn-secondary btn-sm ky-card-action"
        to={`/users/${encodeURIComponent(customer.userId)}`}
      >
        <Icon name="user" size={14} />
        {t('admin.kyc.detail.openCustomer')}
      </Link>
    </Card>
  );
}

function Review({ submission }: { submission: TKycSubmission }) {
  const { t } = useI18n();
  const format = useKycFormat();
  if (!submission.reviewedAt && !submission.reviewedBy) return null;
  return (
    <Card title={t('admin.kyc.detail.review')}>
      <Facts
        items={[
          [t('admin.kyc.field.reviewedBy'), submission.reviewedBy ?? '—'],
          submission.reviewedAt
            ? [t('admin.kyc.field.reviewedAt'), format.dateTime(submission.reviewedAt)]
            : null,
          submission.rejectReason ? [t('admin.kyc.field.reason'), submission.rejectReason] : null,
        ]}
      />
    </Card>
  );
}

function Earlier({ items }: { items: readonly TKycSubmission[] }) {
  const { t } = useI18n();
  const format = useKycFormat();
  return (
    <Card title={t('admin.kyc.detail.earlier')} testId="kyc-earlier">
      {items.length === 0 ? (
        <p className="ky-muted">{t('admin.kyc.detail.noEarlier')}</p>
      ) : (
        <ul className="ky-earlier">
          {items.map((item) => (
            <li key={item.id}>
              <Link to={kycPath(item.id)}>{format.dateTime(item.submittedAt)}</Link>
              <span className="ky-earlier-pills">
                <span className="kit-pill">{t(LEVEL_LABELS[item.level])}</span>
                <span className={`kit-pill ${KYC_STATE_TONES[item.status]}`}>
                  {t(KYC_STATE_LABELS[item.status])}
                </span>
              </span>
              {item.rejectReason ? <span className="ky-muted">{item.rejectReason}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function ApproveDialog({
  submission,
  onClose,
  onDone,
}: {
  submission: TKycSubmission;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const approve = useMutation('adminkycapprove');
  return (
    <ConfirmDialog
      title={t('admin.kyc.approve.title')}
      message={t('admin.kyc.approve.text', {
        name: submission.customer.name || submission.customer.email || '',
        level: t(LEVEL_LABELS[submission.level]),
      })}
      confirmLabel={t('admin.kyc.approve.button')}
      pending={approve.pending}
      error={approve.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        if (await approve.run({ id: submission.id })) onDone();
      }}
    />
  );
}

function RejectDialog({
  submission,
  onClose,
  onDone,
}: {
  submission: TKycSubmission;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const reject = useMutation('adminkycreject');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  return (
    <ConfirmDialog
      title={t('admin.kyc.reject.title')}
      message={t('admin.kyc.reject.text', {
        name: submission.customer.name || submission.customer.email || '',
        level: t(LEVEL_LABELS[submission.level]),
      })}
      confirmLabel={t('admin.kyc.reject.button')}
      danger
      pending={reject.pending}
      error={reject.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        setTouched(true);
        if (reviewReasonProblem(reason)) return;
        if (await reject.run({ id: submission.id, reason: reason.trim() })) onDone();
      }}
    >
      <ReasonField value={reason} onChange={setReason} showProblem={touched} />
    </ConfirmDialog>
  );
}

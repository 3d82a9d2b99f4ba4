import type { TRouteOutput } from '@broker/contracts/routes';
import { useEffect, useId, useMemo, useState } from 'react';
import { callApi } from '../../api';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Facts } from '../../kit/Drawer';
import { LoadError, Notice, useNotice } from '../../kit/Feedback';
import { ConfirmDialog, Modal } from '../../kit/Modal';
import { Segmented } from '../../kit/Segmented';
import { useMutation, useQuery } from '../../kit/useApi';
import { pick, useFilterParams } from '../../kit/useFilterParams';
import { useSession } from '../../session';
import { DepositDrawer } from './DepositsTab';
import {
  compareDecimals,
  DEPOSIT_STATE_LABELS,
  DEPOSIT_STATE_TONES,
  isZero,
  MISMATCH_LABELS,
  methodLabel,
  reviewReasonProblem,
  shiftDay,
  subtractDecimals,
  type TAdminDeposit,
  type TUnmatchedPayment,
  UNMATCHED_STATUS_LABELS,
  useFundingFormat,
  utcDay,
} from './format';
import { ReasonField } from './ui';

type TReport = TRouteOutput<'adminreconciliation'>;
type TProviderReport = TReport['providers'][number];
const PAYMENT_FILTERS = ['unmatched', 'matched', 'returned'] as const;

/** Payments no deposit claimed (match or return them) and the daily report of the ledger against each provider. */
export function ReconciliationTab() {
  const [notice, setNotice] = useNotice();
  return (
    <div className="fu-tab">
      <Notice message={notice} testId="funding-notice" />
      <UnmatchedSection onNotice={setNotice} />
      <ReportSection />
    </div>
  );
}

function UnmatchedSection({ onNotice }: { onNotice: (message: string) => void }) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const { can } = useSession();
  const { params, update } = useFilterParams();
  const status = pick(params.get('payments'), PAYMENT_FILTERS) ?? 'unmatched';
  const list = useQuery('adminunmatched', { status });
  const [action, setAction] = useState<{ payment: TUnmatchedPayment; kind: 'match' | 'return' } | null>(null);
  const [deposit, setDeposit] = useState<string | null>(null);
  const mayReconcile = can('funding.reconcile');

  const columns = useMemo<TColumn<TUnmatchedPayment>[]>(() => {
    const list: TColumn<TUnmatchedPayment>[] = [
      {
        key: 'received',
        header: t('admin.funding.field.received'),
        render: (row) => format.shortDateTime(row.receivedAt),
      },
      { key: 'method', header: t('admin.funding.field.method'), render: (row) => methodLabel(t, row.method) },
      {
        key: 'amount',
        header: t('admin.funding.field.amount'),
        align: 'end',
        render: (row) => <strong className="num">{format.money(row.amount, row.currency)}</strong>,
      },
      {
        key: 'reference',
        header: t('admin.funding.field.reference'),
        render: (row) => (
          <span className="fu-mono fu-clip" title={row.reference}>
            {row.reference}
          </span>
        ),
      },
      {
        key: 'suggested',
        header: t('admin.funding.unmatched.suggested'),
        render: (row) =>
          row.suggestedDepositId ? (
            <button
              type="button"
              className="fu-rowbtn fu-mono"
              onClick={() => setDeposit(row.suggestedDepositId)}
              data-testid="payment-suggested"
            >
              {shortId(row.suggestedDepositId)}
            </button>
          ) : (
            <span className="fu-muted">{t('admin.funding.unmatched.noSuggestion')}</span>
          ),
      },
      {
        key: 'status',
        header: t('admin.funding.field.state'),
        render: (row) => (
          <span
            className={`kit-pill ${row.status === 'matched' ? 'kit-pill-up' : row.status === 'returned' ? '' : 'kit-pill-warn'}`}
            data-testid="payment-status"
          >
            {t(UNMATCHED_STATUS_LABELS[row.status])}
          </span>
        ),
      },
    ];
    if (mayReconcile && status === 'unmatched')
      list.push({
        key: 'actions',
        header: t('admin.funding.actions'),
        align: 'end',
        render: (row) =>
          row.status === 'unmatched' ? (
            <span className="kit-actions fu-row-actions">
              <button
                type="button"
                className="btn btn-primary btn-sm"
                onClick={() => setAction({ payment: row, kind: 'match' })}
                data-testid="payment-match"
              >
                {t('admin.funding.unmatched.match')}
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setAction({ payment: row, kind: 'return' })}
                data-testid="payment-return"
              >
                {t('admin.funding.unmatched.return')}
              </button>
            </span>
          ) : null,
      });
    return list;
  }, [t, format, mayReconcile, status]);

  return (
    <section className="bo-section" aria-labelledby="fu-unmatched-title">
      <div className="bo-section-head">
        <h2 id="fu-unmatched-title">{t('admin.funding.unmatched.title')}</h2>
        <p>{t('admin.funding.unmatched.text')}</p>
      </div>
      <DataTable
        testId="unmatched-table"
        rowTestId="payment-row"
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(row) => row.id}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        empty={status === 'unmatched' ? t('admin.funding.unmatched.none') : t('admin.funding.noMatch')}
        toolbar={
          <Segmented
            classPrefix="kit-segments"
            label={t('admin.funding.field.state')}
            testId="payment-states"
            value={status}
            counts={null}
            onChange={(next) => update({ payments: next === 'unmatched' ? null : next })}
            options={PAYMENT_FILTERS.map((value) => ({ value, label: t(UNMATCHED_STATUS_LABELS[value]) }))}
          />
        }
      />
      {action?.kind === 'match' ? (
        <MatchDialog
          payment={action.payment}
          onClose={() => setAction(null)}
          onDone={(message) => {
            setAction(null);
            onNotice(message);
            list.reload();
          }}
        />
      ) : null}
      {action?.kind === 'return' ? (
        <ReturnDialog
          payment={action.payment}
          onClose={() => setAction(null)}
          onDone={(message) => {
            setAction(null);
            onNotice(message);
            list.reload();
          }}
        />
      ) : null}
      {deposit ? <DepositDrawer id={deposit} onClose={() => setDeposit(null)} /> : null}
    </section>
  );
}

const shortId = (id: string) => (id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);

/** Deposits a payment may belong to: the suggested one first, then the method's open deposits, newest first. */
function useCandidates(payment: TUnmatchedPayment) {
  const [suggested, setSuggested] = useState<TAdminDeposit | null>(null);
  const suggestedId = payment.suggestedDepositId;
  useEffect(() => {
    if (!suggestedId) return;
    const controller = new AbortController();
    callApi('admindepositdetail', { id: suggestedId }, { signal: controller.signal }).then(
      (deposit) => setSuggested(deposit),
      // A suggestion that cannot be read is left out; the method's deposits are still offered.
      () => undefined,
    );
    return () => controller.abort();
  }, [suggestedId]);
  const recent = useQuery('adminfundingqueue', {
    kind: 'deposit',
    method: payment.method,
    page: 1,
    size: 50,
  });
  const list: TAdminDeposit[] = [];
  if (suggested) list.push(suggested);
  for (const deposit of recent.data?.deposits ?? [])
    if (deposit.status !== 'completed' && !list.some((d) => d.id === deposit.id)) list.push(deposit);
  const loading = recent.status === 'loading';
  const error = recent.status === 'error' ? recent.error.message : null;
  return { list, loading, error, reload: recent.reload };
}

function MatchDialog({
  payment,
  onClose,
  onDone,
}: {
  payment: TUnmatchedPayment;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const name = useId();
  const candidates = useCandidates(payment);
  const reconcile = useMutation('adminreconcile');
  const [chosen, setChosen] = useState<string | null>(payment.suggestedDepositId);
  const [other, setOther] = useState('');
  const [problem, setProblem] = useState(false);
  const depositId = chosen === '' ? other.trim() : chosen;
  const picked = candidates.list.find((d) => d.id === depositId);
  const differs =
    picked &&
    picked.methodCurrency === payment.currency &&
    compareDecimals(picked.amount, payment.amount) !== 0;
  const amount = format.money(payment.amount, payment.currency);

  const submit = async () => {
    if (!depositId) {
      setProblem(true);
      return;
    }
    const answer = await reconcile.run({ paymentId: payment.id, action: 'match', depositId });
    if (answer) onDone(t('admin.funding.unmatched.matched', { amount, deposit: shortId(depositId) }));
  };

  return (
    <Modal
      title={t('admin.funding.unmatched.matchTitle')}
      onClose={onClose}
      wide
      testId="match-dialog"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={reconcile.pending}>
            {t('admin.kit.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={submit}
            disabled={reconcile.pending}
            data-testid="match-confirm"
          >
            {reconcile.pending ? <span className="bo-spin bo-spinner-sm" aria-hidden="true" /> : null}
            {t('admin.funding.unmatched.matchConfirm', { amount })}
          </button>
        </>
      }
    >
      <div className="fu-confirm-box">
        <Facts
          items={[
            [
              t('admin.funding.field.amount'),
              <strong key="a" className="num">
                {amount}
              </strong>,
            ],
            [t('admin.funding.field.method'), methodLabel(t, payment.method)],
            [t('admin.funding.field.reference'), <code key="r">{payment.reference}</code>],
            [t('admin.funding.field.received'), format.dateTime(payment.receivedAt)],
          ]}
        />
      </div>
      <p className="kit-confirm-text">{t('admin.funding.unmatched.matchText')}</p>
      <fieldset className="fu-candidates" data-testid="match-candidates">
        <legend className="field-label">{t('admin.funding.unmatched.pick')}</legend>
        {candidates.error ? <LoadError message={candidates.error} onRetry={candidates.reload} /> : null}
        {candidates.loading && candidates.list.length === 0 ? <span className="kit-skeleton" /> : null}
        {candidates.list.map((deposit) => (
          <label key={deposit.id} className="fu-candidate" data-testid="match-candidate" data-id={deposit.id}>
            <input
              type="radio"
              name={name}
              value={deposit.id}
              checked={chosen === deposit.id}
              onChange={() => {
                setChosen(deposit.id);
                setProblem(false);
              }}
            />
            <span className="fu-candidate-body">
              <span className="fu-candidate-top">
                <strong>{deposit.customer.name || deposit.customer.email}</strong>
                <strong className="num">{format.money(deposit.amount, deposit.methodCurrency)}</strong>
              </span>
              <span className="fu-candidate-meta">
                <span className="fu-mono">{deposit.reference ?? shortId(deposit.id)}</span>
                <span>{format.shortDateTime(deposit.createdAt)}</span>
                <span className={`kit-pill ${DEPOSIT_STATE_TONES[deposit.status]}`}>
                  {t(DEPOSIT_STATE_LABELS[deposit.status])}
                </span>
                {deposit.id === payment.suggestedDepositId ? (
                  <span className="kit-pill fu-pill-brand">{t('admin.funding.unmatched.suggested')}</span>
                ) : null}
              </span>
            </span>
          </label>
        ))}
        <label className="fu-candidate">
          <input
            type="radio"
            name={name}
            value=""
            checked={chosen === ''}
            onChange={() => setChosen('')}
            data-testid="match-other"
          />
          <span className="fu-candidate-body">
            <strong>{t('admin.funding.unmatched.other')}</strong>
            {chosen === '' ? (
              <input
                className="input"
                value={other}
                onChange={(e) => {
                  setOther(e.target.value);
                  setProblem(false);
                }}
                placeholder={t('admin.funding.unmatched.otherPlaceholder')}
                aria-label={t('admin.funding.unmatched.otherPlaceholder')}
                maxLength={64}
                spellCheck={false}
                data-testid="match-other-id"
              />
            ) : null}
          </span>
        </label>
      </fieldset>
      {problem ? (
        <p className="field-error" role="alert">
          {t('admin.funding.unmatched.pickRequired')}
        </p>
      ) : null}
      {differs && picked ? (
        <p className="fu-confirm-note fu-confirm-warn" data-testid="match-differs">
          {t('admin.funding.unmatched.differs', {
            paid: amount,
            asked: format.money(picked.amount, picked.methodCurrency),
          })}
        </p>
      ) : null}
      {reconcile.error ? (
        <p className="kit-error" role="alert" data-testid="match-error">
          {reconcile.error.message}
        </p>
      ) : null}
    </Modal>
  );
}

function ReturnDialog({
  payment,
  onClose,
  onDone,
}: {
  payment: TUnmatchedPayment;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const reconcile = useMutation('adminreconcile');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const amount = format.money(payment.amount, payment.currency);
  return (
    <ConfirmDialog
      title={t('admin.funding.unmatched.returnTitle')}
      message={t('admin.funding.unmatched.returnText', { amount, reference: payment.reference })}
      confirmLabel={t('admin.funding.unmatched.return')}
      danger
      pending={reconcile.pending}
      error={reconcile.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        setTouched(true);
        if (reviewReasonProblem(reason)) return;
        const answer = await reconcile.run({
          paymentId: payment.id,
          action: 'return',
          reason: reason.trim(),
        });
        if (answer) onDone(t('admin.funding.unmatched.returned', { amount }));
      }}
    >
      <ReasonField
        value={reason}
        onChange={setReason}
        showProblem={touched}
        label={t('admin.funding.unmatched.returnReason')}
        testId="return-reason"
      />
    </ConfirmDialog>
  );
}

function ReportSection() {
  const { t } = useI18n();
  const format = useFundingFormat();
  const { params, update } = useFilterParams();
  const today = utcDay();
  const requested = params.get('day');
  const day = requested && /^\d{4}-\d{2}-\d{2}$/.test(requested) && requested <= today ? requested : today;
  const report = useQuery('adminreconciliation', { day });
  const mismatches = report.data?.providers.reduce((sum, p) => sum + p.mismatches.length, 0) ?? 0;
  const setDay = (next: string) => update({ day: next === today ? null : next });
  return (
    <section className="bo-section" aria-labelledby="fu-report-title" data-testid="report">
      <div className="bo-section-head">
        <h2 id="fu-report-title">{t('admin.funding.report.title')}</h2>
        <p>{t('admin.funding.report.text')}</p>
      </div>
      <div className="fu-daybar">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => setDay(shiftDay(day, -1))}
          aria-label={t('admin.funding.report.previousDay')}
        >
          <Icon name="arrowLeft" size={14} />
        </button>
        <label className="fu-day">
          <span className="sr-only">{t('admin.funding.report.day')}</span>
          <input
            type="date"
            className="input"
            value={day}
            max={today}
            onChange={(e) => {
              if (/^\d{4}-\d{2}-\d{2}$/.test(e.target.value)) setDay(e.target.value);
            }}
            data-testid="report-day"
          />
        </label>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => setDay(shiftDay(day, 1))}
          disabled={day >= today}
          aria-label={t('admin.funding.report.nextDay')}
        >
          <Icon name="arrowRight" size={14} />
        </button>
        <span className="fu-muted">{t('admin.funding.report.utc')}</span>
        {report.data ? (
          mismatches === 0 ? (
            <span className="kit-pill kit-pill-up" data-testid="report-verdict" data-mismatches="0">
              {t('admin.funding.report.agree')}
            </span>
          ) : (
            <span
              className="kit-pill kit-pill-down"
              data-testid="report-verdict"
              data-mismatches={mismatches}
            >
              {t('admin.funding.report.mismatchCount', { count: mismatches })}
            </span>
          )
        ) : null}
      </div>
      {report.status === 'error' ? (
        <LoadError message={report.error.message} onRetry={report.reload} />
      ) : !report.data ? (
        <div className="card fu-report-card">
          <span className="kit-skeleton" />
          <span className="kit-skeleton" />
        </div>
      ) : report.data.providers.length === 0 ? (
        <div className="card fu-empty">{t('admin.funding.report.none')}</div>
      ) : (
        <div className="fu-report" data-loading={report.status === 'loading' ? 'true' : 'false'}>
          {report.data.providers.map((provider) => (
            <ProviderReport
              key={`${provider.provider}-${provider.currency}`}
              provider={provider}
              format={format}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function ProviderReport({
  provider,
  format,
}: {
  provider: TProviderReport;
  format: ReturnType<typeof useFundingFormat>;
}) {
  const { t } = useI18n();
  const rows = [
    {
      key: 'in',
      label: t('admin.funding.report.in'),
      ledger: provider.ledgerIn,
      theirs: provider.providerIn,
    },
    {
      key: 'out',
      label: t('admin.funding.report.out'),
      ledger: provider.ledgerOut,
      theirs: provider.providerOut,
    },
  ];
  return (
    <article className="card fu-report-card" data-testid="report-provider" data-provider={provider.provider}>
      <header className="fu-report-head">
        <h3>
          <code>{provider.provider}</code>
          <span className="fu-muted">{provider.currency}</span>
        </h3>
        {provider.mismatches.length === 0 ? (
          <span className="kit-pill kit-pill-up">{t('admin.funding.report.providerAgrees')}</span>
        ) : (
          <span className="kit-pill kit-pill-down">
            {t('admin.funding.report.mismatchCount', { count: provider.mismatches.length })}
          </span>
        )}
      </header>
      <div
        className="fu-report-scroll"
        role="region"
        aria-label={t('admin.funding.report.totals', { provider: provider.provider })}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone takes focus, so keyboards scroll it
        tabIndex={0}
      >
        <table className="fu-report-table">
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">{t('admin.funding.report.direction')}</span>
              </th>
              <th scope="col">{t('admin.funding.report.ledger')}</th>
              <th scope="col">{t('admin.funding.report.provider')}</th>
              <th scope="col">{t('admin.funding.report.difference')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const difference = subtractDecimals(row.ledger, row.theirs);
              return (
                <tr key={row.key}>
                  <th scope="row">{row.label}</th>
                  <td className="num">{format.amount(row.ledger)}</td>
                  <td className="num">{format.amount(row.theirs)}</td>
                  <td className={`num ${isZero(difference) ? 'fu-muted' : 'kit-down'}`}>
                    {isZero(difference) ? '0' : format.signedMoney(difference, provider.currency)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {provider.mismatches.length > 0 ? (
        <div
          className="fu-report-scroll"
          role="region"
          aria-label={t('admin.funding.report.mismatchesOf', { provider: provider.provider })}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone takes focus, so keyboards scroll it
          tabIndex={0}
        >
          <table className="fu-report-table fu-mismatches" data-testid="report-mismatches">
            <caption className="sr-only">{t('admin.funding.report.mismatches')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.funding.field.reference')}</th>
                <th scope="col">{t('admin.funding.report.problem')}</th>
                <th scope="col">{t('admin.funding.report.ledger')}</th>
                <th scope="col">{t('admin.funding.report.provider')}</th>
              </tr>
            </thead>
            <tbody>
              {provider.mismatches.map((item) => (
                <tr key={`${item.reference}-${item.problem}`} data-testid="report-mismatch">
                  <td className="fu-mono">{item.reference}</td>
                  <td>
                    <span className="kit-pill kit-pill-down">
                      {MISMATCH_LABELS[item.problem] ? t(MISMATCH_LABELS[item.problem] ?? '') : item.problem}
                    </span>
                  </td>
                  <td className="num">
                    {item.ledgerAmount === null ? '—' : format.amount(item.ledgerAmount)}
                  </td>
                  <td className="num">
                    {item.providerAmount === null ? '—' : format.amount(item.providerAmount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </article>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { TRADE_TIME, useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { formatAmount } from '../../lib/money';
import { failureReason } from './DepositTracker';
import { type TMethodInfo, type TWithdrawal, useCall, WITHDRAWAL_FINAL } from './funding-api';
import { plainRate } from './funding-maths';
import { expectedText, LoadError, methodName, Row, Skeleton, StateBadge } from './parts';
import { usePolling } from './use-polling';

type TState = TWithdrawal['status'];
/** The way a withdrawal goes when all is well (spec 4); rejected and failed end it early. */
const MAIN_PATH: readonly TState[] = ['initiated', 'awaiting_review', 'processing', 'completed'];

type TStep = { status: TState; state: 'done' | 'current' | 'todo' | 'stopped'; at: string | null };

/**
 * The steps to show: the main path up to where the withdrawal is, then either the rest of the path
 * still to come, or the state that ended it (review rejected, failed) in place of the rest.
 */
export function timelineSteps(withdrawal: Pick<TWithdrawal, 'status' | 'steps'>): TStep[] {
  const at = (status: TState) => withdrawal.steps.findLast((s) => s.status === status)?.at ?? null;
  const { status } = withdrawal;
  if (status === 'rejected' || status === 'failed') {
    // Reached states of the main path, in order, then the end.
    const reached = MAIN_PATH.filter((s) => s !== 'completed' && at(s) !== null);
    if (reached.length === 0) reached.push('initiated');
    return [
      ...reached.map((s) => ({ status: s, state: 'done' as const, at: at(s) })),
      { status, state: 'stopped', at: at(status) },
    ];
  }
  const index = MAIN_PATH.indexOf(status);
  return MAIN_PATH.map((s, i) => ({
    status: s,
    state: i < index || (i === index && status === 'completed') ? 'done' : i === index ? 'current' : 'todo',
    at: i <= index ? at(s) : null,
  }));
}

/**
 * One withdrawal followed live (spec 4's six states): a timeline with the time of each state reached
 * and an honest estimate for the current and the next ones, the reviewer's reason on a rejection, and
 * Cancel while it awaits review.
 */
export function WithdrawalTimeline({
  id,
  initial,
  methods,
  onChanged,
  onAnother,
}: {
  id: string;
  initial: TWithdrawal | null;
  methods: TMethodInfo[];
  onChanged(): void;
  onAnother(): void;
}) {
  const { t, lang, intl, formatDate } = useI18n();
  const call = useCall();
  const { data, error, poke } = usePolling(
    id,
    (signal) => call('withdrawdetail', { id }, signal),
    (w) => WITHDRAWAL_FINAL.has(w.status),
    initial,
  );
  const [override, setOverride] = useState<TWithdrawal | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [cancelBusy, setCancelBusy] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const lastStatus = useRef<string | null>(null);

  const withdrawal = override && (!data || override.steps.length >= data.steps.length) ? override : data;
  useEffect(() => {
    if (withdrawal && lastStatus.current !== null && lastStatus.current !== withdrawal.status) onChanged();
    if (withdrawal) lastStatus.current = withdrawal.status;
  }, [withdrawal, onChanged]);

  if (!withdrawal)
    return error ? (
      <LoadError message={error} onRetry={poke} testId="withdrawal-detail-error" />
    ) : (
      <Skeleton rows={4} />
    );

  const method = methods.find((m) => m.method === withdrawal.method);
  // Back to source: the card or wallet of an earlier deposit, named in the reader's language.
  const sourceDay = withdrawal.toSource ? /\d{4}-\d{2}-\d{2}/.exec(withdrawal.destination)?.[0] : undefined;
  const destination = !withdrawal.toSource
    ? withdrawal.destination
    : sourceDay
      ? t('funding.destination.sourceShort', {
          method: methodName(t, withdrawal.method),
          time: formatDate(new Date(`${sourceDay}T12:00:00Z`), { dateStyle: 'medium' }),
        })
      : methodName(t, withdrawal.method);
  const steps = timelineSteps(withdrawal);
  const money = (value: string, currency: string) => formatAmount(intl, value, currency);

  const estimate = (status: TState): string | null => {
    if (status === 'initiated') return t('funding.withdrawal.eta.initiated');
    if (status === 'awaiting_review') return t('funding.withdrawal.eta.review');
    if (status === 'processing')
      return method
        ? t('funding.withdrawal.eta.processing', { time: expectedText(t, method.withdraw.expectedMinutes) })
        : null;
    if (status === 'completed' && withdrawal.expectedAt)
      return t('funding.expectedBy', { time: formatDate(new Date(withdrawal.expectedAt), TRADE_TIME) });
    return null;
  };

  const cancel = async () => {
    setCancelBusy(true);
    setCancelError(null);
    const answer = await callRoute('withdrawcancel', { id: withdrawal.id }, lang);
    setCancelBusy(false);
    if (answer.succeed && answer.Data) {
      setOverride(answer.Data);
      setConfirming(false);
      onChanged();
      poke();
      return;
    }
    setCancelError(failureText(answer, t));
    poke();
  };

  return (
    <section
      className="card fu-tracker"
      aria-labelledby="fu-withdrawal-title"
      data-testid="withdrawal-timeline"
      data-status={withdrawal.status}
    >
      <header className="fu-tracker-head">
        <div>
          <h2 id="fu-withdrawal-title">
            {t('funding.withdrawal.trackTitle', {
              amount: money(withdrawal.amount, withdrawal.accountCurrency),
            })}
          </h2>
          <p>
            {t('funding.withdrawal.trackSub', {
              method: methodName(t, withdrawal.method),
              destination,
              id: withdrawal.account_id,
            })}
          </p>
        </div>
        <StateBadge kind="withdrawal" status={withdrawal.status} testId="withdrawal-status" />
      </header>

      <ol className="fu-timeline" aria-label={t('funding.withdrawal.timeline')}>
        {steps.map((step) => {
          const hint = step.state === 'current' || step.state === 'todo' ? estimate(step.status) : null;
          return (
            <li
              key={step.status}
              className="fu-timeline-step"
              data-state={step.state}
              data-status={step.status}
              aria-current={step.state === 'current' ? 'step' : undefined}
              data-testid="timeline-step"
            >
              <span className="fu-timeline-dot" aria-hidden="true">
                <Icon
                  name={
                    step.state === 'done'
                      ? 'check'
                      : step.state === 'stopped'
                        ? 'close'
                        : step.state === 'current'
                          ? 'clock'
                          : 'chevronRight'
                  }
                  size={14}
                />
              </span>
              <div className="fu-timeline-body">
                <span className="fu-timeline-title">
                  {t(`funding.withdrawalState.${step.status}`)}
                  <span className="sr-only"> — {t(`funding.step.${step.state}`)}</span>
                </span>
                {step.at && (
                  <time className="fu-timeline-time" dateTime={step.at}>
                    {formatDate(new Date(step.at), TRADE_TIME)}
                  </time>
                )}
                {step.status === 'rejected' && (
                  <span className="fu-timeline-reason" data-testid="withdrawal-reject-reason">
                    {t('funding.withdrawal.rejectedReason', { reason: withdrawal.rejectReason ?? '—' })}
                  </span>
                )}
                {step.status === 'failed' && (
                  <span className="fu-timeline-reason" data-testid="withdrawal-failure">
                    {withdrawal.failure === 'cancelled'
                      ? t('funding.withdrawal.cancelledText')
                      : failureReason(t, withdrawal.failure ?? 'other')}
                  </span>
                )}
                {(step.status === 'rejected' || step.status === 'failed') && (
                  <span className="fu-timeline-hint">{t('funding.withdrawal.released')}</span>
                )}
                {hint && <span className="fu-timeline-hint">{hint}</span>}
              </div>
            </li>
          );
        })}
      </ol>

      <dl className="fu-rows fu-rows-wide">
        <Row label={t('funding.summary.amount')}>{money(withdrawal.amount, withdrawal.accountCurrency)}</Row>
        {withdrawal.methodCurrency !== withdrawal.accountCurrency && (
          <Row label={t('funding.summary.rate')}>
            {t('funding.rate', {
              from: `1 ${withdrawal.methodCurrency}`,
              to: `${formatDecimal(intl, plainRate(withdrawal.rate))} ${withdrawal.accountCurrency}`,
            })}
          </Row>
        )}
        <Row label={t('funding.summary.fee')}>{money(withdrawal.fee, withdrawal.accountCurrency)}</Row>
        <Row label={t('funding.summary.payout')} strong testId="withdrawal-payout">
          {money(withdrawal.payout, withdrawal.methodCurrency)}
        </Row>
        <Row label={t('funding.summary.destination')}>
          <span className="fu-break">{destination}</span>
          {withdrawal.toSource && (
            <span className="badge fu-source-badge">{t('funding.withdrawal.toSource')}</span>
          )}
        </Row>
      </dl>

      {cancelError && (
        <div className="alert alert-error" role="alert" data-testid="withdrawal-cancel-error">
          {cancelError}
        </div>
      )}
      <div className="fu-actions">
        {withdrawal.cancellable && withdrawal.status === 'awaiting_review' && (
          <button
            type="button"
            className="btn btn-secondary fu-danger"
            onClick={() => setConfirming(true)}
            data-testid="withdrawal-cancel"
          >
            <Icon name="close" size={16} />
            {t('funding.withdrawal.cancel')}
          </button>
        )}
        <button type="button" className="btn btn-ghost" onClick={onAnother} data-testid="withdrawal-another">
          {t('funding.withdrawal.another')}
        </button>
      </div>
      {confirming && (
        <CancelDialog
          busy={cancelBusy}
          onConfirm={() => void cancel()}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

function CancelDialog({ busy, onConfirm, onClose }: { busy: boolean; onConfirm(): void; onClose(): void }) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="st-dialog"
      aria-labelledby={titleId}
      data-testid="withdrawal-cancel-dialog"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id={titleId}>{t('funding.withdrawal.cancelTitle')}</h2>
      <p>{t('funding.withdrawal.cancelText')}</p>
      <div className="st-dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
          {t('funding.withdrawal.keep')}
        </button>
        <button
          type="button"
          className="btn btn-primary st-danger"
          onClick={onConfirm}
          disabled={busy}
          data-testid="withdrawal-cancel-confirm"
        >
          {busy ? <span className="spinner st-spinner-sm" /> : t('funding.withdrawal.cancel')}
        </button>
      </div>
    </dialog>
  );
}

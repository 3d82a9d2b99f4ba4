import { useState } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { Drawer, DrawerSection, Facts } from '../../kit/Drawer';
import { LoadError, Skeleton } from '../../kit/Feedback';
import { ConfirmDialog } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { useStaff } from '../../session';
import {
  FLAG_TEXT,
  failureLabel,
  fourEyesStep,
  MOVEMENT_LABELS,
  methodLabel,
  reviewReasonProblem,
  type TAdminWithdrawal,
  type TFourEyes,
  useFundingFormat,
  WITHDRAWAL_STATE_LABELS,
  WITHDRAWAL_STATE_TONES,
} from './format';
import { Glyph } from './glyphs';
import { CopyText, CustomerBrief, ReasonField } from './ui';

/**
 * The review of one withdrawal: risk flags first, the money (amount, payout at the stored rate, the
 * full destination), the customer and their recent money movements, the state timeline; Approve
 * (four-eyes aware) and Reject with a reason for holders of funding.review.
 */
export function WithdrawalDrawer({
  id,
  onClose,
  onChanged,
  onOnlyCustomer,
}: {
  id: string;
  onClose: () => void;
  onChanged: (message: string) => void;
  onOnlyCustomer: (userId: string) => void;
}) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const staff = useStaff();
  const review = useQuery('adminwithdrawreview', { id });
  const [deciding, setDeciding] = useState<'approve' | 'reject' | null>(null);
  const withdrawal = review.data?.withdrawal ?? null;
  const mayReview = staff.permissions.includes('funding.review');
  const step = withdrawal ? fourEyesStep(withdrawal, staff) : 'none';
  const waiting = withdrawal?.status === 'awaiting_review';

  return (
    <Drawer
      className="fu-drawer"
      testId="withdrawal-drawer"
      onClose={onClose}
      title={
        <>
          {t('admin.funding.withdrawal.title')}
          {withdrawal ? (
            <span
              className={`kit-pill ${WITHDRAWAL_STATE_TONES[withdrawal.status]}`}
              data-testid="drawer-status"
              data-status={withdrawal.status}
            >
              {t(WITHDRAWAL_STATE_LABELS[withdrawal.status])}
            </span>
          ) : null}
        </>
      }
      subtitle={
        withdrawal ? (
          <>
            <span>{format.dateTime(withdrawal.createdAt)}</span>
            <span>{methodLabel(t, withdrawal.method)}</span>
            <span className="fu-mono">{withdrawal.id}</span>
          </>
        ) : null
      }
      footer={
        withdrawal && waiting && mayReview ? (
          <ReviewFooter
            step={step}
            firstApprovedBy={withdrawal.firstApprovedBy}
            onApprove={() => setDeciding('approve')}
            onReject={() => setDeciding('reject')}
          />
        ) : null
      }
    >
      {review.status === 'error' && !withdrawal ? (
        <LoadError message={review.error.message} onRetry={review.reload} />
      ) : !withdrawal ? (
        <Skeleton lines={8} />
      ) : (
        <>
          <Flags withdrawal={withdrawal} step={step} />
          <DrawerSection title={t('admin.funding.withdrawal.money')}>
            <div className="fu-money">
              <div>
                <span className="fu-muted">{t('admin.funding.field.amount')}</span>
                <strong className="num fu-big" data-testid="drawer-amount">
                  {format.money(withdrawal.amount, withdrawal.accountCurrency)}
                </strong>
              </div>
              <Icon name="arrowRight" size={18} />
              <div>
                <span className="fu-muted">{t('admin.funding.field.payout')}</span>
                <strong className="num fu-big">
                  {format.money(withdrawal.payout, withdrawal.methodCurrency)}
                </strong>
              </div>
            </div>
            <Facts
              items={[
                [t('admin.funding.field.fee'), format.money(withdrawal.fee, withdrawal.accountCurrency)],
                [
                  t('admin.funding.field.rate'),
                  withdrawal.methodCurrency === withdrawal.accountCurrency
                    ? t('admin.funding.rate.same')
                    : t('admin.funding.rate.value', {
                        from: withdrawal.methodCurrency,
                        rate: format.rate(withdrawal.rate),
                        to: withdrawal.accountCurrency,
                      }),
                ],
                [t('admin.funding.field.amountUsd'), format.money(withdrawal.amountUsd, 'USD')],
                [t('admin.funding.field.account'), `#${withdrawal.account_id}`],
                [t('admin.funding.field.method'), methodLabel(t, withdrawal.method)],
                [
                  t('admin.funding.field.destination'),
                  <span key="dest" className="fu-dest">
                    {withdrawal.destination !== withdrawal.destinationFull ? (
                      <strong className="fu-dest-name">{withdrawal.destination}</strong>
                    ) : null}
                    <CopyText value={withdrawal.destinationFull} testId="drawer-destination" />
                    {withdrawal.toSource ? (
                      <span className="kit-pill kit-pill-up">{t('admin.funding.withdrawal.toSource')}</span>
                    ) : (
                      <span className="kit-pill">{t('admin.funding.withdrawal.notToSource')}</span>
                    )}
                  </span>,
                  true,
                ],
              ]}
            />
          </DrawerSection>
          <DrawerSection title={t('admin.funding.withdrawal.customer')}>
            <CustomerBrief
              customer={withdrawal.customer}
              format={format}
              onOnlyThis={() => onOnlyCustomer(withdrawal.customer.userId)}
            />
          </DrawerSection>
          <DrawerSection title={t('admin.funding.withdrawal.timeline')} testId="drawer-timeline">
            <Timeline withdrawal={withdrawal} />
          </DrawerSection>
          <DrawerSection title={t('admin.funding.withdrawal.recent')}>
            {review.data?.recent.length ? (
              <ul className="fu-recent" data-testid="drawer-recent">
                {review.data.recent.map((item) => (
                  <li key={`${item.kind}-${item.at}-${item.amount}`}>
                    <span>
                      {MOVEMENT_LABELS[item.kind] ? t(MOVEMENT_LABELS[item.kind] ?? '') : item.kind}
                    </span>
                    <span className="fu-muted">{format.shortDateTime(item.at)}</span>
                    <strong
                      className={`num ${item.amount.startsWith('-') ? 'kit-down' : /[1-9]/.test(item.amount) ? 'kit-up' : ''}`}
                    >
                      {format.signedMoney(item.amount, item.currency)}
                    </strong>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="fu-muted">{t('admin.funding.withdrawal.noRecent')}</p>
            )}
          </DrawerSection>
        </>
      )}
      {withdrawal && deciding === 'approve' ? (
        <ApproveDialog
          withdrawal={withdrawal}
          step={step}
          onClose={() => setDeciding(null)}
          onDone={(answer) => {
            setDeciding(null);
            review.reload();
            const amount = format.money(answer.amount, answer.accountCurrency);
            onChanged(
              answer.status === 'awaiting_review'
                ? t('admin.funding.approve.firstDone', { amount })
                : t('admin.funding.approve.done', { amount }),
            );
          }}
        />
      ) : null}
      {withdrawal && deciding === 'reject' ? (
        <RejectDialog
          withdrawal={withdrawal}
          onClose={() => setDeciding(null)}
          onDone={(answer) => {
            setDeciding(null);
            review.reload();
            onChanged(
              t('admin.funding.reject.done', { amount: format.money(answer.amount, answer.accountCurrency) }),
            );
          }}
        />
      ) : null}
    </Drawer>
  );
}

/** The risk flags, each with its one-line explanation, and where the four-eyes rule stands. */
function Flags({ withdrawal, step }: { withdrawal: TAdminWithdrawal; step: TFourEyes }) {
  const { t } = useI18n();
  const risks = withdrawal.flags.filter((flag) => flag !== 'four_eyes');
  return (
    <section
      className={`fu-flags${risks.length > 0 ? ' fu-flags-warn' : ''}`}
      aria-label={t('admin.funding.withdrawal.flags')}
      data-testid="drawer-flags"
    >
      {risks.length === 0 ? (
        <p className="fu-flags-none">
          <Icon name="check" size={16} />
          {t('admin.funding.withdrawal.noFlags')}
        </p>
      ) : (
        <>
          <h3>
            <Glyph name="flag" />
            {t('admin.funding.withdrawal.flagCount', { count: risks.length })}
          </h3>
          <ul>
            {risks.map((flag) => (
              <li key={flag} data-flag={flag}>
                <strong>{t(FLAG_TEXT[flag].title)}</strong>
                <span>{t(FLAG_TEXT[flag].text)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {withdrawal.flags.includes('four_eyes') || withdrawal.firstApprovedBy ? (
        <div className="fu-foureyes" data-testid="drawer-foureyes" data-step={step}>
          <Icon name="users" size={16} />
          <div>
            <strong>{t(FLAG_TEXT.four_eyes.title)}</strong>
            <span>
              {step === 'mine'
                ? t('admin.funding.fourEyes.firstByYou')
                : withdrawal.firstApprovedBy
                  ? t('admin.funding.fourEyes.firstBy', { name: withdrawal.firstApprovedBy })
                  : t(FLAG_TEXT.four_eyes.text)}
            </span>
          </div>
        </div>
      ) : null}
    </section>
  );
}

/** The states the withdrawal went through, with their times; the reason of a rejection or failure. */
function Timeline({ withdrawal }: { withdrawal: TAdminWithdrawal }) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const steps = withdrawal.steps.length
    ? withdrawal.steps
    : [{ status: withdrawal.status, at: withdrawal.createdAt }];
  const final = ['completed', 'rejected', 'failed'].includes(withdrawal.status);
  return (
    <ol className="fu-timeline">
      {steps.map((item, index) => (
        <li
          key={`${item.status}-${item.at}`}
          className={`fu-step fu-step-${item.status}${index === steps.length - 1 ? ' fu-step-current' : ''}`}
        >
          <span className="fu-step-dot" aria-hidden="true" />
          <div>
            <strong>{t(WITHDRAWAL_STATE_LABELS[item.status])}</strong>
            <span className="fu-muted">{format.dateTime(item.at)}</span>
            {item.status === 'rejected' && withdrawal.rejectReason ? (
              <span className="fu-reason" data-testid="drawer-reject-reason">
                {t('admin.funding.withdrawal.reason', { reason: withdrawal.rejectReason })}
              </span>
            ) : null}
            {item.status === 'failed' && withdrawal.failure ? (
              <span className="fu-reason">
                {t('admin.funding.withdrawal.reason', { reason: failureLabel(t, withdrawal.failure) })}
              </span>
            ) : null}
            {item.status === 'processing' && withdrawal.decidedBy && index === steps.length - 1 ? (
              <span className="fu-muted">
                {t('admin.funding.withdrawal.approvedBy', { name: withdrawal.decidedBy })}
              </span>
            ) : null}
          </div>
        </li>
      ))}
      {!final && withdrawal.expectedAt ? (
        <li className="fu-step fu-step-next">
          <span className="fu-step-dot" aria-hidden="true" />
          <div>
            <span className="fu-muted">
              {t('admin.funding.withdrawal.expected', { time: format.dateTime(withdrawal.expectedAt) })}
            </span>
          </div>
        </li>
      ) : null}
    </ol>
  );
}

function ReviewFooter({
  step,
  firstApprovedBy,
  onApprove,
  onReject,
}: {
  step: TFourEyes;
  firstApprovedBy: string | null;
  onApprove: () => void;
  onReject: () => void;
}) {
  const { t } = useI18n();
  return (
    <>
      {step === 'mine' ? (
        <span className="fu-foot-note" id="fu-mine-note" data-testid="drawer-mine">
          {t('admin.funding.fourEyes.mine')}
        </span>
      ) : step === 'second' && firstApprovedBy ? (
        <span className="fu-foot-note">
          {t('admin.funding.fourEyes.secondNote', { name: firstApprovedBy })}
        </span>
      ) : null}
      <button type="button" className="btn btn-secondary" onClick={onReject} data-testid="withdrawal-reject">
        {t('admin.funding.reject.button')}
      </button>
      <button
        type="button"
        className="btn btn-primary"
        onClick={onApprove}
        disabled={step === 'mine'}
        aria-describedby={step === 'mine' ? 'fu-mine-note' : undefined}
        data-testid="withdrawal-approve"
      >
        {step === 'first'
          ? t('admin.funding.approve.firstButton')
          : step === 'second'
            ? t('admin.funding.approve.secondButton')
            : t('admin.funding.approve.button')}
      </button>
    </>
  );
}

function ApproveDialog({
  withdrawal,
  step,
  onClose,
  onDone,
}: {
  withdrawal: TAdminWithdrawal;
  step: TFourEyes;
  onClose: () => void;
  onDone: (answer: TAdminWithdrawal) => void;
}) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const approve = useMutation('adminwithdrawapprove');
  const values = {
    amount: format.money(withdrawal.amount, withdrawal.accountCurrency),
    payout: format.money(withdrawal.payout, withdrawal.methodCurrency),
    name: withdrawal.customer.name || withdrawal.customer.email || '',
    first: withdrawal.firstApprovedBy ?? '',
  };
  return (
    <ConfirmDialog
      title={t(step === 'first' ? 'admin.funding.approve.firstTitle' : 'admin.funding.approve.title')}
      message={t('admin.funding.approve.text', values)}
      confirmLabel={t(
        step === 'first' ? 'admin.funding.approve.firstButton' : 'admin.funding.approve.confirm',
        values,
      )}
      pending={approve.pending}
      error={approve.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        const answer = await approve.run({ id: withdrawal.id });
        if (answer) onDone(answer);
      }}
    >
      <div className="fu-confirm-box" data-testid="approve-summary">
        <Facts
          items={[
            [
              t('admin.funding.field.amount'),
              <strong key="a" className="num">
                {values.amount}
              </strong>,
            ],
            [
              t('admin.funding.field.payout'),
              <span key="p" className="num">
                {values.payout}
              </span>,
            ],
            [t('admin.funding.field.destination'), <code key="d">{withdrawal.destinationFull}</code>],
          ]}
        />
      </div>
      {step === 'first' ? (
        <p className="fu-confirm-note fu-confirm-warn" data-testid="approve-first">
          {t('admin.funding.approve.firstNote')}
        </p>
      ) : step === 'second' ? (
        <p className="fu-confirm-note" data-testid="approve-second">
          {t('admin.funding.approve.secondNote', values)}
        </p>
      ) : (
        <p className="fu-confirm-note">{t('admin.funding.approve.note')}</p>
      )}
    </ConfirmDialog>
  );
}

function RejectDialog({
  withdrawal,
  onClose,
  onDone,
}: {
  withdrawal: TAdminWithdrawal;
  onClose: () => void;
  onDone: (answer: TAdminWithdrawal) => void;
}) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const reject = useMutation('adminwithdrawreject');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const amount = format.money(withdrawal.amount, withdrawal.accountCurrency);
  return (
    <ConfirmDialog
      title={t('admin.funding.reject.title')}
      message={t('admin.funding.reject.text', {
        amount,
        name: withdrawal.customer.name || withdrawal.customer.email || '',
      })}
      confirmLabel={t('admin.funding.reject.button')}
      danger
      pending={reject.pending}
      error={reject.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        setTouched(true);
        if (reviewReasonProblem(reason)) return;
        const answer = await reject.run({ id: withdrawal.id, reason: reason.trim() });
        if (answer) onDone(answer);
      }}
    >
      <ReasonField
        value={reason}
        onChange={setReason}
        showProblem={touched}
        label={t('admin.funding.reject.reason')}
        testId="reject-reason"
      />
    </ConfirmDialog>
  );
}

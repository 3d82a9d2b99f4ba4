import { useId, useState } from 'react';
import { useI18n } from '../../i18n';
import { ConfirmDialog } from '../../kit/Modal';
import { ReasonField } from '../../kit/ReasonField';
import { newIdempotencyKey, useMutation } from '../../kit/useApi';
import {
  KIND_LABELS,
  STOP_REASON_MAX,
  stopReasonProblem,
  type TAdminBot,
  type TStopChoice,
  useBotFormat,
} from './format';

/**
 * Asks before stopping a customer's bot: close its positions at the market or keep them (a bot that
 * kept them already can only have them closed), and a reason for the audit trail (required, at most
 * 60 characters, checked as the server checks it: nothing is sent until it fits). One idempotency
 * key per dialog, so a retry after a lost answer stops nothing twice.
 */
export function StopDialog({
  bot,
  choices,
  onClose,
  onDone,
}: {
  bot: TAdminBot;
  choices: readonly TStopChoice[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useI18n();
  const format = useBotFormat();
  const stop = useMutation('adminstrategystop');
  const [choice, setChoice] = useState<TStopChoice>(choices[0] ?? 'close');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [key] = useState(newIdempotencyKey);
  const name = useId();
  const values = {
    id: String(bot.strategy_id),
    customer: bot.customerName || bot.customerEmail || bot.userId,
    kind: t(KIND_LABELS[bot.kind]),
    symbol: bot.symbol,
    main: String(bot.parent_account_id),
    equity: format.money(bot.equity, bot.currency),
    positions: bot.openPositions,
  };
  return (
    <ConfirmDialog
      title={t('admin.strategies.stop.title', values)}
      message={t(
        bot.state === 'stopped_open' ? 'admin.strategies.stop.textKept' : 'admin.strategies.stop.text',
        values,
      )}
      confirmLabel={t(
        choice === 'keep' ? 'admin.strategies.stop.confirmKeep' : 'admin.strategies.stop.confirmClose',
      )}
      danger
      pending={stop.pending}
      error={stop.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        setTouched(true);
        if (stopReasonProblem(reason)) return;
        const answer = await stop.run({
          strategy_id: bot.strategy_id,
          closePositions: choice === 'close',
          reason: reason.trim(),
          idempotencyKey: key,
        });
        if (!answer) return;
        const done = answer.strategy;
        onDone(
          done.state === 'stopped_open'
            ? t('admin.strategies.stop.doneKept', { ...values, positions: done.openPositions })
            : Number(answer.returned) > 0
              ? t('admin.strategies.stop.doneReturned', {
                  ...values,
                  returned: format.money(answer.returned, done.currency),
                })
              : t('admin.strategies.stop.doneClosed', values),
        );
      }}
    >
      {choices.length > 1 ? (
        <fieldset className="sg-choices" data-testid="strategy-stop-choices">
          <legend className="field-label">{t('admin.strategies.stop.positions')}</legend>
          {choices.map((option) => (
            <label key={option} className="sg-choice">
              <input
                type="radio"
                name={name}
                value={option}
                checked={choice === option}
                onChange={() => setChoice(option)}
                data-testid={`strategy-stop-${option}`}
              />
              <span className="sg-choice-body">
                <strong>
                  {t(option === 'close' ? 'admin.strategies.stop.close' : 'admin.strategies.stop.keep')}
                </strong>
                <span className="sg-muted">
                  {t(
                    option === 'close' ? 'admin.strategies.stop.closeText' : 'admin.strategies.stop.keepText',
                    values,
                  )}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p className="sg-muted">{t('admin.strategies.stop.closeText', values)}</p>
      )}
      <ReasonField
        value={reason}
        onChange={setReason}
        showProblem={touched}
        problem={stopReasonProblem(reason)}
        max={STOP_REASON_MAX}
        label={t('admin.strategies.stop.reason')}
        words={{
          required: t('admin.strategies.reason.required'),
          tooLong: t('admin.strategies.reason.tooLong', { max: STOP_REASON_MAX }),
          hint: t('admin.strategies.reason.hint'),
          counter: (count, max) => t('admin.strategies.reason.counter', { count, max }),
        }}
        testIds={{
          input: 'strategy-reason',
          problem: 'strategy-reason-problem',
          counter: 'strategy-reason-counter',
        }}
      />
    </ConfirmDialog>
  );
}

import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import {
  formatAmount,
  fromMinor,
  minorOf,
  newIntentKey,
  parseAmountInput,
  toInputText,
} from '../../lib/money';
import { TRANSFERS, type TSubAccount } from './funding-actions-api';

export type TTransferDirection = 'out' | 'in';

/**
 * Moves money between a main account and one of its copy or strategy sub-accounts (spec 3, 4: the
 * four transfer types), only from free margin: the main account's usable margin going out, the
 * sub-account's transferable amount coming back. One idempotency key per intent, reused when the same
 * transfer is sent again after a lost answer.
 */
export function TransferDialog({
  main,
  freeMargin,
  subAccounts,
  initial,
  onDone,
  onClose,
}: {
  main: { account_id: number; currency: string };
  /** The main account's usable margin now (null while unknown). */
  freeMargin: string | null;
  subAccounts: TSubAccount[];
  initial: { subId: number; direction: TTransferDirection };
  onDone(message: string): void;
  onClose(): void;
}) {
  const { t, lang, intl } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [subId, setSubId] = useState(initial.subId);
  const [direction, setDirection] = useState<TTransferDirection>(initial.direction);
  const [amountText, setAmountText] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const attempt = useRef<{ intent: string; key: string } | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const sub = subAccounts.find((s) => s.account_id === subId) ?? subAccounts[0];
  if (!sub) return null;
  const type = TRANSFERS[sub.purpose][direction];
  const available =
    direction === 'out' ? (freeMargin === null ? null : minorOf(freeMargin)) : minorOf(sub.transferable);
  const parsed = parseAmountInput(amountText, intl);
  let problem: string | null = null;
  if (!parsed.ok) {
    if (touched || parsed.problem !== 'empty') problem = t(`funding.amount.${parsed.problem}`);
  } else if (parsed.minor <= 0n) problem = t('funding.amount.positive');
  else if (available !== null && parsed.minor > available)
    problem = t('funding.amount.aboveAvailable', { limit: formatAmount(intl, available, main.currency) });
  const shownError = fieldError ?? problem;
  const subName = (s: TSubAccount) => t(`accounts.sub.name.${s.purpose}`, { id: s.account_id });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.ok || problem || busy) return;
    const intent = JSON.stringify([type, main.account_id, sub.account_id, parsed.value]);
    if (attempt.current?.intent !== intent) attempt.current = { intent, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'transfer',
      {
        type,
        account_id: main.account_id,
        sub_account_id: sub.account_id,
        amount: parsed.value,
        idempotencyKey: attempt.current.key,
      },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      onDone(
        t(direction === 'out' ? 'accounts.transfer.doneOut' : 'accounts.transfer.doneIn', {
          amount: formatAmount(intl, parsed.value, main.currency),
          sub: subName(sub),
          main: main.account_id,
        }),
      );
      return;
    }
    if (answer.code !== 0) attempt.current = null;
    if (answer.fields?.amount) setFieldError(answer.fields.amount);
    setError(failureText(answer, t));
  };

  const edit = (change: () => void) => {
    change();
    setError(null);
    setFieldError(null);
  };

  return (
    <dialog
      ref={ref}
      className="st-dialog ac-dialog ac-transfer"
      aria-labelledby={`${id}-title`}
      data-testid="transfer-dialog"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <h2 id={`${id}-title`}>{t('accounts.transfer.title')}</h2>
        <div className="ac-dialog-body ac-transfer-body">
          <div className="field">
            <label className="field-label" htmlFor={`${id}-sub`}>
              {t('accounts.transfer.sub')}
            </label>
            <select
              id={`${id}-sub`}
              className="input"
              value={sub.account_id}
              onChange={(e) => edit(() => setSubId(Number(e.target.value)))}
              data-testid="transfer-sub"
            >
              {subAccounts.map((s) => (
                <option key={s.account_id} value={s.account_id}>
                  {subName(s)}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="ac-transfer-directions">
            <legend className="field-label">{t('accounts.transfer.direction')}</legend>
            {(['out', 'in'] as const).map((d) => (
              <label key={d} className="ac-transfer-direction" data-testid={`transfer-direction-${d}`}>
                <input
                  type="radio"
                  name="transfer-direction"
                  className="st-radio"
                  checked={direction === d}
                  onChange={() => edit(() => setDirection(d))}
                />
                <span>
                  <strong>{t(`funding.kind.${TRANSFERS[sub.purpose][d]}`)}</strong>
                  <span className="ac-muted">
                    {t(d === 'out' ? 'accounts.transfer.fromMain' : 'accounts.transfer.toMain', {
                      main: main.account_id,
                      sub: subName(sub),
                    })}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-amount`}>
              {t('funding.field.amountIn', { currency: main.currency })}
            </label>
            <div className="ac-amount">
              <input
                id={`${id}-amount`}
                className="input num"
                inputMode="decimal"
                autoComplete="off"
                value={amountText}
                aria-invalid={Boolean(shownError)}
                aria-describedby={`${id}-hint ${id}-error`}
                onChange={(e) => edit(() => setAmountText(e.target.value))}
                data-testid="transfer-amount"
              />
              {available !== null && available > 0n && (
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  onClick={() => edit(() => setAmountText(toInputText(fromMinor(available), intl)))}
                  data-testid="transfer-max"
                >
                  {t('funding.withdrawal.max')}
                </button>
              )}
            </div>
            <span className="ac-muted" id={`${id}-hint`}>
              {available === null
                ? t('funding.withdrawal.availableLoading')
                : t(
                    direction === 'out'
                      ? 'accounts.transfer.availableMain'
                      : 'accounts.transfer.availableSub',
                    {
                      amount: formatAmount(intl, available, main.currency),
                    },
                  )}
            </span>
            <span className="field-error" id={`${id}-error`} data-testid="transfer-amount-error">
              {shownError}
            </span>
          </div>
        </div>
        {error && (
          <div className="alert alert-error ac-dialog-error" role="alert" data-testid="transfer-error">
            {error}
          </div>
        )}
        <div className="st-dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            {t('accounts.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="transfer-confirm">
            {busy ? <span className="spinner st-spinner-sm" /> : t('accounts.transfer.confirm')}
          </button>
        </div>
      </form>
    </dialog>
  );
}

import { type FormEvent, useId, useState } from 'react';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { TRADE_TIME, useI18n } from '../../lib/i18n';

/** The server's rule for a funding password (ZFundPassword): 6 to 20 characters, no spaces, no Chinese. */
const FUND_PASSWORD = /^[^\s\u3400-\u9fff]{6,20}$/;

export function fundPasswordProblem(value: string): string | null {
  if (value.length < 6 || value.length > 20) return 'funding.password.length';
  if (!FUND_PASSWORD.test(value)) return 'funding.password.chars';
  return null;
}

function PasswordInput({
  label,
  value,
  onChange,
  error,
  autoComplete,
  testId,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  autoComplete: string;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="password"
        className="input"
        value={value}
        maxLength={64}
        autoComplete={autoComplete}
        aria-invalid={Boolean(error)}
        aria-describedby={`${id}-error`}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      <span className="field-error" id={`${id}-error`}>
        {error}
      </span>
    </div>
  );
}

/**
 * Sets the funding password (asked for every withdrawal), or changes it with the old one. A change
 * locks withdrawals for the broker's security period (spec 9); the answer says until when.
 */
export function FundPasswordForm({
  mode,
  onDone,
  onCancel,
}: {
  mode: 'set' | 'change';
  onDone(lockedUntil: string | null): void;
  onCancel?(): void;
}) {
  const { t, lang, formatDate } = useI18n();
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const next: Record<string, string> = {};
    if (mode === 'change' && !oldPassword) next.oldPassword = t('funding.password.required');
    const problem = fundPasswordProblem(password);
    if (problem) next.newPassword = t(problem);
    else if (mode === 'change' && password === oldPassword) next.newPassword = t('funding.password.same');
    if (!next.newPassword && confirm !== password) next.confirm = t('funding.password.mismatch');
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    const answer = await callRoute(
      'fundpassword',
      mode === 'change' ? { oldPassword, newPassword: password } : { newPassword: password },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      const until = answer.Data.withdrawLockedUntil;
      setDone(until);
      setOld('');
      setPassword('');
      setConfirm('');
      onDone(until);
      return;
    }
    const fields = answer.fields ?? {};
    setErrors({
      ...(fields.oldPassword ? { oldPassword: fields.oldPassword } : {}),
      ...(fields.newPassword ? { newPassword: fields.newPassword } : {}),
      form: failureText(answer, t),
    });
  };

  return (
    <form
      className="fu-password"
      onSubmit={(e) => void submit(e)}
      noValidate
      data-testid={`fund-password-${mode}`}
    >
      <p className="fu-note">
        {t(mode === 'set' ? 'funding.password.setText' : 'funding.password.changeText')}
      </p>
      {mode === 'change' && (
        <PasswordInput
          label={t('funding.password.old')}
          value={oldPassword}
          onChange={setOld}
          error={errors.oldPassword}
          autoComplete="current-password"
          testId="fund-password-old"
        />
      )}
      <div className="fu-pair">
        <PasswordInput
          label={t('funding.password.new')}
          value={password}
          onChange={setPassword}
          error={errors.newPassword}
          autoComplete="new-password"
          testId="fund-password-new"
        />
        <PasswordInput
          label={t('funding.password.confirm')}
          value={confirm}
          onChange={setConfirm}
          error={errors.confirm}
          autoComplete="new-password"
          testId="fund-password-confirm"
        />
      </div>
      <p className="fu-hint">{t('funding.password.rules')}</p>
      {errors.form && (
        <div className="alert alert-error" role="alert" data-testid="fund-password-error">
          {errors.form}
        </div>
      )}
      {done !== null && mode === 'change' && (
        <div className="alert alert-info" role="status">
          {t('funding.password.changed', { time: formatDate(new Date(done), TRADE_TIME) })}
        </div>
      )}
      <div className="fu-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="fund-password-save">
          {busy ? (
            <span className="spinner st-spinner-sm" />
          ) : (
            t(mode === 'set' ? 'funding.password.set' : 'funding.password.change')
          )}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            {t('accounts.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

import { checkPassword, type TPasswordProblem } from '@broker/domain/identity/credentials';
import { type FocusEvent, useId, useState } from 'react';
import { Icon } from '../../components/Icon';
import { PhoneField } from '../../components/PhoneField';
import { useI18n } from '../../lib/i18n';
import type { TIdentityTarget, TTargetMode } from './identity';
import type { TCodeForm } from './useCodeForm';
import type { TSendPhase } from './useSendCode';

/** Email or phone tabs with the matching field; `onLeave` runs when focus leaves the field. */
export function TargetFields({
  target,
  error,
  onModeChange,
  onEdit,
  onLeave,
}: {
  target: TIdentityTarget;
  error: string | undefined;
  onModeChange(mode: TTargetMode): void;
  onEdit(): void;
  onLeave(): void;
}) {
  const { t } = useI18n();
  const leave = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onLeave();
  };
  return (
    <>
      <div className="auth-tabs" role="group" aria-label={t('register.target')}>
        {(['email', 'phone'] as const).map((mode) => (
          <button
            key={mode}
            type="button"
            className="auth-tab"
            aria-pressed={target.mode === mode}
            data-testid={`target-${mode}`}
            onClick={() => {
              target.setMode(mode);
              onModeChange(mode);
            }}
          >
            {t(mode === 'email' ? 'login.byEmail' : 'login.byPhone')}
          </button>
        ))}
      </div>
      <div role="group" onBlur={leave}>
        {target.mode === 'phone' ? (
          <PhoneField
            label={t('login.phone')}
            value={target.phone}
            error={error}
            onChange={(value) => {
              target.setPhone(value);
              onEdit();
            }}
          />
        ) : (
          <label className="field">
            <span className="field-label">{t('login.email')}</span>
            <input
              className="input"
              type="email"
              name="email"
              autoComplete="username"
              value={target.email}
              aria-invalid={!!error}
              onChange={(e) => {
                target.setEmail(e.target.value);
                onEdit();
              }}
            />
            <span className="field-error" data-testid="target-error">
              {error}
            </span>
          </label>
        )}
      </div>
    </>
  );
}

/** A password input with a show/hide button. */
export function PasswordField({
  label,
  name,
  value,
  onChange,
  error,
  autoComplete = 'new-password',
  describedBy,
}: {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  autoComplete?: string;
  describedBy?: string;
}) {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <span className="input-affix">
        <input
          className="input"
          type={shown ? 'text' : 'password'}
          name={name}
          autoComplete={autoComplete}
          value={value}
          maxLength={64}
          aria-invalid={!!error}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
        />
        <button
          type="button"
          className="icon-button"
          aria-label={t(shown ? 'login.hide' : 'login.show')}
          onClick={() => setShown((v) => !v)}
        >
          <Icon name={shown ? 'eyeOff' : 'eye'} size={18} />
        </button>
      </span>
      <span className="field-error">{error}</span>
    </label>
  );
}

const RULES: { problem: TPasswordProblem; key: string }[] = [
  { problem: 'passwordLength', key: 'register.rule.length' },
  { problem: 'passwordChinese', key: 'register.rule.chinese' },
  { problem: 'passwordSpaces', key: 'register.rule.spaces' },
];

/** The spec 5 password rules, each ticked or crossed as the password is typed. */
export function PasswordRules({ id, password }: { id: string; password: string }) {
  const { t } = useI18n();
  const problems = checkPassword(password);
  return (
    <ul className="auth-rules" id={id} data-testid="password-rules" aria-live="polite">
      {RULES.map(({ problem, key }) => {
        const state = !password ? 'pending' : problems.includes(problem) ? 'bad' : 'ok';
        return (
          <li key={problem} data-state={state}>
            <Icon name={state === 'bad' ? 'close' : 'check'} size={14} />
            {t(key)}
          </li>
        );
      })}
    </ul>
  );
}

/** The 4-digit code with its send button: captcha work, sending, then the resend countdown. */
export function CodeField({
  value,
  onChange,
  error,
  phase,
  secondsLeft,
  sentTo,
  onSend,
}: {
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  phase: TSendPhase;
  secondsLeft: number;
  sentTo: string | null;
  onSend(): void;
}) {
  const { t } = useI18n();
  const inputId = useId();
  const busy = phase !== 'idle';
  return (
    <div className="field">
      <label className="field-label" htmlFor={inputId}>
        {t('register.code')}
      </label>
      <div className="auth-code-row">
        <input
          id={inputId}
          className="input num"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={4}
          placeholder="0000"
          value={value}
          aria-invalid={!!error}
          onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, 4))}
        />
        <button
          type="button"
          className="btn btn-secondary auth-send"
          disabled={busy || secondsLeft > 0}
          aria-busy={busy}
          data-testid="send-code"
          onClick={onSend}
        >
          {busy ? (
            <>
              <span className="spinner spinner-sm" />
              {t(phase === 'solving' ? 'register.code.checking' : 'register.code.sending')}
            </>
          ) : secondsLeft > 0 ? (
            t('register.code.wait', { seconds: secondsLeft })
          ) : (
            t(sentTo ? 'register.code.resend' : 'register.code.send')
          )}
        </button>
      </div>
      <span className={error ? 'field-error' : 'field-hint'} data-testid="code-message" aria-live="polite">
        {error ?? (sentTo ? t('register.code.sent', { to: sentTo }) : '')}
      </span>
    </div>
  );
}

/** Address, code and new password entered twice: the fields registration and reset share. */
export function CredentialFields({ form, passwordLabel }: { form: TCodeForm; passwordLabel: string }) {
  const { t } = useI18n();
  const rulesId = useId();
  return (
    <>
      <TargetFields
        target={form.target}
        error={form.errors.target}
        onModeChange={() => {
          form.editTarget();
          form.setErrors({});
        }}
        onEdit={form.editTarget}
        onLeave={() => void form.checkTarget()}
      />
      <CodeField
        value={form.code}
        onChange={form.setCode}
        error={form.errors.code}
        phase={form.sender.phase}
        secondsLeft={form.sender.secondsLeft}
        sentTo={form.sender.sentTo}
        onSend={() => void form.sendCode()}
      />
      <PasswordField
        label={passwordLabel}
        name="password"
        value={form.password}
        onChange={form.setPassword}
        error={form.errors.password}
        describedBy={rulesId}
      />
      <PasswordRules id={rulesId} password={form.password} />
      <PasswordField
        label={t('register.confirm')}
        name="confirmPassword"
        value={form.confirm}
        onChange={form.setConfirm}
        error={form.confirmError}
      />
    </>
  );
}

import { checkPassword } from '@broker/domain/identity/credentials';
import { type FormEvent, useId, useState } from 'react';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { useShell } from '../../lib/store';
import { SettingsCard } from './controls';
import { useSettingsCall } from './settings-api';

type TField = 'oldPassword' | 'password' | 'confirmPassword';
type TErrors = Partial<Record<TField | 'form', string>>;

/**
 * Change password (spec 5 rules). Every session ends on success, this one too. `login` (email or
 * phone) goes into a hidden field so password managers know whose password changes.
 */
export function PasswordCard({ login }: { login: string }) {
  const { t, lang } = useI18n();
  const shell = useShell();
  const call = useSettingsCall();
  const [values, setValues] = useState<Record<TField, string>>({
    oldPassword: '',
    password: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<TErrors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: TErrors = {};
    if (!values.oldPassword) next.oldPassword = t('validation.required');
    for (const problem of checkPassword(values.password, {
      confirm: values.confirmPassword,
      old: values.oldPassword,
    })) {
      const field = problem === 'passwordMismatch' ? 'confirmPassword' : 'password';
      next[field] ??= t(`validation.${problem}`);
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    const answer = await call('changepassword', values);
    setBusy(false);
    if (answer.succeed) {
      // The server has ended every session and cleared this one's cookies.
      shell.clear();
      setDone(true);
      return;
    }
    const fields = answer.fields ?? {};
    setErrors({
      ...fields,
      ...(Object.keys(fields).length ? {} : { form: failureText(answer, t) }),
    });
  };

  if (done) {
    return (
      <SettingsCard title={t('settings.password.title')} testId="password-card">
        <div className="st-done" role="status" data-testid="password-changed">
          <div className="empty-state-icon success">
            <Icon name="check" size={26} />
          </div>
          <h3>{t('settings.password.doneTitle')}</h3>
          <p>{t('settings.password.doneText')}</p>
          <a className="btn btn-primary" href={paths.login(lang, paths.settings(lang, 'security'))}>
            {t('settings.password.signIn')}
          </a>
        </div>
      </SettingsCard>
    );
  }

  const field = (name: TField, label: string, autoComplete: string) => (
    <PasswordField
      name={name}
      label={label}
      autoComplete={autoComplete}
      value={values[name]}
      error={errors[name]}
      onChange={(value) => setValues((v) => ({ ...v, [name]: value }))}
    />
  );

  return (
    <SettingsCard
      title={t('settings.password.title')}
      text={t('settings.password.text')}
      testId="password-card"
    >
      <form className="st-form" onSubmit={submit} noValidate>
        {errors.form && (
          <div className="alert alert-error" role="alert">
            {errors.form}
          </div>
        )}
        <input type="text" name="username" autoComplete="username" value={login} readOnly hidden />
        {field('oldPassword', t('settings.password.old'), 'current-password')}
        <div className="st-form-pair">
          {field('password', t('settings.password.new'), 'new-password')}
          {field('confirmPassword', t('settings.password.repeat'), 'new-password')}
        </div>
        <div className="st-form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="password-submit">
            {busy ? <span className="spinner" /> : t('settings.password.submit')}
          </button>
        </div>
      </form>
    </SettingsCard>
  );
}

function PasswordField({
  name,
  label,
  autoComplete,
  value,
  error,
  onChange,
}: {
  name: string;
  label: string;
  autoComplete: string;
  value: string;
  error: string | undefined;
  onChange(value: string): void;
}) {
  const { t } = useI18n();
  const [visible, setVisible] = useState(false);
  const errorId = useId();
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <span className="input-affix">
        <input
          className="input"
          type={visible ? 'text' : 'password'}
          name={name}
          autoComplete={autoComplete}
          maxLength={64}
          value={value}
          aria-invalid={!!error}
          aria-describedby={errorId}
          onChange={(e) => onChange(e.target.value)}
        />
        <button
          type="button"
          className="icon-button"
          aria-label={t(visible ? 'login.hide' : 'login.show')}
          onClick={() => setVisible((v) => !v)}
        >
          <Icon name={visible ? 'eyeOff' : 'eye'} size={18} />
        </button>
      </span>
      <span className="field-error" id={errorId}>
        {error}
      </span>
    </label>
  );
}

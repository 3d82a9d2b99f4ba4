import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { useI18n } from '../../lib/i18n';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Only same-site paths under a language are accepted as return addresses. */
export function safeRedirect(value: string | null, lang: string): string {
  if (value && /^\/[A-Za-z-]{2,5}(\/[^\s]*)?$/.test(value) && !value.startsWith('//')) return value;
  return paths.personalCenter(lang, 'account');
}

export function Component() {
  const { t, lang } = useI18n();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const redirect = params.get('redirect');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!EMAIL.test(email.trim())) next.email = t('validation.email');
    if (!password) next.password = t('validation.required');
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    const answer = await callRoute('login', { email: email.trim(), password }, lang);
    setBusy(false);
    if (answer.succeed) {
      window.location.assign(safeRedirect(redirect, lang));
      return;
    }
    setErrors({ ...(answer.fields ?? {}), form: answer.message || t(answer.messageKey ?? 'errors.network') });
  };

  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>{t('login.title')}</h1>
        <p className="auth-sub">{redirect ? t('login.needed') : t('login.subtitle')}</p>
        {errors.form && (
          <div className="alert alert-error" role="alert" data-testid="login-error">
            {errors.form}
          </div>
        )}
        <form onSubmit={submit} noValidate className="auth-form">
          <label className="field">
            <span className="field-label">{t('login.email')}</span>
            <input
              className="input"
              type="email"
              name="email"
              autoComplete="username"
              value={email}
              aria-invalid={!!errors.email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <span className="field-error">{errors.email}</span>
          </label>
          <label className="field">
            <span className="field-label">{t('login.password')}</span>
            <span className="input-affix">
              <input
                className="input"
                type={showPassword ? 'text' : 'password'}
                name="password"
                autoComplete="current-password"
                value={password}
                aria-invalid={!!errors.password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={t(showPassword ? 'login.hide' : 'login.show')}
                onClick={() => setShowPassword((v) => !v)}
              >
                <Icon name={showPassword ? 'eyeOff' : 'eye'} size={18} />
              </button>
            </span>
            <span className="field-error">{errors.password}</span>
          </label>
          <button
            type="submit"
            className="btn btn-primary btn-lg btn-block"
            disabled={busy}
            data-testid="login-submit"
          >
            {busy ? <span className="spinner" /> : t('login.submit')}
          </button>
        </form>
        <p className="auth-foot">
          {t('login.qrPrompt')} <Link to={paths.qrcode(lang)}>{t('qr.title')}</Link>
        </p>
      </div>
    </section>
  );
}

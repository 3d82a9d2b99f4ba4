import './auth.css';
import { AppErrorCode } from '@broker/domain/result-codes';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { PhoneField, type TPhoneValue } from '../../components/PhoneField';
import { callRoute } from '../../lib/api';
import { adoptTraderAppearance } from '../../lib/appearance';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { DEFAULT_REGION, EMAIL, PHONE } from './identity';
import { safeRedirect } from './redirect';
import { UnionButtons, UnionError } from './UnionButtons';

export function Component() {
  const { t, lang } = useI18n();
  const [params] = useSearchParams();
  const [mode, setMode] = useState<'email' | 'phone'>('email');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState<TPhoneValue>({ twoCharCode: DEFAULT_REGION[lang] ?? 'US', number: '' });
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<{
    email?: string;
    phone?: string;
    password?: string;
    otp?: string;
    form?: string;
  }>({});
  // The authenticator code, asked for once the server says the account has two-factor sign-in.
  const [otp, setOtp] = useState<string | null>(null);
  const otpInput = useRef<HTMLInputElement>(null);
  const asksCode = otp !== null;
  useEffect(() => {
    if (asksCode) otpInput.current?.focus();
  }, [asksCode]);
  const [busy, setBusy] = useState(false);
  const redirect = params.get('redirect');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (mode === 'email' && !EMAIL.test(email.trim())) next.email = t('validation.email');
    if (mode === 'phone' && !PHONE.test(phone.number.trim())) next.phone = t('validation.phone');
    if (!password) next.password = t('validation.required');
    if (otp !== null && !/^\d{6}$/.test(otp)) next.otp = t('validation.otpFormat');
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    const code = otp === null ? {} : { otp };
    const answer = await callRoute(
      'login',
      mode === 'email'
        ? { email: email.trim(), password, ...code }
        : { phone: { ...phone, number: phone.number.trim() }, password, ...code },
      lang,
    );
    if (answer.succeed) {
      // The trader's theme and kline colour into the cookies, so the next page renders with them.
      await adoptTraderAppearance(lang);
      window.location.assign(safeRedirect(redirect, lang));
      return;
    }
    setBusy(false);
    if (
      answer.ErrorCode === AppErrorCode.TWO_FACTOR_REQUIRED ||
      answer.ErrorCode === AppErrorCode.TWO_FACTOR_WRONG
    ) {
      setErrors(otp === null ? {} : { otp: failureText(answer, t) });
      setOtp((value) => value ?? '');
      return;
    }
    const fields = answer.fields ?? {};
    setErrors({
      ...(fields.email ? { email: fields.email } : {}),
      ...(fields.password ? { password: fields.password } : {}),
      ...(answer.ErrorCode === -1005 ? { phone: answer.message } : { form: failureText(answer, t) }),
    });
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
        <UnionError />
        <form method="post" onSubmit={submit} noValidate className="auth-form">
          <div className="auth-tabs" role="group" aria-label={t('login.title')}>
            {(['email', 'phone'] as const).map((m) => (
              <button
                key={m}
                type="button"
                className="auth-tab"
                aria-pressed={mode === m}
                data-testid={`login-mode-${m}`}
                onClick={() => {
                  setMode(m);
                  setErrors({});
                  setOtp(null);
                }}
              >
                {t(m === 'email' ? 'login.byEmail' : 'login.byPhone')}
              </button>
            ))}
          </div>
          {mode === 'phone' ? (
            <PhoneField label={t('login.phone')} value={phone} onChange={setPhone} error={errors.phone} />
          ) : (
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
          )}
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
          {otp !== null && (
            <label className="field">
              <span className="field-label">{t('settings.twoFactor.confirm')}</span>
              <input
                ref={otpInput}
                className="input num"
                name="otp"
                inputMode="numeric"
                autoComplete="one-time-code"
                placeholder={t('settings.twoFactor.codePlaceholder')}
                maxLength={6}
                value={otp}
                aria-invalid={!!errors.otp}
                data-testid="login-otp"
                onChange={(e) => setOtp(e.target.value.replace(/\D/g, ''))}
              />
              <span className="field-error">{errors.otp}</span>
            </label>
          )}
          <Link to={paths.forgotPassword(lang)} className="auth-forgot" data-testid="to-reset">
            {t('reset.link')}
          </Link>
          <button
            type="submit"
            className="btn btn-primary btn-lg btn-block"
            disabled={busy}
            data-testid="login-submit"
          >
            {busy ? <span className="spinner" /> : t('login.submit')}
          </button>
        </form>
        <UnionButtons redirect={redirect} />
        <Link
          to={`${paths.qrcode(lang)}${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`}
          className="btn btn-secondary btn-block auth-qr-link"
          data-testid="to-qr"
        >
          <Icon name="qr" size={18} />
          {t('qr.login.link')}
        </Link>
        <p className="auth-foot">
          {t('register.prompt')}{' '}
          <Link to={paths.register(lang, redirect ?? undefined)} data-testid="to-register">
            {t('register.link')}
          </Link>
        </p>
      </div>
    </section>
  );
}

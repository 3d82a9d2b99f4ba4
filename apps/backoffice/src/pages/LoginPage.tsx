import { STAFF_PASSWORD_MAX_LENGTH } from '@broker/domain/staff-credentials';
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { callApi } from '../api';
import {
  EnrolmentStep,
  OtpStep,
  TWO_FACTOR_REQUIRED,
  TWO_FACTOR_SETUP_REQUIRED,
} from '../areas/access/SignInSteps';
import { BrandMark, Icon } from '../components/Icon';
import { LanguageSwitch, ThemeSwitch } from '../components/Switches';
import { useDocumentTitle, useI18n } from '../i18n';
import { ApiError } from '../lib/api';
import { safeRedirect } from '../lib/redirect';
import { type TSignInProblems, validateSignIn } from '../lib/validation';
import { useSession } from '../session';

type TField = 'username' | 'password';

export function LoginPage() {
  const { t } = useI18n();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  useDocumentTitle(t('admin.login.pageTitle'));

  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  const [touched, setTouched] = useState<Record<TField, boolean>>({ username: false, password: false });
  const [serverFields, setServerFields] = useState<Partial<Record<TField, string>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** After a right password: the authenticator code, or setting up two-factor first. */
  const [step, setStep] = useState<'credentials' | 'otp' | 'enrol'>('credentials');
  const [otpError, setOtpError] = useState<string | null>(null);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const id = useId();

  if (session.state.status === 'ready') return <Navigate to={target} replace />;

  const problems: TSignInProblems = validateSignIn({ username, password });
  const fieldError = (field: TField): string | null => {
    if (serverFields[field]) return serverFields[field] ?? null;
    const problem = touched[field] ? problems[field] : undefined;
    return problem ? t(problem.key, problem.values) : null;
  };

  const notice =
    session.state.status === 'anonymous' && session.state.reason === 'expired'
      ? t('admin.login.sessionExpired')
      : session.state.status === 'anonymous' && session.state.reason === 'signedOut'
        ? t('admin.login.signedOut')
        : null;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setTouched({ username: true, password: true });
    setServerFields({});
    setAlert(null);
    if (problems.username || problems.password) {
      (problems.username ? usernameRef : passwordRef).current?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await callApi('adminlogin', { username: username.trim(), password });
      session.signedIn(answer);
      navigate(target, { replace: true });
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.errorCode === TWO_FACTOR_REQUIRED) {
        setOtpError(null);
        setStep('otp');
      } else if (error instanceof ApiError && error.errorCode === TWO_FACTOR_SETUP_REQUIRED) {
        setStep('enrol');
      } else if (error instanceof ApiError && error.kind === 'answer') {
        const { username: u, password: p, ...rest } = error.fields;
        setServerFields({ ...(u ? { username: u } : {}), ...(p ? { password: p } : {}) });
        const extra = Object.values(rest);
        setAlert([error.message, ...extra].join(' '));
        if (u) usernameRef.current?.focus();
        else passwordRef.current?.focus();
      } else if (error instanceof ApiError && error.kind === 'network') {
        setAlert(t('admin.errors.network'));
      } else {
        setAlert(t('admin.errors.unexpected'));
      }
    }
  };

  const onOtp = async (otp: string) => {
    setBusy(true);
    setOtpError(null);
    try {
      const answer = await callApi('adminlogin', { username: username.trim(), password, otp });
      session.signedIn(answer);
      navigate(target, { replace: true });
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.kind === 'answer' && error.errorCode !== -1017) {
        // Locked out or the password no longer matches: back to the first step with the reason.
        setStep('credentials');
        setAlert(error.message);
      } else if (error instanceof ApiError && error.kind === 'answer') setOtpError(error.message);
      else
        setOtpError(
          t(
            error instanceof ApiError && error.kind === 'network'
              ? 'admin.errors.network'
              : 'admin.errors.unexpected',
          ),
        );
    }
  };

  const backToCredentials = () => {
    setStep('credentials');
    setPassword('');
    setBusy(false);
  };

  const onPasswordKey = (event: KeyboardEvent<HTMLInputElement>) => {
    setCapsLock(event.getModifierState?.('CapsLock') ?? false);
  };

  const usernameError = fieldError('username');
  const passwordError = fieldError('password');

  return (
    <div className="bo-login">
      <aside className="bo-login-aside">
        <div className="bo-login-brand">
          <BrandMark size={36} />
          <div>
            <strong>{t('admin.app.brand')}</strong>
            <span>{t('admin.app.product')}</span>
          </div>
        </div>
        <div className="bo-login-pitch">
          <span className="bo-eyebrow">{t('admin.login.heroEyebrow')}</span>
          <h2>{t('admin.login.heroTitle')}</h2>
          <p>{t('admin.login.heroText')}</p>
          <ul>
            {(
              [
                ['users', 'admin.login.feature.clients'],
                ['shield', 'admin.login.feature.roles'],
                ['history', 'admin.login.feature.audit'],
              ] as const
            ).map(([icon, key]) => (
              <li key={key}>
                <span className="bo-login-feature-icon">
                  <Icon name={icon} size={16} />
                </span>
                {t(key)}
              </li>
            ))}
          </ul>
        </div>
        <p className="bo-login-legal">
          {t('admin.login.footer', { year: String(new Date().getFullYear()) })}
        </p>
      </aside>

      <main className="bo-login-main">
        <div className="bo-login-toolbar">
          <div className="bo-login-brand bo-only-mobile">
            <BrandMark size={30} />
            <div>
              <strong>{t('admin.app.brand')}</strong>
              <span>{t('admin.app.product')}</span>
            </div>
          </div>
          <div className="bo-login-switches">
            <LanguageSwitch />
            <ThemeSwitch />
          </div>
        </div>

        <div className="bo-login-panel">
          <div className="bo-login-head">
            <h1>{t('admin.login.title')}</h1>
            <p>{t('admin.login.subtitle')}</p>
          </div>

          {notice && !alert && step === 'credentials' ? (
            <div className="alert alert-info bo-alert" role="status">
              <Icon name="info" size={16} className="bo-alert-icon" />
              <span>{notice}</span>
            </div>
          ) : null}
          {alert ? (
            <div className="alert alert-error bo-alert" role="alert">
              <Icon name="alert" size={16} className="bo-alert-icon" />
              <span>{alert}</span>
            </div>
          ) : null}

          {step === 'otp' ? (
            <OtpStep busy={busy} error={otpError} onSubmit={onOtp} onBack={backToCredentials} />
          ) : null}
          {step === 'enrol' ? (
            <EnrolmentStep
              onSignedIn={(answer) => {
                session.signedIn(answer);
                navigate(target, { replace: true });
              }}
              onBack={backToCredentials}
            />
          ) : null}
          {step === 'credentials' ? (
            <form className="bo-login-form" onSubmit={onSubmit} noValidate aria-busy={busy}>
              <div className="field">
                <label className="field-label" htmlFor={`${id}-username`}>
                  {t('admin.login.username')}
                </label>
                <div className="bo-input-wrap">
                  <Icon name="user" size={16} className="bo-input-icon" />
                  <input
                    ref={usernameRef}
                    id={`${id}-username`}
                    name="username"
                    className="input bo-input"
                    autoComplete="username"
                    autoCapitalize="none"
                    autoCorrect="off"
                    spellCheck={false}
                    maxLength={32}
                    // biome-ignore lint/a11y/noAutofocus: the sign-in page has one purpose
                    autoFocus
                    placeholder={t('admin.login.usernamePlaceholder')}
                    value={username}
                    aria-invalid={usernameError ? true : undefined}
                    aria-describedby={`${id}-username-error`}
                    onChange={(e) => {
                      setUsername(e.target.value);
                      setServerFields(({ username: _, ...rest }) => rest);
                    }}
                    onBlur={() => setTouched((v) => ({ ...v, username: username !== '' || v.username }))}
                  />
                </div>
                <div className="field-error" id={`${id}-username-error`} aria-live="polite">
                  {usernameError}
                </div>
              </div>

              <div className="field">
                <label className="field-label" htmlFor={`${id}-password`}>
                  {t('admin.login.password')}
                </label>
                <div className="bo-input-wrap">
                  <Icon name="lock" size={16} className="bo-input-icon" />
                  <input
                    ref={passwordRef}
                    id={`${id}-password`}
                    name="password"
                    className="input bo-input bo-input-trailing"
                    type={showPassword ? 'text' : 'password'}
                    autoComplete="current-password"
                    maxLength={STAFF_PASSWORD_MAX_LENGTH}
                    placeholder={t('admin.login.passwordPlaceholder')}
                    value={password}
                    aria-invalid={passwordError ? true : undefined}
                    aria-describedby={`${id}-password-error`}
                    onChange={(e) => {
                      setPassword(e.target.value);
                      setServerFields(({ password: _, ...rest }) => rest);
                    }}
                    onKeyDown={onPasswordKey}
                    onKeyUp={onPasswordKey}
                    onBlur={() => {
                      setCapsLock(false);
                      setTouched((v) => ({ ...v, password: password !== '' || v.password }));
                    }}
                  />
                  <button
                    type="button"
                    className="bo-input-toggle"
                    onClick={() => setShowPassword((v) => !v)}
                    aria-label={showPassword ? t('admin.login.hidePassword') : t('admin.login.showPassword')}
                    title={showPassword ? t('admin.login.hidePassword') : t('admin.login.showPassword')}
                    aria-pressed={showPassword}
                    aria-controls={`${id}-password`}
                  >
                    <Icon name={showPassword ? 'eyeOff' : 'eye'} size={18} />
                  </button>
                </div>
                <div className="field-error" id={`${id}-password-error`} aria-live="polite">
                  {passwordError ??
                    (capsLock ? <span className="bo-capslock">{t('admin.login.capsLock')}</span> : null)}
                </div>
              </div>

              <button type="submit" className="btn btn-primary btn-lg btn-block" disabled={busy}>
                {busy ? <span className="spinner bo-spinner-on-brand" aria-hidden="true" /> : null}
                {busy ? t('admin.login.submitting') : t('admin.login.submit')}
              </button>
            </form>
          ) : null}
        </div>

        <p className="bo-login-legal bo-only-mobile">
          {t('admin.login.footer', { year: String(new Date().getFullYear()) })}
        </p>
      </main>
    </div>
  );
}

import type { TRouteOutput } from '@broker/contracts/routes';
import { type FormEvent, useEffect, useState } from 'react';
import { callApi } from '../../api';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { ApiError } from '../../lib/api';
import { CodeField, TotpSetup, useFailureText } from './ui';

/** Result codes the sign-in page turns into a further step. */
export const TWO_FACTOR_REQUIRED = -1016;
export const TWO_FACTOR_SETUP_REQUIRED = -6007;

/** The second sign-in step for staff with two-factor on: the six-digit code from their app. */
export function OtpStep({
  busy,
  error,
  onSubmit,
  onBack,
}: {
  busy: boolean;
  error: string | null;
  onSubmit: (code: string) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (/^\d{6}$/.test(code) && !busy) onSubmit(code);
  };
  return (
    <form className="bo-login-form" onSubmit={submit} noValidate aria-busy={busy} data-testid="otp-step">
      <p className="ac-step-text">
        <Icon name="shield" size={16} />
        {t('admin.access.signin.otpText')}
      </p>
      <CodeField
        label={t('admin.access.totp.code')}
        value={code}
        onChange={setCode}
        error={error}
        autoFocus
      />
      <button
        type="submit"
        className="btn btn-primary btn-lg btn-block"
        disabled={busy || !/^\d{6}$/.test(code)}
      >
        {busy ? <span className="spinner bo-spinner-on-brand" aria-hidden="true" /> : null}
        {t('admin.access.signin.verify')}
      </button>
      <button type="button" className="btn btn-ghost btn-block" onClick={onBack}>
        {t('admin.access.signin.back')}
      </button>
    </form>
  );
}

type TEnrolment = TRouteOutput<'adminenrolstart'>;

/**
 * For staff whose roles move money and who have no two-factor yet: after the right password the
 * server holds a short-lived enrolment; this step sets up the app and confirms the first code,
 * which opens the session.
 */
export function EnrolmentStep({
  onSignedIn,
  onBack,
}: {
  onSignedIn: (answer: TRouteOutput<'adminenrolconfirm'>) => void;
  onBack: () => void;
}) {
  const { t, intl } = useI18n();
  const failure = useFailureText();
  const [enrolment, setEnrolment] = useState<TEnrolment | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    callApi('adminenrolstart', {}).then(
      (answer) => {
        if (live) setEnrolment(answer);
      },
      (e: unknown) => {
        if (live) setLoadError(e instanceof ApiError ? failure(e) : t('admin.errors.unexpected'));
      },
    );
    return () => {
      live = false;
    };
  }, [failure, t]);

  const confirm = async (code: string) => {
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await callApi('adminenrolconfirm', { code }));
    } catch (e) {
      setBusy(false);
      setError(e instanceof ApiError ? failure(e) : t('admin.errors.unexpected'));
    }
  };

  const until = enrolment
    ? new Intl.DateTimeFormat(intl, { timeStyle: 'short' }).format(new Date(enrolment.expiresAt))
    : '';

  return (
    <div className="bo-login-form" data-testid="enrolment-step">
      <div className="alert alert-info bo-alert" role="status">
        <Icon name="shield" size={16} className="bo-alert-icon" />
        <span>{t('admin.access.signin.enrolText')}</span>
      </div>
      {loadError ? (
        <p className="kit-error" role="alert">
          {loadError}
        </p>
      ) : null}
      {enrolment ? (
        <>
          <TotpSetup
            secret={enrolment.secret}
            otpauthUrl={enrolment.otpauthUrl}
            busy={busy}
            error={error}
            onConfirm={confirm}
            confirmLabel={t('admin.access.signin.enrolConfirm')}
          />
          <p className="kit-hint">{t('admin.access.signin.enrolUntil', { time: until })}</p>
        </>
      ) : !loadError ? (
        <div className="ac-qr ac-qr-loading" aria-busy="true" />
      ) : null}
      <button type="button" className="btn btn-ghost btn-block" onClick={onBack}>
        {t('admin.access.signin.back')}
      </button>
    </div>
  );
}

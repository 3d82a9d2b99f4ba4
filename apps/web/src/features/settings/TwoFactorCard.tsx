import { type FormEvent, useEffect, useId, useState } from 'react';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { SettingsCard } from './controls';
import { groupSecret, type TAccountLoad, useSettingsCall } from './settings-api';

type TState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'off' }
  | { status: 'enrolling'; secret: string; qrSvg: string | null }
  | { status: 'on' };

const OTP = /^\d{6}$/;

/** Two-factor sign-in with an authenticator app (TOTP): set up with a QR code, turn off with a code. */
export function TwoFactorCard({ account, onRetry }: { account: TAccountLoad; onRetry(): void }) {
  const { t } = useI18n();
  const call = useSettingsCall();
  const [state, setState] = useState<TState>({ status: 'loading' });
  const [notice, setNotice] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);

  useEffect(() => {
    if (account.status === 'loading') setState({ status: 'loading' });
    else if (account.status === 'failed') setState({ status: 'failed', message: account.message });
    else setState({ status: account.account.twoFactor ? 'on' : 'off' });
  }, [account]);

  const start = async () => {
    setStarting(true);
    setNotice(null);
    setStartError(null);
    const answer = await call('totpsetup', {});
    setStarting(false);
    if (!answer.succeed || !answer.Data) {
      setStartError(failureText(answer, t));
      return;
    }
    const { secret, otpauthUrl } = answer.Data;
    setState({ status: 'enrolling', secret, qrSvg: null });
    const QRCode = await import('qrcode');
    const qrSvg = await QRCode.toString(otpauthUrl, {
      type: 'svg',
      margin: 1,
      errorCorrectionLevel: 'M',
      color: { dark: '#0b1530', light: '#ffffff' },
    });
    setState((s) => (s.status === 'enrolling' && s.secret === secret ? { ...s, qrSvg } : s));
  };

  const badge =
    state.status === 'on' ? (
      <span className="badge st-badge-on" data-testid="two-factor-state">
        {t('settings.twoFactor.on')}
      </span>
    ) : state.status === 'off' || state.status === 'enrolling' ? (
      <span className="badge" data-testid="two-factor-state">
        {t('settings.twoFactor.off')}
      </span>
    ) : null;

  return (
    <SettingsCard
      title={t('settings.twoFactor.title')}
      text={t('settings.twoFactor.text')}
      aside={badge}
      testId="two-factor-card"
    >
      {notice && (
        <div className="alert alert-info st-alert" role="status">
          {notice}
        </div>
      )}
      {state.status === 'loading' && <div className="skeleton st-skeleton-row" aria-busy="true" />}
      {state.status === 'failed' && (
        <div className="st-inline-error" role="alert">
          <span>{state.message}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {state.status === 'off' && (
        <div className="st-form-actions st-start">
          {startError && (
            <div className="alert alert-error" role="alert">
              {startError}
            </div>
          )}
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void start()}
            disabled={starting}
            data-testid="two-factor-setup"
          >
            {starting ? <span className="spinner" /> : t('settings.twoFactor.setUp')}
          </button>
        </div>
      )}
      {state.status === 'enrolling' && (
        <div className="st-enrol" data-testid="two-factor-enrol">
          <div className="st-qr">
            {state.qrSvg ? (
              <div
                className="st-qr-svg"
                role="img"
                aria-label={t('settings.twoFactor.qrAlt')}
                data-testid="two-factor-qr"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG produced locally by the qrcode library
                dangerouslySetInnerHTML={{ __html: state.qrSvg }}
              />
            ) : (
              <div className="st-qr-svg skeleton" />
            )}
          </div>
          <div className="st-enrol-steps">
            <p>{t('settings.twoFactor.scan')}</p>
            <SecretKey secret={state.secret} />
            <CodeForm
              label={t('settings.twoFactor.confirm')}
              submitLabel={t('settings.twoFactor.enable')}
              testId="two-factor-enable"
              onCancel={() => setState({ status: 'off' })}
              onSubmit={async (code) => {
                const answer = await call('totpenable', { code });
                if (!answer.succeed) return failureText(answer, t);
                setState({ status: 'on' });
                setNotice(t('settings.twoFactor.enabled'));
                return null;
              }}
            />
          </div>
        </div>
      )}
      {state.status === 'on' && (
        <CodeForm
          label={t('settings.twoFactor.disableText')}
          submitLabel={t('settings.twoFactor.disable')}
          testId="two-factor-disable"
          danger
          onSubmit={async (code) => {
            const answer = await call('totpdisable', { code });
            if (!answer.succeed) return failureText(answer, t);
            setState({ status: 'off' });
            setNotice(t('settings.twoFactor.disabled'));
            return null;
          }}
        />
      )}
    </SettingsCard>
  );
}

function SecretKey({ secret }: { secret: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <div className="st-secret">
      <span className="field-label">{t('settings.twoFactor.manual')}</span>
      <div className="st-secret-row">
        <code className="st-secret-value" data-testid="two-factor-secret" data-secret={secret}>
          {groupSecret(secret)}
        </code>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
          }}
        >
          <Icon name={copied ? 'check' : 'doc'} size={14} />
          {t(copied ? 'settings.twoFactor.copied' : 'settings.twoFactor.copy')}
        </button>
      </div>
    </div>
  );
}

/** A 6-digit code from the authenticator app; `onSubmit` answers an error text or null. */
function CodeForm({
  label,
  submitLabel,
  testId,
  danger,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  testId: string;
  danger?: boolean;
  onSubmit(code: string): Promise<string | null>;
  onCancel?(): void;
}) {
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!OTP.test(code)) {
      setError(t('validation.otpFormat'));
      return;
    }
    setBusy(true);
    setError(await onSubmit(code));
    setBusy(false);
  };

  return (
    <form className="st-code-form" onSubmit={submit} noValidate data-testid={testId}>
      <label className="field">
        <span className="field-label">{label}</span>
        <input
          className="input st-code-input num"
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder={t('settings.twoFactor.codePlaceholder')}
          maxLength={6}
          value={code}
          aria-invalid={!!error}
          aria-describedby={errorId}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        />
        <span className="field-error" id={errorId}>
          {error}
        </span>
      </label>
      <div className="st-form-actions">
        <button
          type="submit"
          className={`btn ${danger ? 'btn-secondary st-danger-outline' : 'btn-primary'}`}
          disabled={busy}
          data-testid={`${testId}-submit`}
        >
          {busy ? <span className="spinner" /> : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
            {t('settings.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

import { STAFF_PASSWORD_MAX_LENGTH } from '@broker/domain/staff-credentials';
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { failureText } from '../../lib/failure-text';
import { passwordStrength } from './password-strength';
import './access.css';

const STRENGTH_KEYS = [
  'admin.access.strength.veryWeak',
  'admin.access.strength.weak',
  'admin.access.strength.fair',
  'admin.access.strength.strong',
  'admin.access.strength.veryStrong',
] as const;

/** A live strength meter (entropy estimate) with the broker's minimum length as a checklist line. */
export function StrengthMeter({ password, minLength }: { password: string; minLength: number }) {
  const { t } = useI18n();
  const strength = passwordStrength(password);
  const longEnough = [...password].length >= minLength;
  return (
    <div className="ac-strength" data-strength={password ? strength : 'none'} data-testid="strength-meter">
      <div className="ac-strength-bar" aria-hidden="true">
        {[0, 1, 2, 3].map((n) => (
          <span key={n} className={password && strength > n ? 'ac-on' : undefined} />
        ))}
      </div>
      <div className="ac-strength-text" aria-live="polite">
        <span>{password ? t(STRENGTH_KEYS[strength]) : t('admin.access.strength.empty')}</span>
        <span className={longEnough ? 'kit-up' : 'ac-muted'}>
          <Icon name={longEnough ? 'check' : 'info'} size={13} />
          {t('admin.access.strength.min', { min: minLength })}
        </span>
      </div>
    </div>
  );
}

/** A new-password input with show/hide, the strength meter and the broker's minimum. */
export function PasswordField({
  label,
  value,
  onChange,
  minLength,
  error,
  name = 'password',
  autoComplete = 'new-password',
}: {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  minLength: number;
  error?: string | null | undefined;
  name?: string;
  autoComplete?: string;
}) {
  const { t } = useI18n();
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="field kit-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="ac-password">
        <input
          id={id}
          name={name}
          className="input"
          type={shown ? 'text' : 'password'}
          autoComplete={autoComplete}
          maxLength={STAFF_PASSWORD_MAX_LENGTH}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-meter`}
          onChange={(e) => onChange(e.target.value)}
        />
        <button
          type="button"
          className="bo-iconbtn"
          onClick={() => setShown((v) => !v)}
          aria-label={shown ? t('admin.login.hidePassword') : t('admin.login.showPassword')}
          aria-pressed={shown}
        >
          <Icon name={shown ? 'eyeOff' : 'eye'} size={16} />
        </button>
      </div>
      <div id={`${id}-meter`}>
        <StrengthMeter password={value} minLength={minLength} />
      </div>
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** The otpauth:// address drawn as a QR code for the authenticator app. */
export function QrCode({ value }: { value: string }) {
  const { t } = useI18n();
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((QRCode) =>
        QRCode.toString(value, {
          type: 'svg',
          margin: 1,
          errorCorrectionLevel: 'M',
          color: { dark: '#0b1530', light: '#ffffff' },
        }),
      )
      .then((text) => {
        if (live) setSvg(text);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [value]);
  return svg ? (
    <div
      className="ac-qr"
      role="img"
      aria-label={t('admin.access.totp.qrLabel')}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the SVG comes from the QR library, not from input
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  ) : (
    <div className="ac-qr ac-qr-loading" aria-busy="true" />
  );
}

/** Groups a base32 secret in fours for typing it into an app by hand. */
export const groupSecret = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Setting up an authenticator app: the QR code, the secret to type by hand, and the first code
 * to confirm it. `onConfirm` answers the server's message when the code is refused.
 */
export function TotpSetup({
  secret,
  otpauthUrl,
  busy,
  error,
  onConfirm,
  confirmLabel,
}: {
  secret: string;
  otpauthUrl: string;
  busy: boolean;
  error: string | null;
  onConfirm: (code: string) => void;
  confirmLabel: string;
}) {
  const { t } = useI18n();
  const id = useId();
  const [code, setCode] = useState('');
  const valid = /^\d{6}$/.test(code);
  return (
    <form
      className="ac-totp"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid && !busy) onConfirm(code);
      }}
      data-testid="totp-setup"
    >
      <ol className="ac-steps">
        <li>{t('admin.access.totp.step1')}</li>
        <li>{t('admin.access.totp.step2')}</li>
      </ol>
      <div className="ac-totp-grid">
        <QrCode value={otpauthUrl} />
        <div className="ac-totp-side">
          <span className="kit-hint">{t('admin.access.totp.manual')}</span>
          <code className="ac-secret" data-testid="totp-secret" data-secret={secret}>
            {groupSecret(secret)}
          </code>
          <label className="field-label" htmlFor={id}>
            {t('admin.access.totp.code')}
          </label>
          <input
            id={id}
            name="code"
            className="input ac-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="000000"
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
            aria-invalid={error ? true : undefined}
          />
          {error ? (
            <span className="field-error" role="alert">
              {error}
            </span>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={!valid || busy}>
            {busy ? <span className="bo-spin bo-spinner-sm" aria-hidden="true" /> : null}
            {confirmLabel}
          </button>
        </div>
      </div>
    </form>
  );
}

/** A code field for a single six-digit authenticator code (sign-in, turning two-factor off). */
export function CodeField({
  value,
  onChange,
  error,
  label,
  autoFocus = false,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  label: string;
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="field kit-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name="otp"
        className="input ac-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder="000000"
        // biome-ignore lint/a11y/noAutofocus: the code is the only thing the step asks for
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, 6))}
        aria-invalid={error ? true : undefined}
      />
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** The message of a failed call (lib/failure-text.ts), or null without one. */
export function useFailureText() {
  const { t } = useI18n();
  return useCallback(
    (error: { kind: string; message: string } | null | undefined): string | null =>
      error ? failureText(error, t) : null,
    [t],
  );
}

/** A random password of letters and digits without look-alikes, from the browser's crypto. */
export function generatePassword(length: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

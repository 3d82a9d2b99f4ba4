import { type FormEvent, useId, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { Modal } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { useSession } from '../../session';
import { CodeField, PasswordField, TotpSetup, useFailureText } from './ui';

type TTotpState =
  | { step: 'idle' }
  | { step: 'enrolling'; secret: string; otpauthUrl: string }
  | { step: 'disabling'; code: string };

/** The signed-in staff member's own security: two-factor sign-in on or off, and their password. */
export function SecurityDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const session = useSession();
  const failure = useFailureText();
  const security = useQuery('adminmysecurity', {});
  const begin = useMutation('adminmytotpbegin');
  const enable = useMutation('adminmytotpenable');
  const disable = useMutation('adminmytotpdisable');
  const change = useMutation('adminmypassword');
  const [totp, setTotp] = useState<TTotpState>({ step: 'idle' });
  const [notice, setNotice] = useState<string | null>(null);
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const oldId = useId();
  const repeatId = useId();

  const data = security.data;
  const minLength = Math.max(5, data?.passwordMinLength ?? 5);

  const start = async () => {
    setNotice(null);
    const answer = await begin.run({});
    if (answer) setTotp({ step: 'enrolling', ...answer });
  };

  const confirm = async (code: string) => {
    const answer = await enable.run({ code });
    if (!answer) return;
    setTotp({ step: 'idle' });
    setNotice(t('admin.access.security.enabled'));
    security.reload();
    await session.refresh();
  };

  const turnOff = async (event: FormEvent) => {
    event.preventDefault();
    if (totp.step !== 'disabling') return;
    const answer = await disable.run({ code: totp.code });
    if (!answer) return;
    setTotp({ step: 'idle' });
    setNotice(t('admin.access.security.disabled'));
    security.reload();
    await session.refresh();
  };

  const changePassword = async (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password !== repeat || [...password].length < minLength || !oldPassword) return;
    const answer = await change.run({ oldPassword, password });
    if (!answer) return;
    setOldPassword('');
    setPassword('');
    setRepeat('');
    setNotice(t('admin.access.security.passwordChanged'));
  };

  return (
    <Modal title={t('admin.access.security.title')} onClose={onClose} wide testId="security-dialog">
      {notice ? (
        <div className="alert alert-info bo-alert" role="status">
          <Icon name="check" size={16} className="bo-alert-icon" />
          <span>{notice}</span>
        </div>
      ) : null}
      <section className="ac-security-section" aria-labelledby={`${oldId}-totp`}>
        <header className="ac-security-head">
          <div>
            <h3 id={`${oldId}-totp`}>{t('admin.access.security.totpTitle')}</h3>
            <p className="kit-hint">{t('admin.access.security.totpText')}</p>
          </div>
          {data ? (
            <span
              className={`kit-pill ${data.twoFactor ? 'kit-pill-up' : data.twoFactorRequired ? 'kit-pill-down' : ''}`}
              data-testid="my-totp-state"
            >
              {data.twoFactor ? t('admin.access.security.on') : t('admin.access.security.off')}
            </span>
          ) : null}
        </header>
        {security.status === 'error' ? (
          <p className="kit-error" role="alert">
            {failure(security.error)}
          </p>
        ) : null}
        {data?.twoFactorRequired && !data.twoFactor ? (
          <p className="ac-warn" role="status">
            <Icon name="alert" size={15} />
            {t('admin.access.security.requiredOff')}
          </p>
        ) : null}
        {data && totp.step === 'idle' && !data.twoFactor ? (
          <div className="kit-actions">
            <button
              type="button"
              className="btn btn-primary"
              onClick={start}
              disabled={begin.pending}
              data-testid="totp-start"
            >
              {t('admin.access.security.turnOn')}
            </button>
            {begin.error ? <span className="kit-error">{failure(begin.error)}</span> : null}
          </div>
        ) : null}
        {totp.step === 'enrolling' ? (
          <TotpSetup
            secret={totp.secret}
            otpauthUrl={totp.otpauthUrl}
            busy={enable.pending}
            error={failure(enable.error)}
            onConfirm={confirm}
            confirmLabel={t('admin.access.security.confirmOn')}
          />
        ) : null}
        {data?.twoFactor && totp.step === 'idle' ? (
          data.twoFactorRequired ? (
            <p className="kit-hint">{t('admin.access.security.requiredOn')}</p>
          ) : (
            <div className="kit-actions">
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setTotp({ step: 'disabling', code: '' })}
              >
                {t('admin.access.security.turnOff')}
              </button>
            </div>
          )
        ) : null}
        {totp.step === 'disabling' ? (
          <form className="ac-inline-form" onSubmit={turnOff}>
            <CodeField
              label={t('admin.access.totp.code')}
              value={totp.code}
              onChange={(code) => setTotp({ step: 'disabling', code })}
              error={failure(disable.error)}
              autoFocus
            />
            <div className="kit-actions">
              <button type="button" className="btn btn-secondary" onClick={() => setTotp({ step: 'idle' })}>
                {t('admin.kit.cancel')}
              </button>
              <button
                type="submit"
                className="kit-btn-danger btn"
                disabled={!/^\d{6}$/.test(totp.code) || disable.pending}
              >
                {t('admin.access.security.confirmOff')}
              </button>
            </div>
          </form>
        ) : null}
      </section>

      <section className="ac-security-section" aria-labelledby={`${oldId}-password`}>
        <header className="ac-security-head">
          <div>
            <h3 id={`${oldId}-password`}>{t('admin.access.security.passwordTitle')}</h3>
            <p className="kit-hint">{t('admin.access.security.passwordText')}</p>
          </div>
        </header>
        <form className="ac-inline-form" onSubmit={changePassword} noValidate>
          <div className="field kit-field">
            <label className="field-label" htmlFor={oldId}>
              {t('admin.access.security.oldPassword')}
            </label>
            <input
              id={oldId}
              className="input"
              type="password"
              autoComplete="current-password"
              value={oldPassword}
              onChange={(e) => setOldPassword(e.target.value)}
            />
            {change.error?.fields.oldPassword ? (
              <span className="field-error" role="alert">
                {change.error.fields.oldPassword}
              </span>
            ) : null}
          </div>
          <PasswordField
            label={t('admin.access.security.newPassword')}
            value={password}
            onChange={setPassword}
            minLength={minLength}
            error={change.error?.fields.password ?? null}
          />
          <div className="field kit-field">
            <label className="field-label" htmlFor={repeatId}>
              {t('admin.access.security.repeatPassword')}
            </label>
            <input
              id={repeatId}
              className="input"
              type="password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
              aria-invalid={mismatch ? true : undefined}
            />
            {mismatch ? (
              <span className="field-error" role="alert">
                {t('admin.access.security.mismatch')}
              </span>
            ) : null}
          </div>
          {change.error && !change.error.fields.oldPassword && !change.error.fields.password ? (
            <p className="kit-error" role="alert">
              {failure(change.error)}
            </p>
          ) : null}
          <div className="kit-actions">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={change.pending || !oldPassword || [...password].length < minLength}
            >
              {t('admin.access.security.changePassword')}
            </button>
          </div>
        </form>
      </section>
    </Modal>
  );
}

import type { TUnwrapped } from '@broker/contracts/envelope';
import type { TSimpleUser } from '@broker/contracts/routes';
import { AppErrorCode } from '@broker/domain/result-codes';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { PhoneField, type TPhoneValue } from '../../components/PhoneField';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { type TBindTarget, useBindCode } from './useBindCode';

type TKind = 'email' | 'phone';
type TErrors = Partial<Record<'target' | 'code' | 'form', string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^[\d\s()-]{4,20}$/;
const CODE = /^\d{4}$/;

/** The region preselected in the calling-code picker: the page language's likely country. */
function defaultRegion(intl: string): string {
  try {
    return new Intl.Locale(intl).maximize().region ?? 'US';
  } catch {
    return 'US';
  }
}

const TARGET_CODES: readonly number[] = [
  AppErrorCode.EMAIL_ALREADY_REGISTERED,
  AppErrorCode.PHONE_ALREADY_REGISTERED,
  AppErrorCode.PHONE_FORMAT_WRONG,
];
const CODE_CODES: readonly number[] = [AppErrorCode.VERIFICATION_CODE_WRONG, AppErrorCode.CODE_EXPIRED];

/** A failed call's problem beside the field it concerns; the rest goes above the form. */
function errorsOf(answer: TUnwrapped<unknown>, t: (key: string) => string): TErrors {
  const fields = answer.fields ?? {};
  for (const [field, message] of Object.entries(fields)) {
    if (field === 'email' || field.startsWith('phone')) return { target: message };
    if (field === 'code') return { code: message };
  }
  const text = failureText(answer, t);
  if (TARGET_CODES.includes(answer.ErrorCode)) return { target: text };
  if (CODE_CODES.includes(answer.ErrorCode)) return { code: text };
  return { form: text };
}

/** The sign-in email and phone, masked, each with a bind or change action. */
export function ContactBinding({ user, onBound }: { user: TSimpleUser; onBound(user: TSimpleUser): void }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState<TKind | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const row = (kind: TKind, value: string | null) => (
    <div className="pf-contact" data-testid={`contact-${kind}`}>
      <div className="pf-contact-text">
        <span className="pf-contact-label">{t(`profile.contact.${kind}`)}</span>
        <span className="pf-contact-value" data-bound={!!value}>
          {kind === 'phone' && value && user.areaFlag && (
            <img src={user.areaFlag} alt="" width={20} height={15} className="pf-flag" />
          )}
          <span className={value ? 'num' : undefined} data-testid={`contact-${kind}-value`}>
            {value ?? t('profile.contact.none')}
          </span>
        </span>
      </div>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        data-testid={`contact-${kind}-edit`}
        onClick={() => {
          setNotice(null);
          setEditing(kind);
        }}
      >
        {t(value ? 'profile.contact.change' : 'profile.contact.bind')}
      </button>
    </div>
  );

  return (
    <>
      {notice && (
        <div className="alert alert-info st-alert" role="status" data-testid="contact-notice">
          {notice}
        </div>
      )}
      <div className="pf-contacts">
        {row('email', user.email)}
        {row('phone', user.phone)}
      </div>
      {editing && (
        <BindDialog
          kind={editing}
          replacing={!!(editing === 'email' ? user.email : user.phone)}
          onCancel={() => setEditing(null)}
          onBound={(next) => {
            setNotice(t(editing === 'email' ? 'profile.contact.emailBound' : 'profile.contact.phoneBound'));
            setEditing(null);
            onBound(next);
          }}
        />
      )}
    </>
  );
}

/** The new address, a code sent to it behind the captcha, and the confirmation (a native modal dialog). */
function BindDialog({
  kind,
  replacing,
  onCancel,
  onBound,
}: {
  kind: TKind;
  replacing: boolean;
  onCancel(): void;
  onBound(user: TSimpleUser): void;
}) {
  const { t, lang, intl } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const codeId = useId();
  const sender = useBindCode(lang);
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState<TPhoneValue>(() => ({ twoCharCode: defaultRegion(intl), number: '' }));
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<TErrors>({});
  const [busy, setBusy] = useState(false);
  // Bumped on every change of the address, so a late answer about an older one is dropped.
  const edits = useRef(0);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const target = (): TBindTarget =>
    kind === 'email' ? { email: email.trim() } : { phone: { ...phone, number: phone.number.trim() } };
  const targetProblem = (): string | undefined => {
    if (kind === 'email') return EMAIL.test(email.trim()) ? undefined : t('validation.email');
    return PHONE.test(phone.number.trim()) ? undefined : t(`errors.${AppErrorCode.PHONE_FORMAT_WRONG}`);
  };
  const editTarget = () => {
    edits.current++;
    sender.reset();
    setErrors((e) => ({ ...e, target: undefined, form: undefined }));
  };

  const sendCode = async () => {
    const problem = targetProblem();
    if (problem) {
      setErrors({ target: problem });
      return;
    }
    setErrors({});
    const version = edits.current;
    const failure = await sender.send(target());
    if (failure && version === edits.current) setErrors(errorsOf(failure, t));
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const next: TErrors = {};
    const problem = targetProblem();
    if (problem) next.target = problem;
    if (!CODE.test(code)) next.code = t('validation.codeFormat');
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    const answer = await callRoute('bindcontact', { ...target(), code }, lang);
    setBusy(false);
    if (answer.succeed && answer.Data) onBound(answer.Data);
    else setErrors(errorsOf(answer, t));
  };

  const sending = sender.phase !== 'idle';
  const title = `profile.bind.${kind}${replacing ? 'Change' : 'Add'}`;
  return (
    <dialog
      ref={ref}
      className="st-dialog pf-dialog"
      aria-labelledby={titleId}
      data-testid="bind-dialog"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <form onSubmit={confirm} noValidate className="pf-dialog-form">
        <h2 id={titleId}>{t(title)}</h2>
        <p>{t(kind === 'email' ? 'profile.bind.emailText' : 'profile.bind.phoneText')}</p>
        {errors.form && (
          <div className="alert alert-error" role="alert">
            {errors.form}
          </div>
        )}
        {kind === 'phone' ? (
          <PhoneField
            label={t('profile.bind.newPhone')}
            value={phone}
            error={errors.target}
            onChange={(value) => {
              setPhone(value);
              editTarget();
            }}
          />
        ) : (
          <label className="field">
            <span className="field-label">{t('profile.bind.newEmail')}</span>
            <input
              className="input"
              type="email"
              name="email"
              autoComplete="email"
              value={email}
              aria-invalid={!!errors.target}
              data-testid="bind-email"
              onChange={(e) => {
                setEmail(e.target.value);
                editTarget();
              }}
            />
            <span className="field-error">{errors.target}</span>
          </label>
        )}
        <div className="field">
          <label className="field-label" htmlFor={codeId}>
            {t('profile.bind.code')}
          </label>
          <div className="pf-code-row">
            <input
              id={codeId}
              className="input num pf-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={4}
              placeholder="0000"
              value={code}
              aria-invalid={!!errors.code}
              data-testid="bind-code"
              onChange={(e) => {
                setCode(e.target.value.replace(/\D/g, '').slice(0, 4));
                setErrors((v) => ({ ...v, code: undefined }));
              }}
            />
            <button
              type="button"
              className="btn btn-secondary pf-send"
              disabled={sending || sender.secondsLeft > 0}
              aria-busy={sending}
              data-testid="bind-send"
              onClick={() => void sendCode()}
            >
              {sending ? (
                <>
                  <span className="spinner pf-spinner-sm" />
                  {t(sender.phase === 'solving' ? 'profile.bind.checking' : 'profile.bind.sending')}
                </>
              ) : sender.secondsLeft > 0 ? (
                t('profile.bind.wait', { seconds: sender.secondsLeft })
              ) : (
                t(sender.sentTo ? 'profile.bind.resend' : 'profile.bind.send')
              )}
            </button>
          </div>
          <span
            className={errors.code ? 'field-error' : 'pf-hint'}
            aria-live="polite"
            data-testid="bind-code-message"
          >
            {errors.code ?? (sender.sentTo ? t('profile.bind.sent', { to: sender.sentTo }) : '')}
          </span>
        </div>
        <div className="st-dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            {t('settings.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="bind-confirm">
            {busy ? <span className="spinner" /> : t('profile.bind.confirm')}
          </button>
        </div>
      </form>
    </dialog>
  );
}

import { type FormEvent, useId, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { Attachments } from './Attachments';
import { SettingsCard } from './controls';
import {
  CONTACT_KEYS,
  FEEDBACK_MAX,
  feedbackProblems,
  givenContacts,
  type TContactKey,
  type TContacts,
} from './feedback-form';
import { useSettingsCall } from './settings-api';
import { randomKey } from './upload';
import { useAttachments } from './useAttachments';

type TErrors = Partial<Record<'text' | 'contacts' | 'attachments' | 'form' | TContactKey, string>>;

const EMPTY: TContacts = { email: '', phone: '', wechat: '', telegram: '' };
const CONTACT_INPUT: Record<
  TContactKey,
  { type: string; autoComplete: string; inputMode?: 'tel' | 'email' }
> = {
  email: { type: 'email', autoComplete: 'email', inputMode: 'email' },
  phone: { type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
  wechat: { type: 'text', autoComplete: 'off' },
  telegram: { type: 'text', autoComplete: 'off' },
};

/** The server's field names ("contacts.email") to the form's. */
function fieldOf(serverField: string): keyof TErrors {
  const [head, tail] = serverField.split('.');
  if (head === 'contacts' && tail && (CONTACT_KEYS as readonly string[]).includes(tail))
    return tail as TContactKey;
  if (head === 'text' || head === 'contacts' || head === 'attachments') return head;
  return 'form';
}

/** Feedback to the broker: text, at least one way to reply, up to 5 images and 1 video. */
export function Component() {
  const { t, formatNumber } = useI18n();
  const call = useSettingsCall();
  const attachments = useAttachments();
  const [text, setText] = useState('');
  const [contacts, setContacts] = useState<TContacts>(EMPTY);
  const [errors, setErrors] = useState<TErrors>({});
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  // One key per feedback: a retried send (lost answer, double click) is stored once.
  const key = useRef(randomKey());
  const sending = useRef(false);
  const textId = useId();
  const counterId = useId();
  const contactsId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current || attachments.uploading) return;
    const next: TErrors = {};
    for (const [field, problem] of Object.entries(feedbackProblems(text, contacts)))
      next[field as keyof TErrors] = t(problem);
    if (attachments.failed) next.attachments = t('feedback.attach.failedOnes');
    setErrors(next);
    if (Object.keys(next).length) return;
    sending.current = true;
    setBusy(true);
    const answer = await call('feedback', {
      text,
      contacts: givenContacts(contacts),
      attachments: attachments.fileIds,
      idempotencyKey: key.current,
    });
    sending.current = false;
    setBusy(false);
    if (answer.succeed) {
      setSent(true);
      return;
    }
    const fields: TErrors = {};
    for (const [field, message] of Object.entries(answer.fields ?? {})) fields[fieldOf(field)] ??= message;
    setErrors(Object.keys(fields).length ? fields : { form: failureText(answer, t) });
  };

  const again = () => {
    key.current = randomKey();
    attachments.clear();
    setText('');
    setContacts(EMPTY);
    setErrors({});
    setSent(false);
  };

  if (sent) {
    return (
      <SettingsCard title={t('feedback.title')} testId="settings-feedback">
        <div className="st-done" role="status" data-testid="feedback-sent">
          <div className="empty-state-icon success">
            <Icon name="check" size={26} />
          </div>
          <h3>{t('feedback.sentTitle')}</h3>
          <p>{t('feedback.sentText')}</p>
          <button type="button" className="btn btn-secondary" onClick={again} data-testid="feedback-again">
            {t('feedback.again')}
          </button>
        </div>
      </SettingsCard>
    );
  }

  return (
    <SettingsCard title={t('feedback.title')} text={t('feedback.text')} testId="settings-feedback">
      <form className="pf-form" onSubmit={submit} noValidate data-testid="feedback-form">
        {errors.form && (
          <div className="alert alert-error" role="alert" data-testid="feedback-error">
            {errors.form}
          </div>
        )}
        <div className="field">
          <div className="pf-label-row">
            <label className="field-label" htmlFor={textId}>
              {t('feedback.message')}
            </label>
            <span
              className="pf-counter num"
              id={counterId}
              data-full={text.length >= FEEDBACK_MAX}
              data-testid="feedback-counter"
            >
              {formatNumber(text.length)}/{formatNumber(FEEDBACK_MAX)}
            </span>
          </div>
          <textarea
            id={textId}
            className="input pf-textarea"
            name="text"
            rows={6}
            maxLength={FEEDBACK_MAX}
            placeholder={t('feedback.placeholder')}
            value={text}
            aria-invalid={!!errors.text}
            aria-describedby={counterId}
            data-testid="feedback-text"
            onChange={(e) => {
              setText(e.target.value);
              setErrors(({ text: _, ...rest }) => rest);
            }}
          />
          <span className="field-error">{errors.text}</span>
        </div>

        <fieldset className="pf-fieldset" aria-describedby={contactsId}>
          <legend className="field-label">{t('feedback.contacts')}</legend>
          <p className="pf-hint" id={contactsId}>
            {t('feedback.contactsHint')}
          </p>
          {errors.contacts && (
            <p className="field-error" role="alert" data-testid="feedback-contacts-error">
              {errors.contacts}
            </p>
          )}
          <div className="pf-grid">
            {CONTACT_KEYS.map((name) => (
              <label key={name} className="field">
                <span className="field-label">{t(`feedback.contact.${name}`)}</span>
                <input
                  className="input"
                  name={name}
                  maxLength={name === 'email' ? 254 : name === 'phone' ? 32 : 64}
                  {...CONTACT_INPUT[name]}
                  value={contacts[name]}
                  aria-invalid={!!errors[name] || !!errors.contacts}
                  data-testid={`feedback-${name}`}
                  onChange={(e) => {
                    setContacts((c) => ({ ...c, [name]: e.target.value }));
                    setErrors(({ [name]: _, contacts: __, ...rest }) => rest);
                  }}
                />
                <span className="field-error">{errors[name]}</span>
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="pf-fieldset">
          <legend className="field-label">{t('feedback.attach.title')}</legend>
          <Attachments attachments={attachments} disabled={busy} />
          {errors.attachments && (
            <span className="field-error" role="alert">
              {errors.attachments}
            </span>
          )}
        </fieldset>

        <div className="st-form-actions">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || attachments.uploading}
            data-testid="feedback-submit"
          >
            {busy ? <span className="spinner" /> : t('feedback.submit')}
          </button>
          {attachments.uploading && <span className="pf-hint">{t('feedback.attach.waiting')}</span>}
        </div>
      </form>
    </SettingsCard>
  );
}

import type { TSimpleUser } from '@broker/contracts/routes';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { useShell } from '../../lib/store';
import { AvatarField } from './AvatarField';
import { ContactBinding } from './ContactBinding';
import { SettingsCard } from './controls';
import {
  LINK_KEYS,
  LINK_MAX,
  NICK_MAX,
  PROFILE_MAX,
  profileFieldOf,
  profilePatch,
  profileProblems,
  type TProfileErrors,
  type TProfileField,
  type TProfileValues,
  type TSex,
  valuesOf,
} from './profile-form';
import { useSettingsCall } from './settings-api';

type TLoad = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready' };

const SEXES: { value: TSex; key: string }[] = [
  { value: 0, key: 'profile.sex.unknown' },
  { value: 1, key: 'profile.sex.male' },
  { value: 2, key: 'profile.sex.female' },
];

/** The trader's public profile (nick, avatar, sex, text, social links) and their sign-in email and phone. */
export function Component() {
  const { t } = useI18n();
  const call = useSettingsCall();
  const [load, setLoad] = useState<TLoad>({ status: 'loading' });
  const [user, setUser] = useState<TSimpleUser | null>(null);

  const fetchProfile = useCallback(async () => {
    setLoad({ status: 'loading' });
    const answer = await call('profile', {});
    if (!answer.succeed || !answer.Data) {
      setLoad({ status: 'failed', message: failureText(answer, t) });
      return;
    }
    setUser(answer.Data);
    setLoad({ status: 'ready' });
  }, [call, t]);

  useEffect(() => {
    void fetchProfile();
  }, [fetchProfile]);

  if (load.status === 'loading') return <ProfileSkeleton />;
  if (load.status === 'failed' || !user) {
    return (
      <div className="card" data-testid="profile-load-error">
        <div className="empty-state">
          <div className="empty-state-icon">
            <Icon name="alert" size={26} />
          </div>
          <h3>{t('profile.loadFailed')}</h3>
          <p>{load.status === 'failed' ? load.message : ''}</p>
          <button type="button" className="btn btn-secondary" onClick={() => void fetchProfile()}>
            {t('common.retry')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="st-stack" data-testid="profile">
      <ProfileForm user={user} onSaved={setUser} />
      <SettingsCard title={t('profile.contact.title')} text={t('profile.contact.text')} testId="contact-card">
        <ContactBinding user={user} onBound={setUser} />
      </SettingsCard>
    </div>
  );
}

function ProfileForm({ user, onSaved }: { user: TSimpleUser; onSaved(user: TSimpleUser): void }) {
  const { t, formatNumber } = useI18n();
  const call = useSettingsCall();
  const shell = useShell();
  const [saved, setSaved] = useState(() => valuesOf(user));
  const [values, setValues] = useState(saved);
  const [errors, setErrors] = useState<TProfileErrors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const textId = useId();
  const counterId = useId();

  const patch = profilePatch(saved, values);
  const dirty = Object.keys(patch).length > 0;

  // Leaving the page with unsaved changes asks first (closing the tab, reloading, typing an address).
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const edit = <K extends keyof TProfileValues>(field: K, value: TProfileValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setDone(false);
    setErrors(({ [field as TProfileField]: _, form: __, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!dirty || busy) return;
    const next: TProfileErrors = {};
    for (const [field, key] of Object.entries(profileProblems(values)))
      next[field as TProfileField] = t(key, { max: LINK_MAX });
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    const answer = await call('saveprofile', patch);
    setBusy(false);
    if (answer.succeed && answer.Data) {
      const stored = valuesOf(answer.Data);
      setSaved(stored);
      setValues(stored);
      setDone(true);
      onSaved(answer.Data);
      // The header shows the display name, which follows the nick.
      if (patch.nick !== undefined) shell.rename(answer.Data.nick);
      return;
    }
    const fields: TProfileErrors = {};
    for (const [field, message] of Object.entries(answer.fields ?? {}))
      fields[profileFieldOf(field)] ??= message;
    setErrors(Object.keys(fields).length ? fields : { form: failureText(answer, t) });
  };

  const link = (key: (typeof LINK_KEYS)[number]) => (
    <label key={key} className="field">
      <span className="field-label">{t(`profile.links.${key}`)}</span>
      <input
        className="input"
        name={key}
        maxLength={LINK_MAX}
        autoComplete="off"
        spellCheck={false}
        placeholder={t(`profile.links.${key}Placeholder`)}
        value={values[key]}
        aria-invalid={!!errors[key]}
        data-testid={`profile-${key}`}
        onChange={(e) => edit(key, e.target.value)}
      />
      <span className="field-error">{errors[key]}</span>
    </label>
  );

  return (
    <SettingsCard title={t('profile.title')} text={t('profile.text')} testId="profile-card">
      <form className="pf-form" onSubmit={submit} noValidate data-testid="profile-form">
        {errors.form && (
          <div className="alert alert-error" role="alert" data-testid="profile-error">
            {errors.form}
          </div>
        )}
        <AvatarField
          url={values.avatar.url}
          name={values.nick}
          error={errors.avatar}
          disabled={busy}
          onChange={(avatar) => edit('avatar', avatar)}
        />
        <div className="pf-grid">
          <label className="field">
            <span className="field-label">{t('profile.nick')}</span>
            <input
              className="input"
              name="nick"
              autoComplete="nickname"
              maxLength={NICK_MAX}
              value={values.nick}
              aria-invalid={!!errors.nick}
              data-testid="profile-nick"
              onChange={(e) => edit('nick', e.target.value)}
            />
            <span className="field-error">{errors.nick}</span>
          </label>
          <div className="field">
            <span className="field-label" id={`${textId}-sex`}>
              {t('profile.sex.label')}
            </span>
            <div className="pf-segmented" role="radiogroup" aria-labelledby={`${textId}-sex`}>
              {SEXES.map((sex) => (
                <label key={sex.value} className="pf-segment" data-testid={`profile-sex-${sex.value}`}>
                  <input
                    type="radio"
                    name="sex"
                    checked={values.sex === sex.value}
                    onChange={() => edit('sex', sex.value)}
                  />
                  <span>{t(sex.key)}</span>
                </label>
              ))}
            </div>
          </div>
        </div>
        <div className="field">
          <div className="pf-label-row">
            <label className="field-label" htmlFor={textId}>
              {t('profile.about')}
            </label>
            <span className="pf-counter num" id={counterId} data-full={values.profile.length >= PROFILE_MAX}>
              {formatNumber(values.profile.length)}/{formatNumber(PROFILE_MAX)}
            </span>
          </div>
          <textarea
            id={textId}
            className="input pf-textarea"
            name="profile"
            rows={3}
            maxLength={PROFILE_MAX}
            placeholder={t('profile.aboutPlaceholder')}
            value={values.profile}
            aria-invalid={!!errors.profile}
            aria-describedby={counterId}
            data-testid="profile-about"
            onChange={(e) => edit('profile', e.target.value)}
          />
          <span className="field-error">{errors.profile}</span>
        </div>
        <fieldset className="pf-fieldset">
          <legend className="field-label">{t('profile.links.title')}</legend>
          <div className="pf-grid">{LINK_KEYS.map(link)}</div>
        </fieldset>
        <div className="st-form-actions pf-actions">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!dirty || busy}
            data-testid="profile-save"
          >
            {busy ? <span className="spinner" /> : t('profile.save')}
          </button>
          {dirty && !busy && (
            <button
              type="button"
              className="btn btn-ghost"
              data-testid="profile-discard"
              onClick={() => {
                setValues(saved);
                setErrors({});
              }}
            >
              {t('profile.discard')}
            </button>
          )}
          <span className="pf-status" role="status" data-testid="profile-status">
            {done && !dirty ? (
              <>
                <Icon name="check" size={16} />
                {t('profile.saved')}
              </>
            ) : dirty ? (
              t('profile.unsaved')
            ) : null}
          </span>
        </div>
      </form>
    </SettingsCard>
  );
}

function ProfileSkeleton() {
  return (
    <div className="st-stack" aria-busy="true" data-testid="profile-loading">
      {[0, 1].map((i) => (
        <div key={i} className="card st-card">
          <div className="skeleton st-skeleton-title" />
          <div className="skeleton st-skeleton-text" />
          <div className="skeleton st-skeleton-row" />
          <div className="skeleton st-skeleton-row" />
        </div>
      ))}
    </div>
  );
}

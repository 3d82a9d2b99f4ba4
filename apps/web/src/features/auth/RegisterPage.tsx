import './auth.css';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { callRoute } from '../../lib/api';
import { adoptTraderAppearance } from '../../lib/appearance';
import { useI18n } from '../../lib/i18n';
import { CredentialFields } from './AuthFields';
import { safeRedirect } from './redirect';
import { useCodeForm } from './useCodeForm';

const MARK = '\uE000';

/** A translated sentence with links where each language puts its placeholders. */
function withLinks(
  t: (key: string, values: Record<string, string>) => string,
  key: string,
  links: Record<string, ReactNode>,
): ReactNode[] {
  const values = Object.fromEntries(Object.keys(links).map((name) => [name, `${MARK}${name}${MARK}`]));
  return t(key, values)
    .split(new RegExp(`${MARK}(\\w+)${MARK}`))
    .map((part, index) => (index % 2 ? links[part] : part));
}

/**
 * Registration by email or phone with a verification code (spec 2.4, 5); signs the new trader in and
 * opens the demo account form (or the page that sent the visitor here).
 */
export function Component() {
  const { t, lang } = useI18n();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const form = useCodeForm('register');
  const [consent, setConsent] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate(consent ? {} : { consent: t('register.consent.required') })) return;
    setBusy(true);
    const answer = await callRoute('register', form.payload(), lang);
    if (answer.succeed) {
      await adoptTraderAppearance(lang);
      // A full load, so the header and every page read the new session's cookies. Unless a page sent
      // the visitor here, a new trader goes straight on to open a demo account (issue 21, item 12).
      window.location.assign(safeRedirect(redirect, lang, paths.openDemo(lang)));
      return;
    }
    setBusy(false);
    form.showFailure(answer);
  };

  const consentText = withLinks(t, 'register.consent', {
    terms: (
      <a key="terms" href={paths.terms(lang)} target="_blank" rel="noopener">
        {t('register.terms')}
      </a>
    ),
    privacy: (
      <a key="privacy" href={paths.privacy(lang)} target="_blank" rel="noopener">
        {t('register.privacy')}
      </a>
    ),
  });

  return (
    <section className="auth-page">
      <div className="auth-card card" data-testid="register-page">
        <h1>{t('register.title')}</h1>
        <p className="auth-sub">{t('register.subtitle')}</p>
        {form.errors.form && (
          <div className="alert alert-error" role="alert" data-testid="form-error">
            {form.errors.form}
          </div>
        )}
        <form method="post" onSubmit={submit} noValidate className="auth-form">
          <CredentialFields form={form} passwordLabel={t('login.password')} />
          <div className="field">
            <label className="auth-consent">
              <input
                type="checkbox"
                name="consent"
                checked={consent}
                aria-invalid={!!form.errors.consent}
                data-testid="consent"
                onChange={(e) => {
                  setConsent(e.target.checked);
                  form.clear('consent');
                }}
              />
              <span>{consentText}</span>
            </label>
            <span className="field-error">{form.errors.consent}</span>
          </div>
          <button
            type="submit"
            className="btn btn-primary btn-lg btn-block"
            disabled={busy}
            aria-busy={busy}
            data-testid="register-submit"
          >
            {busy ? <span className="spinner" /> : t('register.submit')}
          </button>
        </form>
        <p className="auth-foot">
          {t('register.haveAccount')}{' '}
          <Link to={paths.login(lang, redirect ?? undefined)} data-testid="to-login">
            {t('login.submit')}
          </Link>
        </p>
      </div>
    </section>
  );
}

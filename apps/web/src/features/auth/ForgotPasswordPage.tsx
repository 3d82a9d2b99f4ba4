import './auth.css';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { useI18n } from '../../lib/i18n';
import { CredentialFields } from './AuthFields';
import { useCodeForm } from './useCodeForm';

/** Password reset by email or phone code (spec 2.4, 5); every session of the trader ends. */
export function Component() {
  const { t, lang } = useI18n();
  const form = useCodeForm('reset');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate()) return;
    setBusy(true);
    const answer = await callRoute('forgetpassword', form.payload(), lang);
    setBusy(false);
    if (answer.succeed) setDone(true);
    else form.showFailure(answer);
  };

  if (done) {
    return (
      <section className="auth-page">
        <div className="auth-card card auth-done" data-testid="reset-done" role="status">
          <span className="auth-done-icon">
            <Icon name="check" size={28} />
          </span>
          <h1>{t('reset.done.title')}</h1>
          <p className="auth-sub">{t('reset.done.text')}</p>
          <Link
            to={paths.login(lang)}
            className="btn btn-primary btn-lg btn-block"
            data-testid="reset-to-login"
          >
            {t('login.submit')}
          </Link>
        </div>
      </section>
    );
  }

  return (
    <section className="auth-page">
      <div className="auth-card card" data-testid="reset-page">
        <h1>{t('reset.title')}</h1>
        <p className="auth-sub">{t('reset.subtitle')}</p>
        {form.errors.form && (
          <div className="alert alert-error" role="alert" data-testid="form-error">
            {form.errors.form}
          </div>
        )}
        <form method="post" onSubmit={submit} noValidate className="auth-form">
          <CredentialFields form={form} passwordLabel={t('reset.newPassword')} />
          <button
            type="submit"
            className="btn btn-primary btn-lg btn-block"
            disabled={busy}
            aria-busy={busy}
            data-testid="reset-submit"
          >
            {busy ? <span className="spinner" /> : t('reset.submit')}
          </button>
        </form>
        <p className="auth-foot">
          <Link to={paths.login(lang)} data-testid="to-login">
            <Icon name="arrowLeft" size={14} /> {t('reset.back')}
          </Link>
        </p>
      </div>
    </section>
  );
}

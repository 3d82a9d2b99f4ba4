import { isRouteErrorResponse, Link, useSearchParams } from 'react-router';
import { Footer } from '../../components/Footer';
import { Header } from '../../components/Header';
import { useI18n } from '../../lib/i18n';
import { ErrorPageGuard } from './ErrorPageGuard';

function ErrorContent({ error }: { error: unknown }) {
  const { t, lang } = useI18n();
  const status = isRouteErrorResponse(error) ? error.status : null;
  return (
    <section className="status-page" data-testid="error-page">
      <div className="status-code">{status ?? '!'}</div>
      <h1>{t('error.title')}</h1>
      <p>{error ? t('error.text') : t('error.empty')}</p>
      <div className="status-actions">
        <Link to={`/${lang}`} className="btn btn-primary">
          {t('common.backHome')}
        </Link>
        {error !== undefined && (
          <button type="button" className="btn btn-secondary" onClick={() => window.location.reload()}>
            {t('common.retry')}
          </button>
        )}
      </div>
    </section>
  );
}

export function ErrorView({ error, withShell }: { error: unknown; withShell: boolean }) {
  if (!withShell) return <ErrorContent error={error} />;
  return (
    <div className="page">
      <Header />
      <main className="page-main">
        <ErrorContent error={error} />
      </main>
      <Footer />
    </div>
  );
}

function BrokenErrorPage(): never {
  throw new Error('error page failed to render');
}

/**
 * The empty error page (spec 2.5) at /{lang}/error. `?selftest=fallback` makes the page itself
 * fail, so monitoring and tests can see the fallback page work in production builds.
 */
export function Component() {
  const [params] = useSearchParams();
  return (
    <ErrorPageGuard>
      {params.get('selftest') === 'fallback' ? <BrokenErrorPage /> : <ErrorContent error={undefined} />}
    </ErrorPageGuard>
  );
}

import { Link } from 'react-router';
import { Footer } from '../../components/Footer';
import { Header } from '../../components/Header';
import { useI18n } from '../../lib/i18n';

function NotFoundContent() {
  const { t, lang } = useI18n();
  return (
    <section className="status-page" data-testid="not-found">
      <div className="status-code">404</div>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link to={`/${lang}`} className="btn btn-primary">
        {t('common.backHome')}
      </Link>
    </section>
  );
}

export function NotFoundView({ withShell }: { withShell: boolean }) {
  if (!withShell) return <NotFoundContent />;
  return (
    <div className="page">
      <Header />
      <main className="page-main">
        <NotFoundContent />
      </main>
      <Footer />
    </div>
  );
}

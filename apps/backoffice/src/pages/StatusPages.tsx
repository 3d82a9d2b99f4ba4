import type { TMenuEntry } from '@broker/contracts/permissions';
import { Link, useLocation } from 'react-router';
import { BrandMark, Icon } from '../components/Icon';
import { useDocumentTitle, useI18n } from '../i18n';
import { ADMIN_BASE } from '../lib/redirect';
import { visibleMenu } from '../menu';
import { useSession } from '../session';

function HomeLink() {
  const { t } = useI18n();
  const { can } = useSession();
  if (!can('statistics.view')) return null;
  return (
    <Link to="/" className="btn btn-primary btn-sm bo-empty-action">
      <Icon name="arrowLeft" size={14} />
      {t('admin.common.backToDashboard')}
    </Link>
  );
}

/** Unknown back-office address, shown inside the layout. */
export function NotFoundPage() {
  const { t } = useI18n();
  const location = useLocation();
  const title = t('admin.notFound.title');
  useDocumentTitle(title);
  return (
    <div className="bo-page">
      <section className="card bo-status-card">
        <div className="empty-state">
          <div className="bo-status-code" aria-hidden="true">
            404
          </div>
          <h1>{title}</h1>
          <p>{t('admin.notFound.text', { path: `${ADMIN_BASE}${location.pathname}` })}</p>
          <HomeLink />
        </div>
      </section>
    </div>
  );
}

/** A module the staff member's roles do not open. */
export function ForbiddenPage({ entry }: { entry: TMenuEntry }) {
  const { t } = useI18n();
  const title = t('admin.forbidden.title');
  useDocumentTitle(title);
  return (
    <div className="bo-page">
      <section className="card bo-status-card">
        <div className="empty-state">
          <div className="empty-state-icon bo-icon-muted">
            <Icon name="lock" size={26} />
          </div>
          <h1>{title}</h1>
          <p>{t('admin.forbidden.text', { module: t(`admin.menu.${entry.key}`) })}</p>
          <HomeLink />
        </div>
      </section>
    </div>
  );
}

/** Signed in, but no module at all. */
export function NoModulesPage() {
  const { t } = useI18n();
  const title = t('admin.noModules.title');
  useDocumentTitle(title);
  return (
    <div className="bo-page">
      <section className="card bo-status-card">
        <div className="empty-state">
          <div className="empty-state-icon bo-icon-muted">
            <Icon name="compass" size={26} />
          </div>
          <h1>{title}</h1>
          <p>{t('admin.noModules.text')}</p>
        </div>
      </section>
    </div>
  );
}

/** Full-screen splash while the session is checked. */
export function SessionSplash() {
  const { t } = useI18n();
  return (
    <div className="bo-splash" role="status" aria-live="polite">
      <BrandMark size={40} />
      <span className="spinner" aria-hidden="true" />
      <span className="bo-splash-text">{t('admin.session.loading')}</span>
    </div>
  );
}

/** Full-screen error when the session check fails for a reason other than "not signed in". */
export function SessionError({ message, onRetry }: { message: string | null; onRetry(): void }) {
  const { t } = useI18n();
  return (
    <div className="bo-splash">
      <div className="card bo-status-card bo-splash-card" role="alert">
        <div className="empty-state">
          <div className="empty-state-icon bo-icon-danger">
            <Icon name="alert" size={26} />
          </div>
          <h1>{t('admin.session.errorTitle')}</h1>
          <p>{message ?? t('admin.session.errorText')}</p>
          <button type="button" className="btn btn-primary btn-sm bo-empty-action" onClick={onRetry}>
            <Icon name="refresh" size={14} />
            {t('admin.common.retry')}
          </button>
        </div>
      </div>
    </div>
  );
}

export function firstVisiblePath(permissions: readonly string[]): string | null {
  const first = visibleMenu(permissions)[0];
  return first ? first.path : null;
}

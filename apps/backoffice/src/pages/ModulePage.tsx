import type { TMenuEntry } from '@broker/contracts/permissions';
import { Link } from 'react-router';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { useDocumentTitle, useI18n } from '../i18n';
import { useSession } from '../session';

/** A module that has not shipped yet: its title, what it will do, and a coming-soon state. */
export function ModulePage({ entry }: { entry: TMenuEntry }) {
  const { t } = useI18n();
  const { can } = useSession();
  const title = t(`admin.menu.${entry.key}`);
  useDocumentTitle(title);
  return (
    <div className="bo-page">
      <PageHeader
        title={title}
        description={t(`admin.module.${entry.key}.description`)}
        badge={
          entry.coming ? <span className="badge bo-badge-soon">{t('admin.common.comingSoon')}</span> : null
        }
      />
      <section className="card bo-empty-card">
        <div className="bo-empty-preview" aria-hidden="true">
          <div className="bo-ghost-toolbar">
            <span />
            <span />
            <span />
          </div>
          {[0, 1, 2, 3].map((row) => (
            <div key={row} className="bo-ghost-row">
              <span />
              <span />
              <span />
              <span />
            </div>
          ))}
        </div>
        <div className="empty-state">
          <div className="empty-state-icon">
            <Icon name={entry.icon} size={26} />
          </div>
          <h2>{t('admin.module.comingTitle', { module: title })}</h2>
          <p>{t('admin.module.comingText')}</p>
          {can('statistics.view') ? (
            <Link to="/" className="btn btn-secondary btn-sm bo-empty-action">
              <Icon name="arrowLeft" size={14} />
              {t('admin.common.backToDashboard')}
            </Link>
          ) : null}
        </div>
      </section>
    </div>
  );
}

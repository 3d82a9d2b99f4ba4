import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';

/** Placeholder of the feedback tab until its own work replaces this file. */
export function Component() {
  const { t } = useI18n();
  return (
    <div className="card" data-testid="settings-feedback">
      <div className="empty-state">
        <div className="empty-state-icon">
          <Icon name="news" size={26} />
        </div>
        <h3>{t('settings.tabs.feedback')}</h3>
        <p>{t('settings.coming')}</p>
      </div>
    </div>
  );
}

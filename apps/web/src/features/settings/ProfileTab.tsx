import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';

/** Placeholder of the profile tab until its own work replaces this file. */
export function Component() {
  const { t } = useI18n();
  return (
    <div className="card" data-testid="settings-profile">
      <div className="empty-state">
        <div className="empty-state-icon">
          <Icon name="user" size={26} />
        </div>
        <h3>{t('settings.tabs.profile')}</h3>
        <p>{t('settings.coming')}</p>
      </div>
    </div>
  );
}

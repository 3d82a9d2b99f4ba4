import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { SectionHeader } from './SectionHeader';

export function Component() {
  const { t, lang } = useI18n();
  return (
    <>
      <SectionHeader
        title={t('pc.menu.account')}
        subtitle={t('pc.account.subtitle')}
        actions={
          <Link
            to={paths.personalCenter(lang, 'account/create')}
            className="btn btn-primary"
            data-testid="open-account"
          >
            <Icon name="plus" size={18} />
            {t('pc.account.open')}
          </Link>
        }
      />
      <div className="card">
        <div className="empty-state">
          <div className="empty-state-icon">
            <Icon name="wallet" size={26} />
          </div>
          <h3>{t('pc.account.emptyTitle')}</h3>
          <p>{t('pc.account.emptyText')}</p>
        </div>
      </div>
    </>
  );
}

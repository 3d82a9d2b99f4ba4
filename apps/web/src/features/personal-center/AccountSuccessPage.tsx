import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';

export function Component() {
  const { t, lang } = useI18n();
  return (
    <div className="card">
      <div className="empty-state">
        <div className="empty-state-icon success">
          <Icon name="check" size={28} />
        </div>
        <h3>{t('pc.success.title')}</h3>
        <p>{t('pc.success.text')}</p>
        <Link to={paths.personalCenter(lang, 'account')} className="btn btn-primary">
          {t('pc.success.toAccounts')}
        </Link>
      </div>
    </div>
  );
}

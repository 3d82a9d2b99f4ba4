import { useI18n } from '../../lib/i18n';

/** Sign-in accounts linked to this trader (Google, Apple and others): filled in by its own work. */
export function LinkedAccounts() {
  const { t } = useI18n();
  return (
    <section className="card st-card" data-testid="linked-accounts">
      <header className="st-card-head">
        <div>
          <h2>{t('settings.linked.title')}</h2>
          <p>{t('settings.linked.text')}</p>
        </div>
      </header>
    </section>
  );
}

import { Link } from 'react-router';
import { useI18n } from '../lib/i18n';

export function Logo({ lang }: { lang: string }) {
  const { t } = useI18n();
  return (
    <Link to={`/${lang}`} className="logo" aria-label={t('brand.name')} reloadDocument={false}>
      <svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--brand-fill)" />
        <path
          d="M7 21l6-7 4 4 8-9"
          fill="none"
          stroke="#fff"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="logo-text">{t('brand.name')}</span>
    </Link>
  );
}

import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { useI18n } from '../../lib/i18n';
import { SectionHeader } from './SectionHeader';

const KINDS = ['demo', 'experience', 'real'] as const;

export function Component() {
  const { t, lang, formatNumber } = useI18n();
  return (
    <>
      <SectionHeader title={t('pc.create.title')} subtitle={t('pc.create.subtitle')} />
      <div className="choice-grid">
        {KINDS.map((kind) => (
          <article key={kind} className="choice-card card" data-kind={kind}>
            <h3>{t(`home.accounts.${kind}.title`)}</h3>
            <p className="account-figure">
              {t(`home.accounts.${kind}.figure`, { amount: formatNumber(100_000), cap: formatNumber(100) })}
            </p>
            <p>{t(`home.accounts.${kind}.text`)}</p>
            <span className="badge">{t('pc.create.soon')}</span>
          </article>
        ))}
      </div>
      <p className="pc-back">
        <Link to={paths.personalCenter(lang, 'account')}>{t('pc.create.back')}</Link>
      </p>
    </>
  );
}

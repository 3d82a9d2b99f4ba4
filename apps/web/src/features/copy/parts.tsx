import type { TTranslate } from '@broker/i18n/translator';
import { Link, useLocation } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { useShell } from '../../lib/store';
import { riskBand, type TProblem } from './copy-form';

/** A field problem's text. */
export const problemText = (t: TTranslate, problem: TProblem | undefined) =>
  problem ? t(`copy.problem.${problem.key}`, problem.values ?? {}) : null;

/** The risk score 1-10 as a badge coloured by band, with the band's word. */
export function RiskBadge({ score, testId }: { score: number; testId?: string }) {
  const { t } = useI18n();
  const band = riskBand(score);
  return (
    <span
      className="cp-risk"
      role="img"
      data-band={band}
      data-testid={testId}
      title={t('copy.risk.help')}
      aria-label={t('copy.risk.label', { score, band: t(`copy.risk.${band}`) })}
    >
      <span className="cp-risk-score num" aria-hidden="true">
        {score}
      </span>
      <span aria-hidden="true">{t(`copy.risk.${band}`)}</span>
    </span>
  );
}

/** Initials of a nick on a coloured disc, or the avatar picture. */
export function Avatar({ nick, src, size = 44 }: { nick: string; src: string | null; size?: number }) {
  const initials = [...nick.trim()].slice(0, 2).join('').toUpperCase() || '?';
  if (src) return <img className="cp-avatar" src={src} alt="" width={size} height={size} />;
  return (
    <span className="cp-avatar" style={{ width: size, height: size }} aria-hidden="true">
      {initials}
    </span>
  );
}

/** The title row of the copy-trading pages, with the ways to the trader's copies and to leading. */
export function CopyHeader({ title, subtitle }: { title: string; subtitle?: string }) {
  const { t, lang } = useI18n();
  const { user } = useShell();
  const { pathname } = useLocation();
  const current = (href: string) => (pathname === href ? ('page' as const) : undefined);
  return (
    <div className="ui-head">
      <div className="ui-head-text">
        <h1>{title}</h1>
        {subtitle && <p>{subtitle}</p>}
      </div>
      <nav className="cp-head-links" aria-label={t('copy.nav.label')}>
        <Link
          to={paths.copyTrading(lang)}
          className="btn btn-secondary btn-sm"
          aria-current={current(paths.copyTrading(lang))}
          data-testid="nav-leaders"
        >
          <Icon name="search" size={16} />
          {t('copy.nav.leaders')}
        </Link>
        {user && (
          <Link
            to={paths.myCopies(lang)}
            className="btn btn-secondary btn-sm"
            aria-current={current(paths.myCopies(lang))}
            data-testid="nav-mine"
          >
            <Icon name="copy" size={16} />
            {t('copy.nav.mine')}
          </Link>
        )}
        <Link
          to={paths.leadDashboard(lang)}
          className="btn btn-secondary btn-sm"
          aria-current={current(paths.leadDashboard(lang))}
          data-testid="nav-lead"
        >
          <Icon name="trophy" size={16} />
          {t('copy.nav.lead')}
        </Link>
      </nav>
    </div>
  );
}

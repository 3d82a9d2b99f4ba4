import { Link } from 'react-router';
import { paths } from '../app/paths';
import { shipped } from '../app/upcoming';
import { useI18n } from '../lib/i18n';
import { useShell } from '../lib/store';
import { Logo } from './Logo';

/**
 * The site footer: products (features still to come are left out, app/upcoming.ts), the account's
 * pages (sign-in only for a visitor) and the legal texts.
 */
export function Footer() {
  const { t, lang } = useI18n();
  const { user } = useShell();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <div className="footer-brand">
          <Logo lang={lang} />
          <p>{t('footer.tagline')}</p>
        </div>
        <nav className="footer-columns" aria-label={t('footer.label')} data-testid="footer-nav">
          <div>
            <h2>{t('footer.products')}</h2>
            <Link to={paths.markets(lang)}>{t('footer.markets')}</Link>
            <Link to={paths.converter(lang)}>{t('nav.converter')}</Link>
            {shipped('copyTrading') && <a href={paths.copyTrading(lang)}>{t('nav.copy')}</a>}
            {shipped('strategies') && <a href={paths.strategies(lang)}>{t('nav.strategies')}</a>}
            <Link to={paths.qrcode(lang)}>{t('nav.download')}</Link>
          </div>
          <div>
            <h2>{t('footer.account')}</h2>
            {!user && (
              <Link to={paths.login(lang)} data-testid="footer-sign-in">
                {t('header.signIn')}
              </Link>
            )}
            <Link to={paths.personalCenter(lang, 'account')}>{t('footer.personalCenter')}</Link>
            <Link to={paths.personalCenter(lang, 'deposit')}>{t('pc.menu.deposit')}</Link>
          </div>
          <div>
            <h2>{t('footer.legal')}</h2>
            <Link to={paths.terms(lang)} data-testid="footer-terms">
              {t('footer.terms')}
            </Link>
            <Link to={paths.privacy(lang)} data-testid="footer-privacy">
              {t('footer.privacy')}
            </Link>
            <Link to={paths.privacyGoogle(lang)}>{t('footer.privacyGoogle')}</Link>
          </div>
        </nav>
      </div>
      <div className="footer-risk">
        <p>
          <strong>{t('footer.riskTitle')}</strong> {t('footer.riskText')}
        </p>
        <p className="footer-copy">{t('footer.copyright', { year })}</p>
      </div>
    </footer>
  );
}

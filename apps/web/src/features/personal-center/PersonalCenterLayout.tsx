import { Link, Outlet, useLocation } from 'react-router';
import { activeSection, PERSONAL_CENTER_SECTIONS, paths } from '../../app/paths';
import { Header } from '../../components/Header';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { TradingProvider } from '../../lib/trading/store';

export const SECTION_ICONS: Record<(typeof PERSONAL_CENTER_SECTIONS)[number], string> = {
  account: 'wallet',
  deposit: 'deposit',
  withdrawal: 'withdraw',
  history: 'history',
  platform: 'platform',
  setting: 'settings',
  financial: 'financial',
};

/** Personal centre (spec 2.2): seven-entry side menu under a dark header without navigation. */
export function Component() {
  const { t, lang } = useI18n();
  const location = useLocation();
  const active = activeSection(location.pathname);
  return (
    <div className="page pc-page">
      <Header background="dark" navVisible={false} />
      <div className="pc-shell">
        <nav className="pc-menu" aria-label={t('pc.menu.label')} data-testid="pc-menu">
          {PERSONAL_CENTER_SECTIONS.map((section) => (
            <Link
              key={section}
              to={paths.personalCenter(lang, section)}
              className={`pc-menu-item${section === active ? ' active' : ''}`}
              aria-current={section === active ? 'page' : undefined}
              data-section={section}
            >
              <Icon name={SECTION_ICONS[section]} size={18} />
              <span>{t(`pc.menu.${section}`)}</span>
            </Link>
          ))}
        </nav>
        <main className="pc-content" id="main">
          {/* The trader's accounts (spec 3 user state), shared by the sections that show them. */}
          <TradingProvider>
            <Outlet />
          </TradingProvider>
        </main>
      </div>
    </div>
  );
}

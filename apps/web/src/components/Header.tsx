import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../app/paths';
import { useI18n } from '../lib/i18n';
import { useShell } from '../lib/store';
import { Icon } from './Icon';
import { LanguageSwitch } from './LanguageSwitch';
import { Logo } from './Logo';
import { UserMenu } from './UserMenu';

export type THeaderBackground = 'transparent' | 'solid' | 'dark';

export const NAV_ITEMS = [
  { key: 'nav.home', href: (lang: string) => paths.home(lang) },
  { key: 'nav.markets', href: (lang: string) => `${paths.home(lang)}#markets` },
  { key: 'nav.copy', href: (lang: string) => `${paths.home(lang)}#copy-trading` },
  { key: 'nav.strategies', href: (lang: string) => `${paths.home(lang)}#strategies` },
  { key: 'nav.download', href: (lang: string) => paths.qrcode(lang) },
] as const;

/** The header (spec 2.3): background, navigation visibility and the active navigation index as inputs. */
export function Header({
  background = 'solid',
  navVisible = true,
  activeIndex = -1,
}: {
  background?: THeaderBackground;
  navVisible?: boolean;
  activeIndex?: number;
}) {
  const { t, lang } = useI18n();
  const { user } = useShell();
  const [drawer, setDrawer] = useState(false);

  return (
    <header className={`site-header header-${background}`} data-nav={navVisible ? 'visible' : 'hidden'}>
      <div className="header-inner">
        <Logo lang={lang} />
        {navVisible && (
          <nav className={`main-nav${drawer ? ' open' : ''}`} aria-label={t('nav.label')}>
            {NAV_ITEMS.map((item, index) => (
              <Link
                key={item.key}
                to={item.href(lang)}
                className={`nav-link${index === activeIndex ? ' active' : ''}`}
                aria-current={index === activeIndex ? 'page' : undefined}
                onClick={() => setDrawer(false)}
              >
                {t(item.key)}
              </Link>
            ))}
          </nav>
        )}
        <div className="header-actions">
          <LanguageSwitch />
          {user ? (
            <UserMenu name={user.name} />
          ) : (
            <>
              <Link to={paths.login(lang)} className="btn btn-ghost btn-sm header-signin">
                {t('header.signIn')}
              </Link>
              <Link to={paths.login(lang)} className="btn btn-primary btn-sm header-open">
                {t('header.openAccount')}
              </Link>
            </>
          )}
          {navVisible && (
            <button
              type="button"
              className="header-burger"
              aria-label={t(drawer ? 'nav.close' : 'nav.open')}
              aria-expanded={drawer}
              onClick={() => setDrawer((v) => !v)}
            >
              <Icon name={drawer ? 'close' : 'menu'} size={22} />
            </button>
          )}
        </div>
      </div>
    </header>
  );
}

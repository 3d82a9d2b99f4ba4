import { useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths, wayIn } from '../app/paths';
import { shipped, type TUpcomingFeature } from '../app/upcoming';
import { useI18n } from '../lib/i18n';
import { useShell } from '../lib/store';
import { Icon } from './Icon';
import { LanguageSwitch } from './LanguageSwitch';
import { Logo } from './Logo';
import { UserMenu } from './UserMenu';

export type THeaderBackground = 'transparent' | 'solid' | 'dark';

/**
 * The navigation, by index (a route's `handle.nav` names the active one). An entry with a `feature`
 * shows only once that feature has shipped (app/upcoming.ts).
 */
export const NAV_ITEMS: readonly {
  key: string;
  href: (lang: string) => string;
  feature?: TUpcomingFeature;
}[] = [
  { key: 'nav.home', href: (lang: string) => paths.home(lang) },
  { key: 'nav.markets', href: (lang: string) => paths.markets(lang) },
  { key: 'trade.nav', href: (lang: string) => paths.trade(lang) },
  { key: 'nav.converter', href: (lang: string) => paths.converter(lang) },
  { key: 'nav.copy', href: (lang: string) => paths.copyTrading(lang), feature: 'copyTrading' },
  { key: 'nav.strategies', href: (lang: string) => paths.strategies(lang), feature: 'strategies' },
  { key: 'nav.download', href: (lang: string) => paths.qrcode(lang) },
];

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? () => undefined : useLayoutEffect;

/**
 * Whether the navigation links do not fit on one line beside the logo and the actions (long
 * languages, narrow windows): the header then shows the menu button, as on phones.
 */
function useCompactNav(enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [value, setValue] = useState(false);
  const needed = useRef(0);
  useIsomorphicLayoutEffect(() => {
    const inner = ref.current;
    if (!enabled || !inner) return;
    const measure = () => {
      const nav = inner.querySelector<HTMLElement>('.main-nav');
      const logo = inner.querySelector<HTMLElement>('.logo');
      const actions = inner.querySelector<HTMLElement>('.header-actions');
      const burger = inner.querySelector<HTMLElement>('.header-burger');
      if (!nav || !logo || !actions) return;
      if (getComputedStyle(nav).display !== 'none' && !nav.classList.contains('open')) {
        // The links' width on one line, measured before the browser paints.
        nav.classList.add('nav-measure');
        needed.current = nav.scrollWidth;
        nav.classList.remove('nav-measure');
      }
      const style = getComputedStyle(inner);
      const gap = Number.parseFloat(style.columnGap) || 0;
      const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
      const burgerWidth =
        burger && getComputedStyle(burger).display !== 'none' ? burger.offsetWidth + gap : 0;
      const available =
        inner.clientWidth - padding - logo.offsetWidth - (actions.offsetWidth - burgerWidth) - 2 * gap;
      setValue(needed.current > available);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(inner);
    return () => observer.disconnect();
  }, [enabled]);
  return { ref, value };
}

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
  const compact = useCompactNav(navVisible);

  return (
    <header
      className={`site-header header-${background}${compact.value ? ' nav-compact' : ''}`}
      data-nav={navVisible ? 'visible' : 'hidden'}
    >
      <div className="header-inner" ref={compact.ref}>
        <Logo lang={lang} />
        {navVisible && (
          <nav className={`main-nav${drawer ? ' open' : ''}`} aria-label={t('nav.label')}>
            {NAV_ITEMS.map(
              (item, index) =>
                shipped(item.feature) && (
                  <Link
                    key={item.key}
                    to={item.href(lang)}
                    className={`nav-link${index === activeIndex ? ' active' : ''}`}
                    aria-current={index === activeIndex ? 'page' : undefined}
                    onClick={() => setDrawer(false)}
                  >
                    {t(item.key)}
                  </Link>
                ),
            )}
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
              <Link
                to={wayIn(lang, false)}
                className="btn btn-primary btn-sm header-open"
                data-testid="header-open"
              >
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

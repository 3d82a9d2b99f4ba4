import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { paths, SETTINGS_TABS } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';

const TAB_ICONS = {
  preferences: 'settings',
  security: 'shield',
  profile: 'user',
  verification: 'doc',
  feedback: 'news',
} as const;

/** The settings section of the personal centre: one tab bar, each tab its own address. */
export function Component() {
  const { t, lang } = useI18n();
  const { pathname } = useLocation();
  const tabs = useRef<HTMLElement>(null);
  const openTab = SETTINGS_TABS.find((tab) => paths.settings(lang, tab) === pathname.replace(/\/$/, ''));

  // On a narrow screen the tab row scrolls: keep the open tab in view.
  useEffect(() => {
    const bar = tabs.current;
    const active = bar?.querySelector<HTMLElement>(`[data-tab="${openTab}"]`);
    if (bar && active && bar.scrollWidth > bar.clientWidth)
      bar.scrollLeft = active.offsetLeft - (bar.clientWidth - active.offsetWidth) / 2;
  }, [openTab]);

  return (
    <div className="st-page" data-testid="settings">
      <div className="pc-head">
        <div>
          <h1>{t('pc.menu.setting')}</h1>
          <p>{t('settings.subtitle')}</p>
        </div>
      </div>
      <nav ref={tabs} className="st-tabs" aria-label={t('settings.tabs.label')}>
        {SETTINGS_TABS.map((tab) => (
          <NavLink
            key={tab}
            to={paths.settings(lang, tab)}
            end
            className={({ isActive }) => `st-tab${isActive ? ' active' : ''}`}
            data-tab={tab}
          >
            <Icon name={TAB_ICONS[tab]} size={16} />
            <span>{t(`settings.tabs.${tab}`)}</span>
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

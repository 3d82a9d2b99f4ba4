import type { TMenuEntry } from '@broker/contracts/permissions';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Icon } from '../components/Icon';
import { LanguageSwitch, ThemeSwitch } from '../components/Switches';
import { useI18n } from '../i18n';
import { type TStaff, useSession } from '../session';
import { initials } from './Sidebar';

export function Topbar({
  staff,
  current,
  collapsed,
  drawerOpen,
  onToggleCollapsed,
  onOpenDrawer,
}: {
  staff: TStaff;
  current: TMenuEntry | undefined;
  collapsed: boolean;
  drawerOpen: boolean;
  onToggleCollapsed(): void;
  onOpenDrawer(): void;
}) {
  const { t } = useI18n();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);

  const onSignOut = async () => {
    setLeaving(true);
    await signOut();
    navigate('/login', { replace: true });
  };

  const currentLabel = current ? t(`admin.menu.${current.key}`) : null;

  return (
    <header className="bo-topbar">
      <button
        type="button"
        className="bo-iconbtn bo-only-mobile"
        onClick={onOpenDrawer}
        aria-label={t('admin.layout.openMenu')}
        aria-expanded={drawerOpen}
        aria-controls="bo-sidebar"
      >
        <Icon name="hamburger" />
      </button>
      <button
        type="button"
        className="bo-iconbtn bo-only-desktop"
        onClick={onToggleCollapsed}
        aria-label={collapsed ? t('admin.layout.expand') : t('admin.layout.collapse')}
        title={collapsed ? t('admin.layout.expand') : t('admin.layout.collapse')}
        aria-pressed={collapsed}
      >
        <Icon name="sidebar" />
      </button>
      <nav className="bo-crumbs" aria-label={t('admin.layout.breadcrumb')}>
        <ol>
          <li className="bo-crumb-root">
            <Link to="/">{t('admin.app.product')}</Link>
          </li>
          {currentLabel ? (
            <li aria-current="page">
              <Icon name="chevronRight" size={14} className="bo-crumb-sep" />
              <span className="bo-crumb-label">{currentLabel}</span>
            </li>
          ) : null}
        </ol>
      </nav>
      <div className="bo-topbar-actions">
        <LanguageSwitch />
        <ThemeSwitch />
        <span className="bo-topbar-divider" aria-hidden="true" />
        <div className="bo-user" title={t('admin.layout.signedInAs', { name: staff.displayName })}>
          <span className="bo-avatar" aria-hidden="true">
            {initials(staff.displayName || staff.username)}
          </span>
          <span className="bo-user-text">
            <strong>{staff.displayName}</strong>
            <span>@{staff.username}</span>
          </span>
        </div>
        <button
          type="button"
          className="bo-iconbtn bo-signout"
          onClick={onSignOut}
          disabled={leaving}
          aria-label={leaving ? t('admin.layout.signingOut') : t('admin.layout.signOut')}
          title={t('admin.layout.signOut')}
        >
          {leaving ? <span className="spinner bo-spinner-sm" aria-hidden="true" /> : <Icon name="logout" />}
          <span className="bo-signout-text">{t('admin.layout.signOut')}</span>
        </button>
      </div>
    </header>
  );
}

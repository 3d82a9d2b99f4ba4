import type { TMenuEntry } from '@broker/contracts/permissions';
import { useCallback, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link, useNavigate } from 'react-router';
import { SecurityDialog } from '../areas/access/SecurityDialog';
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
  const [securityOpen, setSecurityOpen] = useState(false);
  const closeSecurity = useCallback(() => setSecurityOpen(false), []);
  /** Money permissions wait until two-factor is on: the lock shows a warning until then. */
  const needsTwoFactor = staff.twoFactorRequired && !staff.twoFactor;

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
          className={`bo-iconbtn ac-security-btn${needsTwoFactor ? ' ac-security-warn' : ''}`}
          onClick={() => setSecurityOpen(true)}
          aria-label={
            needsTwoFactor ? t('admin.access.security.openNeeded') : t('admin.access.security.open')
          }
          title={needsTwoFactor ? t('admin.access.security.openNeeded') : t('admin.access.security.open')}
          data-testid="open-security"
        >
          <Icon name={staff.twoFactor ? 'shield' : 'lock'} />
          {needsTwoFactor ? <span className="ac-dot" aria-hidden="true" /> : null}
        </button>
        {/* In a portal: the top bar's backdrop filter would otherwise contain the fixed dialog. */}
        {securityOpen ? createPortal(<SecurityDialog onClose={closeSecurity} />, document.body) : null}
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

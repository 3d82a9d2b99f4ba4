import type { TMenuEntry } from '@broker/contracts/permissions';
import { NavLink } from 'react-router';
import { BrandMark, Icon } from '../components/Icon';
import { useI18n } from '../i18n';
import { routerPath } from '../lib/redirect';
import { arrangedMenu } from '../menu';
import '../areas/access/sidebar.css';
import type { TStaff } from '../session';

export function initials(name: string): string {
  const letters = name.trim().split(/\s+/).filter(Boolean);
  if (letters.length === 0) return '?';
  if (letters.length === 1) return [...(letters[0] ?? '?')].slice(0, 2).join('').toUpperCase();
  return `${[...(letters[0] ?? '')][0] ?? ''}${[...(letters[1] ?? '')][0] ?? ''}`.toUpperCase();
}

export function Sidebar({
  entries,
  staff,
  collapsed,
  onClose,
}: {
  entries: readonly TMenuEntry[];
  staff: TStaff;
  collapsed: boolean;
  onClose(): void;
}) {
  const { t } = useI18n();
  return (
    <aside className="bo-sidebar" id="bo-sidebar">
      <div className="bo-sidebar-brand">
        <BrandMark size={30} />
        <div className="bo-sidebar-brandtext">
          <strong>{t('admin.app.brand')}</strong>
          <span>{t('admin.app.product')}</span>
        </div>
        <button
          type="button"
          className="bo-iconbtn bo-drawer-close"
          onClick={onClose}
          aria-label={t('admin.layout.closeMenu')}
        >
          <Icon name="close" />
        </button>
      </div>
      <nav className="bo-nav" aria-label={t('admin.layout.mainNav')}>
        {arrangedMenu(staff.menu, entries).map((group, index) => (
          <div className="ac-nav-group" key={group.title ?? `untitled-${index}`}>
            {group.title ? (
              <h2 className="ac-nav-heading" id={`nav-section-${index}`}>
                {group.title}
              </h2>
            ) : null}
            <ul aria-labelledby={group.title ? `nav-section-${index}` : undefined}>
              {group.entries.map((entry) => {
                const label = t(`admin.menu.${entry.key}`);
                return (
                  <li key={entry.key}>
                    <NavLink
                      to={routerPath(entry.path)}
                      end={routerPath(entry.path) === '/'}
                      className="bo-nav-link"
                      title={collapsed ? label : undefined}
                    >
                      <Icon name={entry.icon} />
                      <span className="bo-nav-label">{label}</span>
                      {entry.coming ? <span className="bo-nav-dot" aria-hidden="true" /> : null}
                    </NavLink>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
      <div className="bo-sidebar-foot" title={t('admin.layout.signedInAs', { name: staff.displayName })}>
        <span className="bo-avatar" aria-hidden="true">
          {initials(staff.displayName || staff.username)}
        </span>
        <div className="bo-sidebar-user">
          <strong>{staff.displayName}</strong>
          <span>@{staff.username}</span>
        </div>
      </div>
    </aside>
  );
}

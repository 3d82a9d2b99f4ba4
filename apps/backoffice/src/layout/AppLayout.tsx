import { useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useI18n } from '../i18n';
import { readStorage, SIDEBAR_STORAGE_KEY, writeStorage } from '../lib/preferences';
import { menuEntryFor, visibleMenu } from '../menu';
import { useStaff } from '../session';
import { Sidebar } from './Sidebar';
import { Topbar } from './Topbar';

/** The signed-in frame: side menu (a drawer under 900px), top bar and the page. */
export function AppLayout() {
  const staff = useStaff();
  const { t } = useI18n();
  const location = useLocation();
  const [collapsed, setCollapsed] = useState(() => readStorage(SIDEBAR_STORAGE_KEY) === 'collapsed');
  const [drawerOpen, setDrawerOpen] = useState(false);

  const entries = useMemo(() => visibleMenu(staff.permissions), [staff.permissions]);
  const current = menuEntryFor(location.pathname);

  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  // A new page closes the drawer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation on purpose
  useEffect(() => {
    setDrawerOpen(false);
  }, [location.pathname]);

  // The page on screen has rendered (browser tests wait for it after a client-side navigation).
  useEffect(() => {
    document.documentElement.dataset.path = location.pathname + location.search;
  }, [location.pathname, location.search]);

  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.body.classList.add('bo-noscroll');
    document.querySelector<HTMLElement>('#bo-sidebar .bo-drawer-close')?.focus();
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('bo-noscroll');
    };
  }, [drawerOpen]);

  const toggleCollapsed = () => {
    setCollapsed((value) => {
      writeStorage(SIDEBAR_STORAGE_KEY, value ? 'expanded' : 'collapsed');
      return !value;
    });
  };

  return (
    <div className="bo-shell" data-collapsed={collapsed} data-drawer={drawerOpen ? 'open' : 'closed'}>
      <a className="bo-skip" href="#bo-main">
        {t('admin.layout.skipToContent')}
      </a>
      <Sidebar entries={entries} staff={staff} collapsed={collapsed} onClose={closeDrawer} />
      <button
        type="button"
        className="bo-overlay"
        tabIndex={-1}
        aria-label={t('admin.layout.closeMenu')}
        onClick={closeDrawer}
      />
      <div className="bo-main">
        <Topbar
          staff={staff}
          current={current}
          collapsed={collapsed}
          drawerOpen={drawerOpen}
          onToggleCollapsed={toggleCollapsed}
          onOpenDrawer={() => setDrawerOpen(true)}
        />
        <main className="bo-content" id="bo-main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}

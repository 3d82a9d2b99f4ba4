import { BACKOFFICE_MENU, type TMenuEntry } from '@broker/contracts/permissions';
import { createBrowserRouter, Navigate, Outlet, type RouteObject, useLocation } from 'react-router';
import { MODULE_PAGES } from './areas/registry';
import { AppLayout } from './layout/AppLayout';
import { ADMIN_BASE, loginPathFor, routerPath } from './lib/redirect';
import { DashboardPage } from './pages/DashboardPage';
import { LoginPage } from './pages/LoginPage';
import { ModulePage } from './pages/ModulePage';
import {
  ForbiddenPage,
  firstVisiblePath,
  NoModulesPage,
  NotFoundPage,
  SessionError,
  SessionSplash,
} from './pages/StatusPages';
import { useSession } from './session';

/** Pages below need a signed-in staff member; without one, the sign-in page (remembering the way back). */
function RequireSession() {
  const { state, reload } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <SessionSplash />;
  if (state.status === 'error')
    return (
      <SessionError message={state.error.kind === 'answer' ? state.error.message : null} onRetry={reload} />
    );
  if (state.status === 'anonymous') {
    const to =
      state.reason === 'signedOut' ? '/login' : loginPathFor(`${location.pathname}${location.search}`);
    return <Navigate to={to} replace />;
  }
  return <Outlet />;
}

/** A module page for staff holding its permission. */
function Guarded({ entry }: { entry: TMenuEntry }) {
  const { can } = useSession();
  if (!can(entry.permission)) return <ForbiddenPage entry={entry} />;
  if (entry.key === 'dashboard') return <DashboardPage />;
  const Page = MODULE_PAGES[entry.key];
  return Page ? <Page /> : <ModulePage entry={entry} />;
}

/** /admin: the dashboard, or the first module the staff member may open. */
function Home({ entry }: { entry: TMenuEntry }) {
  const { can, state } = useSession();
  if (can(entry.permission)) return <DashboardPage />;
  const first = state.status === 'ready' ? firstVisiblePath(state.staff.permissions) : null;
  return first ? <Navigate to={routerPath(first)} replace /> : <NoModulesPage />;
}

const dashboard = BACKOFFICE_MENU.find((entry) => routerPath(entry.path) === '/');

const pages: RouteObject[] = [
  dashboard
    ? { index: true, element: <Home entry={dashboard} /> }
    : { index: true, element: <NoModulesPage /> },
  ...BACKOFFICE_MENU.filter((entry) => routerPath(entry.path) !== '/').map((entry) => ({
    path: `${routerPath(entry.path).slice(1)}/*`,
    element: <Guarded entry={entry} />,
  })),
  { path: '*', element: <NotFoundPage /> },
];

export const router = createBrowserRouter(
  [
    { path: '/login', element: <LoginPage /> },
    { element: <RequireSession />, children: [{ element: <AppLayout />, children: pages }] },
  ],
  { basename: ADMIN_BASE },
);

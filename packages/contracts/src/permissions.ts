/**
 * One permission map for the server and the back office. Menu permissions open a module's page;
 * button permissions allow an action inside it. Later issues add their buttons here.
 */
export interface TMenuEntry {
  key: string;
  path: string;
  permission: string;
  icon: string;
  /** True until the issue that builds the module lands. */
  coming: boolean;
}

export const BACKOFFICE_MENU: readonly TMenuEntry[] = [
  { key: 'dashboard', path: '/admin', permission: 'statistics.view', icon: 'chart', coming: false },
  {
    key: 'statistics',
    path: '/admin/statistics',
    permission: 'statistics.view',
    icon: 'chart',
    coming: true,
  },
  { key: 'users', path: '/admin/users', permission: 'users.view', icon: 'users', coming: true },
  { key: 'market', path: '/admin/market', permission: 'market.view', icon: 'market', coming: true },
  { key: 'roles', path: '/admin/roles', permission: 'roles.view', icon: 'shield', coming: true },
  { key: 'menus', path: '/admin/menus', permission: 'menus.view', icon: 'menu', coming: true },
  { key: 'api', path: '/admin/api', permission: 'api.view', icon: 'key', coming: true },
  {
    key: 'operations',
    path: '/admin/operations',
    permission: 'operations.view',
    icon: 'history',
    coming: true,
  },
  { key: 'packages', path: '/admin/packages', permission: 'packages.view', icon: 'box', coming: true },
  { key: 'funding', path: '/admin/funding', permission: 'funding.view', icon: 'wallet', coming: true },
  { key: 'kyc', path: '/admin/kyc', permission: 'kyc.view', icon: 'id', coming: true },
  { key: 'versions', path: '/admin/versions', permission: 'versions.view', icon: 'tag', coming: true },
];

export const ALL_PERMISSIONS: readonly string[] = [...new Set(BACKOFFICE_MENU.map((m) => m.permission))];

/**
 * One permission map for the server and the back office. A menu permission (`<module>.view`) opens a
 * module's page; a button permission (`<module>.<action>`) allows one action inside it. Every
 * back-office route names the permission it needs (see the route catalogue), the server refuses a
 * call without it (403), and the back office hides what a role may not use.
 */
export interface TButtonEntry {
  /** `<module>.<action>`. */
  permission: string;
  /** Moves money or changes a customer's funds: staff holding it must use two-factor sign-in. */
  money?: boolean;
}

export interface TMenuEntry {
  key: string;
  path: string;
  permission: string;
  icon: string;
  /** True until the issue that builds the module lands. */
  coming: boolean;
  /** Actions inside the page, each with its own permission. */
  buttons: readonly TButtonEntry[];
  /** Only the platform operator's staff (the default broker) can hold this menu and its buttons. */
  platform?: boolean;
}

export const BACKOFFICE_MENU: readonly TMenuEntry[] = [
  {
    key: 'dashboard',
    path: '/admin',
    permission: 'statistics.view',
    icon: 'chart',
    coming: false,
    buttons: [],
  },
  {
    key: 'statistics',
    path: '/admin/statistics',
    permission: 'statistics.view',
    icon: 'chart',
    coming: false,
    buttons: [],
  },
  {
    key: 'users',
    path: '/admin/users',
    permission: 'users.view',
    icon: 'users',
    coming: false,
    buttons: [
      { permission: 'users.disable' },
      { permission: 'users.restrict' },
      { permission: 'users.demoReset' },
      { permission: 'users.trade', money: true },
      { permission: 'users.note' },
      { permission: 'users.adjust', money: true },
      { permission: 'users.approve', money: true },
    ],
  },
  {
    key: 'market',
    path: '/admin/market',
    permission: 'market.view',
    icon: 'market',
    coming: false,
    buttons: [{ permission: 'market.edit' }, { permission: 'market.groups' }],
  },
  {
    key: 'risk',
    path: '/admin/risk',
    permission: 'risk.view',
    icon: 'shield',
    coming: false,
    buttons: [{ permission: 'risk.edit' }],
  },
  {
    key: 'roles',
    path: '/admin/roles',
    permission: 'roles.view',
    icon: 'shield',
    coming: false,
    buttons: [{ permission: 'roles.edit' }],
  },
  {
    key: 'staff',
    path: '/admin/staff',
    permission: 'staff.view',
    icon: 'users',
    coming: false,
    // `staff.security`: the broker's sign-in rules; a weakening change waits for a second holder.
    buttons: [{ permission: 'staff.edit' }, { permission: 'staff.security' }],
  },
  {
    key: 'menus',
    path: '/admin/menus',
    permission: 'menus.view',
    icon: 'menu',
    coming: false,
    buttons: [{ permission: 'menus.edit' }],
  },
  { key: 'api', path: '/admin/api', permission: 'api.view', icon: 'key', coming: true, buttons: [] },
  {
    key: 'operations',
    path: '/admin/operations',
    permission: 'operations.view',
    icon: 'history',
    coming: false,
    buttons: [{ permission: 'operations.export' }],
  },
  {
    key: 'packages',
    path: '/admin/packages',
    permission: 'packages.view',
    icon: 'box',
    coming: false,
    buttons: [{ permission: 'packages.edit' }],
  },
  {
    key: 'funding',
    path: '/admin/funding',
    permission: 'funding.view',
    icon: 'wallet',
    coming: false,
    buttons: [
      { permission: 'funding.review', money: true },
      { permission: 'funding.reconcile', money: true },
      { permission: 'funding.settings' },
    ],
  },
  {
    key: 'kyc',
    path: '/admin/kyc',
    permission: 'kyc.view',
    icon: 'id',
    coming: false,
    buttons: [{ permission: 'kyc.review' }],
  },
  {
    key: 'copy',
    path: '/admin/copy',
    permission: 'copy.view',
    icon: 'users',
    coming: false,
    buttons: [{ permission: 'copy.review' }, { permission: 'copy.suspend' }, { permission: 'copy.settings' }],
  },
  {
    key: 'strategies',
    path: '/admin/strategies',
    permission: 'strategies.view',
    icon: 'sparkles',
    coming: false,
    // Stopping a bot closes a customer's positions and moves the money back, as `users.trade` does.
    buttons: [{ permission: 'strategies.stop', money: true }],
  },
  {
    key: 'versions',
    path: '/admin/versions',
    permission: 'versions.view',
    icon: 'tag',
    coming: false,
    buttons: [{ permission: 'versions.edit' }],
  },
  {
    key: 'brokers',
    path: '/admin/brokers',
    permission: 'brokers.view',
    icon: 'box',
    coming: false,
    platform: true,
    buttons: [{ permission: 'brokers.edit' }],
  },
];

const unique = (list: string[]) => [...new Set(list)];

/** Every permission of the map: menus, then their buttons. */
export const ALL_PERMISSIONS: readonly string[] = unique(
  BACKOFFICE_MENU.flatMap((m) => [m.permission, ...m.buttons.map((b) => b.permission)]),
);

/** Permissions only the platform operator's staff may hold (broker management). */
export const PLATFORM_PERMISSIONS: readonly string[] = unique(
  BACKOFFICE_MENU.filter((m) => m.platform).flatMap((m) => [
    m.permission,
    ...m.buttons.map((b) => b.permission),
  ]),
);

/** Permissions a broker's own roles can grant. */
export const BROKER_PERMISSIONS: readonly string[] = ALL_PERMISSIONS.filter(
  (p) => !PLATFORM_PERMISSIONS.includes(p),
);

/** Button permissions that move money: staff holding any of them must have two-factor sign-in on. */
export const MONEY_PERMISSIONS: readonly string[] = BACKOFFICE_MENU.flatMap((m) =>
  m.buttons.filter((b) => b.money).map((b) => b.permission),
);

export const isKnownPermission = (permission: string): boolean => ALL_PERMISSIONS.includes(permission);

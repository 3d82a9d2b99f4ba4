import { BACKOFFICE_MENU, MONEY_PERMISSIONS } from '@broker/contracts/permissions';
import type { TTranslate } from '@broker/i18n/translator';

/** Labels of the button permissions; a button added to the map later shows its action until it has one. */
const BUTTON_LABELS: Record<string, string> = {
  'users.disable': 'admin.access.perm.users.disable',
  'users.restrict': 'admin.access.perm.users.restrict',
  'users.demoReset': 'admin.access.perm.users.demoReset',
  'users.trade': 'admin.access.perm.users.trade',
  'users.note': 'admin.access.perm.users.note',
  'users.adjust': 'admin.access.perm.users.adjust',
  'users.approve': 'admin.access.perm.users.approve',
  'market.edit': 'admin.access.perm.market.edit',
  'market.groups': 'admin.access.perm.market.groups',
  'risk.edit': 'admin.access.perm.risk.edit',
  'roles.edit': 'admin.access.perm.roles.edit',
  'staff.edit': 'admin.access.perm.staff.edit',
  'staff.security': 'admin.access.perm.staff.security',
  'menus.edit': 'admin.access.perm.menus.edit',
  'operations.export': 'admin.access.perm.operations.export',
  'packages.edit': 'admin.access.perm.packages.edit',
  'versions.edit': 'admin.access.perm.versions.edit',
  'brokers.edit': 'admin.access.perm.brokers.edit',
  'copy.review': 'admin.access.perm.copy.review',
  'copy.suspend': 'admin.access.perm.copy.suspend',
  'copy.settings': 'admin.access.perm.copy.settings',
  'strategies.stop': 'admin.access.perm.strategies.stop',
};

export interface TPermissionGroup {
  /** Menu key whose label names the group. */
  key: string;
  /** The menu permission: opens the page. */
  menu: string;
  /** Button permissions: actions inside the page. */
  buttons: { permission: string; money: boolean }[];
}

/**
 * The permission map as a tree for a role editor: one group per menu permission (entries sharing
 * a permission, such as the dashboard and statistics, appear once), limited to what the broker may grant.
 */
export function permissionGroups(grantable: readonly string[]): TPermissionGroup[] {
  const groups: TPermissionGroup[] = [];
  for (const entry of BACKOFFICE_MENU) {
    if (!grantable.includes(entry.permission)) continue;
    const buttons = entry.buttons
      .filter((b) => grantable.includes(b.permission))
      .map((b) => ({ permission: b.permission, money: MONEY_PERMISSIONS.includes(b.permission) }));
    const existing = groups.find((g) => g.menu === entry.permission);
    if (existing) {
      for (const b of buttons)
        if (!existing.buttons.some((x) => x.permission === b.permission)) existing.buttons.push(b);
      continue;
    }
    groups.push({
      key: entry.key === 'dashboard' ? 'statistics' : entry.key,
      menu: entry.permission,
      buttons,
    });
  }
  return groups;
}

/** A permission's label: the menu's name for a menu permission, the action's name for a button. */
export function permissionLabel(t: TTranslate, permission: string): string {
  const menu = BACKOFFICE_MENU.find((m) => m.permission === permission);
  if (menu)
    return t('admin.access.perm.open', {
      menu: t(`admin.menu.${menu.key === 'dashboard' ? 'statistics' : menu.key}`),
    });
  const key = BUTTON_LABELS[permission];
  return key ? t(key) : (permission.split('.')[1] ?? permission);
}

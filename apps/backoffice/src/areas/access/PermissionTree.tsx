import { useId } from 'react';
import { useI18n } from '../../i18n';
import { permissionGroups, permissionLabel } from './permissions';

/**
 * The permission map as a checkbox tree: each menu (opens the page) with its buttons (actions in
 * it). Permissions inherited from the parent role show checked and locked. Ticking a button also
 * ticks its menu; clearing a menu clears its buttons.
 */
export function PermissionTree({
  grantable,
  platform,
  value,
  inherited,
  onChange,
  readOnly = false,
}: {
  grantable: readonly string[];
  /** Permissions only the platform operator's roles can hold (marked as such). */
  platform: readonly string[];
  value: ReadonlySet<string>;
  inherited: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  readOnly?: boolean;
}) {
  const { t } = useI18n();
  const id = useId();
  const groups = permissionGroups(grantable);
  const held = (p: string) => value.has(p) || inherited.has(p);

  const toggle = (permission: string, menu: string, buttons: readonly string[], on: boolean) => {
    const next = new Set(value);
    if (on) {
      next.add(permission);
      if (permission !== menu) next.add(menu);
    } else {
      next.delete(permission);
      if (permission === menu) for (const b of buttons) next.delete(b);
    }
    onChange(next);
  };

  const setAll = (on: boolean) => onChange(on ? new Set(grantable) : new Set());

  return (
    <div className="ac-tree" data-testid="permission-tree">
      {!readOnly ? (
        <div className="ac-tree-tools">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setAll(true)}>
            {t('admin.access.roles.selectAll')}
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setAll(false)}>
            {t('admin.access.roles.clearAll')}
          </button>
        </div>
      ) : null}
      <ul className="ac-tree-groups">
        {groups.map((group) => {
          const buttons = group.buttons.map((b) => b.permission);
          const menuInherited = inherited.has(group.menu);
          return (
            <li key={group.menu} className="ac-tree-group">
              <label className="kit-check ac-perm ac-tree-menu">
                <input
                  type="checkbox"
                  checked={held(group.menu)}
                  disabled={readOnly || menuInherited}
                  onChange={(e) => toggle(group.menu, group.menu, buttons, e.target.checked)}
                  data-permission={group.menu}
                  aria-describedby={menuInherited ? `${id}-inherited` : undefined}
                />
                <span className="ac-perm-text">
                  <span className="ac-perm-name">
                    {t(`admin.menu.${group.key}`)}
                    {platform.includes(group.menu) ? (
                      <span className="kit-pill">{t('admin.access.roles.platformOnly')}</span>
                    ) : null}
                    {menuInherited ? (
                      <span className="kit-pill ac-pill-inherited">{t('admin.access.roles.inherited')}</span>
                    ) : null}
                  </span>
                  <code className="ac-perm-code">{group.menu}</code>
                </span>
              </label>
              {group.buttons.length > 0 ? (
                <ul className="ac-tree-buttons">
                  {group.buttons.map((button) => {
                    const isInherited = inherited.has(button.permission);
                    return (
                      <li key={button.permission}>
                        <label className="kit-check ac-perm">
                          <input
                            type="checkbox"
                            checked={held(button.permission)}
                            disabled={readOnly || isInherited}
                            onChange={(e) => toggle(button.permission, group.menu, buttons, e.target.checked)}
                            data-permission={button.permission}
                          />
                          <span className="ac-perm-text">
                            <span className="ac-perm-name">
                              {permissionLabel(t, button.permission)}
                              {button.money ? (
                                <span
                                  className="kit-pill kit-pill-warn"
                                  title={t('admin.access.roles.moneyHint')}
                                >
                                  {t('admin.access.roles.money')}
                                </span>
                              ) : null}
                              {isInherited ? (
                                <span className="kit-pill ac-pill-inherited">
                                  {t('admin.access.roles.inherited')}
                                </span>
                              ) : null}
                            </span>
                            <code className="ac-perm-code">{button.permission}</code>
                          </span>
                        </label>
                      </li>
                    );
                  })}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
      <p className="kit-hint" id={`${id}-inherited`}>
        {t('admin.access.roles.inheritedHint')}
      </p>
    </div>
  );
}

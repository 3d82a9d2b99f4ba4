import type { TRole } from '@broker/contracts/admin/access-routes';
import { PLATFORM_PERMISSIONS } from '@broker/contracts/permissions';
import { type FormEvent, useCallback, useId, useMemo, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { Field } from '../../kit/Field';
import { ConfirmDialog, Modal } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { useSession } from '../../session';
import { PermissionTree } from './PermissionTree';
import { useFailureText } from './ui';

interface TTreeRow {
  role: TRole;
  depth: number;
}

/** Roles in tree order: each parent followed by its children (system role first, then by name). */
export function roleTree(roles: readonly TRole[]): TTreeRow[] {
  const ids = new Set(roles.map((r) => r.id));
  const byParent = new Map<string | null, TRole[]>();
  for (const role of roles) {
    const parent = role.parentId && ids.has(role.parentId) ? role.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), role]);
  }
  const order = (a: TRole, b: TRole) =>
    Number(b.isSystem) - Number(a.isSystem) || a.name.localeCompare(b.name);
  const rows: TTreeRow[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | null, depth: number) => {
    for (const role of [...(byParent.get(parent) ?? [])].sort(order)) {
      if (seen.has(role.id)) continue;
      seen.add(role.id);
      rows.push({ role, depth });
      walk(role.id, depth + 1);
    }
  };
  walk(null, 0);
  return rows;
}

/** Ids of a role and every role below it (they cannot become its parent). */
function withDescendants(roles: readonly TRole[], id: string): Set<string> {
  const out = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const role of roles)
      if (role.parentId && out.has(role.parentId) && !out.has(role.id)) {
        out.add(role.id);
        grew = true;
      }
  }
  return out;
}

type TEditing = { mode: 'new' } | { mode: 'edit'; role: TRole };

/** /admin/roles: roles as a tree; create, edit (parent, menu and button permissions) and delete. */
export function RolesPage() {
  const { t, formatNumber } = useI18n();
  const { can } = useSession();
  const failure = useFailureText();
  useDocumentTitle(t('admin.menu.roles'));
  const list = useQuery('adminrolelist', {});
  const remove = useMutation('adminroledelete');
  const [editing, setEditing] = useState<TEditing | null>(null);
  const [deleting, setDeleting] = useState<TRole | null>(null);
  const roles = list.data?.roles ?? [];
  const rows = useMemo(() => roleTree(roles), [roles]);
  const mayEdit = can('roles.edit');
  const close = useCallback(() => setEditing(null), []);

  const onDelete = async () => {
    if (!deleting) return;
    if (await remove.run({ id: deleting.id })) {
      setDeleting(null);
      list.reload();
    }
  };

  return (
    <div className="bo-page" data-testid="roles-page">
      <PageHeader
        title={t('admin.menu.roles')}
        description={t('admin.module.roles.description')}
        actions={
          <Can permission="roles.edit">
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => setEditing({ mode: 'new' })}
              disabled={!list.data}
              data-testid="role-new"
            >
              {t('admin.access.roles.new')}
            </button>
          </Can>
        }
      />
      <div className="card ac-list" data-loading={list.status === 'loading'}>
        {list.status === 'error' ? (
          <div className="kit-table-error" role="alert">
            <Icon name="alert" size={16} />
            <span>{failure(list.error)}</span>
            <button type="button" className="btn btn-secondary btn-sm" onClick={list.reload}>
              {t('admin.kit.retry')}
            </button>
          </div>
        ) : null}
        <div className="ac-list-head" aria-hidden="true">
          <span>{t('admin.access.roles.name')}</span>
          <span>{t('admin.access.roles.permissions')}</span>
          <span>{t('admin.access.roles.staff')}</span>
          <span />
        </div>
        <ul className="ac-rows" aria-label={t('admin.menu.roles')}>
          {rows.map(({ role, depth }) => (
            <li key={role.id} className="ac-row" data-testid="role-row" data-name={role.name}>
              <div className="ac-row-main" style={{ paddingInlineStart: `${depth * 22}px` }}>
                {depth > 0 ? <span className="ac-branch" aria-hidden="true" /> : null}
                <Icon name={role.isSystem ? 'shield' : 'badge'} size={16} className="ac-row-icon" />
                <div className="ac-row-text">
                  <strong>
                    {role.name}
                    {role.isSystem ? (
                      <span className="kit-pill ac-pill-system">{t('admin.access.roles.system')}</span>
                    ) : null}
                  </strong>
                  <span className="kit-hint">
                    {role.isSystem
                      ? t('admin.access.roles.systemHint')
                      : role.description ||
                        (role.parentId
                          ? t('admin.access.roles.inheritsFrom', {
                              name: roles.find((r) => r.id === role.parentId)?.name ?? '',
                            })
                          : '')}
                  </span>
                </div>
              </div>
              <span
                className="ac-row-cell"
                title={t('admin.access.roles.ownCount', { count: role.permissions.length })}
              >
                {t('admin.access.roles.effectiveCount', { count: role.effective.length })}
              </span>
              <span className="ac-row-cell">
                <span className="ac-mobile-label">{t('admin.access.roles.staff')} </span>
                {formatNumber(role.staffCount)}
              </span>
              <div className="ac-row-actions">
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  onClick={() => setEditing({ mode: 'edit', role })}
                  data-testid="role-open"
                >
                  {mayEdit && !role.isSystem ? t('admin.access.edit') : t('admin.access.view')}
                </button>
                {mayEdit && !role.isSystem ? (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm ac-danger-text"
                    onClick={() => {
                      remove.reset();
                      setDeleting(role);
                    }}
                  >
                    {t('admin.access.delete')}
                  </button>
                ) : null}
              </div>
            </li>
          ))}
          {list.status === 'loading' && rows.length === 0
            ? [0, 1, 2].map((n) => (
                <li key={n} className="ac-row">
                  <span className="kit-skeleton" />
                </li>
              ))
            : null}
        </ul>
        {list.status === 'ready' && rows.length === 0 ? (
          <div className="kit-table-empty">{t('admin.access.roles.empty')}</div>
        ) : null}
      </div>

      {editing && list.data ? (
        <RoleEditor
          key={editing.mode === 'edit' ? editing.role.id : 'new'}
          role={editing.mode === 'edit' ? editing.role : null}
          roles={roles}
          grantable={list.data.grantable}
          readOnly={!mayEdit || (editing.mode === 'edit' && editing.role.isSystem)}
          onClose={close}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={t('admin.access.roles.deleteTitle')}
          message={t('admin.access.roles.deleteText', { name: deleting.name })}
          confirmLabel={t('admin.access.delete')}
          danger
          pending={remove.pending}
          error={failure(remove.error)}
          onConfirm={onDelete}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}

function RoleEditor({
  role,
  roles,
  grantable,
  readOnly,
  onClose,
  onSaved,
}: {
  role: TRole | null;
  roles: readonly TRole[];
  grantable: readonly string[];
  readOnly: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const failure = useFailureText();
  const save = useMutation('adminrolesave');
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [parentId, setParentId] = useState<string | null>(role?.parentId ?? null);
  const [permissions, setPermissions] = useState<Set<string>>(
    () => new Set(role?.isSystem ? grantable : (role?.permissions ?? [])),
  );
  const [confirming, setConfirming] = useState(false);
  const confirmingRef = useRef(false);
  confirmingRef.current = confirming;
  // Escape in the confirmation closes only the confirmation.
  const closeEditor = useCallback(() => {
    if (!confirmingRef.current) onClose();
  }, [onClose]);
  const formId = useId();
  const excluded = role ? withDescendants(roles, role.id) : new Set<string>();
  const parents = roles.filter((r) => !excluded.has(r.id));
  const inherited = useMemo(
    () => new Set(roles.find((r) => r.id === parentId)?.effective ?? []),
    [roles, parentId],
  );
  const effective = new Set([...permissions, ...inherited]);
  const nameError = save.error?.errorCode === -6002 ? save.error.message : (save.error?.fields.name ?? null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || !name.trim()) return;
    setConfirming(true);
  };

  const onConfirm = async () => {
    const answer = await save.run({
      ...(role ? { id: role.id } : {}),
      name: name.trim(),
      description: description.trim(),
      parentId,
      // Inherited permissions stay with the parent; the role keeps only its own.
      permissions: [...permissions].filter((p) => !inherited.has(p)),
    });
    setConfirming(false);
    if (answer) onSaved();
  };

  const title = readOnly
    ? t('admin.access.roles.viewTitle', { name: role?.name ?? '' })
    : role
      ? t('admin.access.roles.editTitle', { name: role.name })
      : t('admin.access.roles.newTitle');

  return (
    <>
      <Modal
        title={title}
        onClose={closeEditor}
        wide
        testId="role-editor"
        footer={
          <>
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              {readOnly ? t('admin.kit.close') : t('admin.kit.cancel')}
            </button>
            {readOnly ? null : (
              <button
                type="submit"
                form={formId}
                className="btn btn-primary"
                disabled={save.pending || !name.trim()}
              >
                {t('admin.access.save')}
              </button>
            )}
          </>
        }
      >
        <form id={formId} onSubmit={submit} className="ac-form" noValidate>
          {role?.isSystem ? <p className="ac-note">{t('admin.access.roles.systemLocked')}</p> : null}
          <div className="kit-form-grid">
            <Field label={t('admin.access.roles.name')} error={nameError}>
              {(props) => (
                <input
                  {...props}
                  name="name"
                  className="input"
                  maxLength={40}
                  value={name}
                  disabled={readOnly}
                  onChange={(e) => setName(e.target.value)}
                />
              )}
            </Field>
            <Field label={t('admin.access.roles.parent')} hint={t('admin.access.roles.parentHint')}>
              {(props) => (
                <select
                  {...props}
                  name="parent"
                  className="input"
                  value={parentId ?? ''}
                  disabled={readOnly}
                  onChange={(e) => setParentId(e.target.value || null)}
                >
                  <option value="">{t('admin.access.roles.noParent')}</option>
                  {parents.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Field label={t('admin.access.roles.description')}>
            {(props) => (
              <input
                {...props}
                name="description"
                className="input"
                maxLength={200}
                value={description}
                disabled={readOnly}
                onChange={(e) => setDescription(e.target.value)}
              />
            )}
          </Field>
          <div className="ac-tree-head">
            <h3>{t('admin.access.roles.permissions')}</h3>
            <span className="kit-hint">
              {t('admin.access.roles.summary', { own: permissions.size, total: effective.size })}
            </span>
          </div>
          <PermissionTree
            grantable={grantable}
            platform={PLATFORM_PERMISSIONS}
            value={permissions}
            inherited={inherited}
            onChange={setPermissions}
            readOnly={readOnly}
          />
          {save.error && !nameError ? (
            <p className="kit-error" role="alert">
              {failure(save.error)}
            </p>
          ) : null}
        </form>
      </Modal>
      {confirming ? (
        <ConfirmDialog
          title={role ? t('admin.access.roles.confirmEdit') : t('admin.access.roles.confirmNew')}
          message={t('admin.access.roles.confirmText', { name: name.trim(), count: effective.size })}
          pending={save.pending}
          onConfirm={onConfirm}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}

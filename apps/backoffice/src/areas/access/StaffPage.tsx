import type { TAccessPolicyRequest, TAccessSettings, TStaffRow } from '@broker/contracts/admin/access-routes';
import { MONEY_PERMISSIONS } from '@broker/contracts/permissions';
import type { TRouteOutput } from '@broker/contracts/routes';
import { STAFF_USERNAME_PATTERN } from '@broker/domain/staff-credentials';
import { type FormEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { FormModal } from '../../kit/FormModal';
import { ConfirmDialog, Modal } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { useSession, useStaff } from '../../session';
import { generatePassword, PasswordField, useFailureText } from './ui';

type TList = TRouteOutput<'adminstafflist'>;
type TRoleOption = TList['roles'][number];

function useDateTime() {
  const { intl } = useI18n();
  return useMemo(() => new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'short' }), [intl]);
}

/** /admin/staff: the broker's staff, their roles, status, two-factor, sign-ins and lockouts. */
export function StaffPage() {
  const { t } = useI18n();
  const { can } = useSession();
  const failure = useFailureText();
  const dateTime = useDateTime();
  useDocumentTitle(t('admin.menu.staff'));
  const list = useQuery('adminstafflist', {});
  const [creating, setCreating] = useState(false);
  const [managing, setManaging] = useState<string | null>(null);
  const closeCreate = useCallback(() => setCreating(false), []);
  const closeManage = useCallback(() => setManaging(null), []);
  const data = list.data;
  const mayEdit = can('staff.edit');

  const columns = useMemo<TColumn<TStaffRow>[]>(
    () => [
      {
        key: 'member',
        header: t('admin.access.staff.member'),
        sortValue: (row) => row.username.toLowerCase(),
        render: (row) => (
          <div className="ac-member">
            <strong>
              {row.displayName}
              {row.id === data?.selfId ? (
                <span className="kit-pill">{t('admin.access.staff.you')}</span>
              ) : null}
            </strong>
            <span className="kit-hint">@{row.username}</span>
          </div>
        ),
      },
      {
        key: 'roles',
        header: t('admin.access.staff.roles'),
        render: (row) =>
          row.roles.length ? (
            <span className="ac-pills">
              {row.roles.map((r) => (
                <span key={r.id} className="kit-pill">
                  {r.name}
                </span>
              ))}
            </span>
          ) : (
            <span className="kit-hint">{t('admin.access.staff.noRoles')}</span>
          ),
      },
      {
        key: 'status',
        header: t('admin.access.staff.status'),
        sortValue: (row) => row.status,
        render: (row) =>
          row.lockedUntil ? (
            <span className="kit-pill kit-pill-warn" title={dateTime.format(new Date(row.lockedUntil))}>
              {t('admin.access.staff.lockedUntil', { time: dateTime.format(new Date(row.lockedUntil)) })}
            </span>
          ) : (
            <span className={`kit-pill ${row.status === 'active' ? 'kit-pill-up' : 'kit-pill-down'}`}>
              {row.status === 'active' ? t('admin.access.staff.active') : t('admin.access.staff.disabled')}
            </span>
          ),
      },
      {
        key: 'twoFactor',
        header: t('admin.access.staff.twoFactor'),
        sortValue: (row) => Number(row.twoFactor),
        render: (row) => (
          <span className={`kit-pill${row.twoFactor ? ' kit-pill-up' : ''}`}>
            {row.twoFactor ? t('admin.access.security.on') : t('admin.access.security.off')}
          </span>
        ),
      },
      {
        key: 'lastSignIn',
        header: t('admin.access.staff.lastSignIn'),
        sortValue: (row) => (row.lastSignInAt ? new Date(row.lastSignInAt).getTime() : null),
        render: (row) =>
          row.lastSignInAt ? (
            dateTime.format(new Date(row.lastSignInAt))
          ) : (
            <span className="kit-hint">{t('admin.access.staff.never')}</span>
          ),
      },
      {
        key: 'actions',
        header: (
          <span className="ac-sr-wrap">
            <span className="ac-sr-only">{t('admin.access.staff.actions')}</span>
          </span>
        ),
        align: 'end',
        render: (row) => (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={(e) => {
              e.stopPropagation();
              setManaging(row.id);
            }}
            data-testid="staff-manage"
          >
            {mayEdit ? t('admin.access.staff.manage') : t('admin.access.view')}
          </button>
        ),
      },
    ],
    [t, data?.selfId, dateTime, mayEdit],
  );

  const current = data?.staff.find((s) => s.id === managing) ?? null;

  return (
    <div className="bo-page" data-testid="staff-page">
      <PageHeader
        title={t('admin.menu.staff')}
        description={t('admin.module.staff.description')}
        actions={
          <Can permission="staff.edit">
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => setCreating(true)}
              disabled={!data}
              data-testid="staff-new"
            >
              {t('admin.access.staff.new')}
            </button>
          </Can>
        }
      />
      <DataTable
        rows={data?.staff ?? []}
        columns={columns}
        rowKey={(row) => row.id}
        filterText={(row) => `${row.username} ${row.displayName} ${row.roles.map((r) => r.name).join(' ')}`}
        filterPlaceholder={t('admin.access.staff.filter')}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? failure(list.error) : null}
        onRetry={list.reload}
        empty={t('admin.access.staff.empty')}
        initialSort={{ key: 'member', direction: 'asc' }}
        testId="staff-table"
        rowTestId="staff-row"
        onRowClick={(row) => setManaging(row.id)}
      />
      {data ? (
        <SecuritySettings
          settings={data.settings}
          request={data.policyRequest}
          selfId={data.selfId}
          onSaved={list.reload}
        />
      ) : null}
      {creating && data ? (
        <CreateStaff
          roles={data.roles}
          minLength={data.settings.passwordMinLength}
          onClose={closeCreate}
          onSaved={() => {
            setCreating(false);
            list.reload();
          }}
        />
      ) : null}
      {current && data ? (
        <ManageStaff
          key={current.id}
          member={current}
          roles={data.roles}
          minLength={data.settings.passwordMinLength}
          self={current.id === data.selfId}
          onClose={closeManage}
          onChanged={list.reload}
        />
      ) : null}
    </div>
  );
}

/** True when `next` loosens a rule of `current`: such a change waits for a second approver. */
const weakens = (current: TAccessSettings, next: TAccessSettings) =>
  next.passwordMinLength < current.passwordMinLength || (current.moneyTwoFactor && !next.moneyTwoFactor);

/**
 * The broker's password minimum and the two-factor rule for staff who move money. Changing them
 * needs `staff.security`; a stronger rule applies at once, a weaker one waits for a second approver.
 */
function SecuritySettings({
  settings,
  request,
  selfId,
  onSaved,
}: {
  settings: TAccessSettings;
  request: TAccessPolicyRequest | null;
  selfId: string;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const { can, refresh } = useSession();
  const me = useStaff();
  const failure = useFailureText();
  const save = useMutation('adminstaffsettings');
  const [minLength, setMinLength] = useState(String(settings.passwordMinLength));
  const [moneyTwoFactor, setMoneyTwoFactor] = useState(settings.moneyTwoFactor);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const mayChange = can('staff.security');
  const id = useId();
  useEffect(() => {
    setMinLength(String(settings.passwordMinLength));
    setMoneyTwoFactor(settings.moneyTwoFactor);
  }, [settings]);
  const value = Number(minLength);
  const valid = Number.isInteger(value) && value >= 5 && value <= 32;
  const changed = value !== settings.passwordMinLength || moneyTwoFactor !== settings.moneyTwoFactor;
  const proposed = { passwordMinLength: value, moneyTwoFactor };
  const weaker = valid && weakens(settings, proposed);
  // Turning the rule on while one's own two-factor is off holds back one's own money permissions.
  const affectsMe =
    moneyTwoFactor && !me.twoFactor && me.permissions.some((p) => MONEY_PERMISSIONS.includes(p));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid && changed) setConfirming(true);
  };

  return (
    <section className="card ac-settings" aria-labelledby={id} data-testid="staff-settings">
      <header className="ac-security-head">
        <div>
          <h2 id={id}>{t('admin.access.settings.title')}</h2>
          <p className="kit-hint">{t('admin.access.settings.text')}</p>
        </div>
      </header>
      {notice ? (
        <div className="alert alert-info bo-alert" role="status" data-testid="policy-notice">
          <Icon name="check" size={16} className="bo-alert-icon" />
          <span>{notice}</span>
        </div>
      ) : null}
      {!settings.moneyTwoFactor ? (
        <p className="ac-warn" role="status">
          <Icon name="alert" size={15} />
          {t('admin.access.settings.moneyOffWarning')}
        </p>
      ) : null}
      {request ? (
        <PolicyRequest
          request={request}
          settings={settings}
          own={request.requestedBy.id === selfId}
          mayDecide={mayChange}
          onDecided={(text) => {
            setNotice(text);
            onSaved();
            void refresh();
          }}
        />
      ) : null}
      <form className="ac-settings-form" onSubmit={submit} noValidate>
        <Field
          label={t('admin.access.settings.minLength')}
          hint={t('admin.access.settings.minLengthHint')}
          error={valid ? null : t('admin.access.settings.minLengthRange')}
        >
          {(props) => (
            <input
              {...props}
              name="passwordMinLength"
              className="input ac-number"
              type="number"
              inputMode="numeric"
              min={5}
              max={32}
              value={minLength}
              disabled={!mayChange}
              onChange={(e) => setMinLength(e.target.value)}
            />
          )}
        </Field>
        <label className="kit-check ac-settings-check">
          <input
            type="checkbox"
            name="moneyTwoFactor"
            checked={moneyTwoFactor}
            disabled={!mayChange}
            onChange={(e) => setMoneyTwoFactor(e.target.checked)}
          />
          <span>
            <strong>{t('admin.access.settings.moneyTwoFactor')}</strong>
            <span className="kit-hint">{t('admin.access.settings.moneyTwoFactorHint')}</span>
          </span>
        </label>
        {mayChange ? (
          <div className="kit-actions ac-settings-actions">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={!valid || !changed || save.pending || (weaker && request !== null)}
              data-testid="settings-save"
            >
              {weaker ? t('admin.access.settings.requestApproval') : t('admin.access.save')}
            </button>
            {weaker && changed ? (
              <p className="kit-hint" data-testid="policy-weaker-hint">
                {request ? t('admin.access.settings.pendingHint') : t('admin.access.settings.weakerHint')}
              </p>
            ) : null}
          </div>
        ) : (
          <p className="kit-hint ac-settings-readonly" data-testid="settings-readonly">
            {t('admin.access.settings.readOnly')}
          </p>
        )}
      </form>
      {confirming ? (
        <ConfirmDialog
          title={
            weaker ? t('admin.access.settings.confirmWeakerTitle') : t('admin.access.settings.confirmTitle')
          }
          message={t('admin.access.settings.confirmText', {
            min: value,
            rule: moneyTwoFactor ? t('admin.access.settings.ruleOn') : t('admin.access.settings.ruleOff'),
          })}
          confirmLabel={weaker ? t('admin.access.settings.requestApproval') : undefined}
          pending={save.pending}
          error={failure(save.error)}
          onConfirm={async () => {
            const answer = await save.run({ passwordMinLength: value, moneyTwoFactor });
            if (answer) {
              setConfirming(false);
              // A weaker proposal waits: the form goes back to the rules in force.
              setMinLength(String(answer.settings.passwordMinLength));
              setMoneyTwoFactor(answer.settings.moneyTwoFactor);
              setNotice(
                answer.request
                  ? t('admin.access.settings.requestedDone')
                  : t('admin.access.settings.savedDone'),
              );
              onSaved();
              await refresh();
            }
          }}
          onCancel={() => setConfirming(false)}
        >
          {weaker ? (
            <p className="ac-warn" role="status">
              <Icon name="alert" size={15} />
              {t('admin.access.settings.weakerText')}
            </p>
          ) : null}
          {affectsMe ? (
            <p className="ac-warn" role="status">
              <Icon name="alert" size={15} />
              {t('admin.access.settings.selfWarning')}
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

type TDecision = 'approve' | 'reject' | 'cancel';

/** The weaker rules waiting for a second approver: the proposal against the rules in force. */
function PolicyRequest({
  request,
  settings,
  own,
  mayDecide,
  onDecided,
}: {
  request: TAccessPolicyRequest;
  settings: TAccessSettings;
  own: boolean;
  mayDecide: boolean;
  onDecided: (text: string) => void;
}) {
  const { t } = useI18n();
  const failure = useFailureText();
  const dateTime = useDateTime();
  const approve = useMutation('adminstaffsettingsapprove');
  const reject = useMutation('adminstaffsettingsreject');
  const cancel = useMutation('adminstaffsettingscancel');
  const [decision, setDecision] = useState<TDecision | null>(null);
  const headingId = useId();
  const mutations = { approve, reject, cancel } as const;
  const proposal = request.settings;
  const onOff = (on: boolean) => (on ? t('admin.access.security.on') : t('admin.access.security.off'));
  const rows = [
    {
      key: 'minLength',
      label: t('admin.access.settings.minLength'),
      now: String(settings.passwordMinLength),
      next: String(proposal.passwordMinLength),
      weaker: proposal.passwordMinLength < settings.passwordMinLength,
    },
    {
      key: 'moneyTwoFactor',
      label: t('admin.access.settings.moneyTwoFactorShort'),
      now: onOff(settings.moneyTwoFactor),
      next: onOff(proposal.moneyTwoFactor),
      weaker: settings.moneyTwoFactor && !proposal.moneyTwoFactor,
    },
  ];
  const texts: Record<TDecision, { title: string; message: string; done: string; label: string }> = {
    approve: {
      title: t('admin.access.policy.approveTitle'),
      message: t('admin.access.policy.approveText', { name: request.requestedBy.displayName }),
      done: t('admin.access.policy.approvedDone'),
      label: t('admin.access.policy.approve'),
    },
    reject: {
      title: t('admin.access.policy.rejectTitle'),
      message: t('admin.access.policy.rejectText', { name: request.requestedBy.displayName }),
      done: t('admin.access.policy.rejectedDone'),
      label: t('admin.access.policy.reject'),
    },
    cancel: {
      title: t('admin.access.policy.cancelTitle'),
      message: t('admin.access.policy.cancelText'),
      done: t('admin.access.policy.cancelledDone'),
      label: t('admin.access.policy.cancel'),
    },
  };

  return (
    <section className="ac-policy" aria-labelledby={headingId} data-testid="policy-request">
      <div className="ac-policy-head">
        <span className="kit-pill kit-pill-warn" data-testid="policy-status">
          {t('admin.access.policy.awaiting')}
        </span>
        <h3 id={headingId}>{t('admin.access.policy.title')}</h3>
      </div>
      <p className="kit-hint">
        {t('admin.access.policy.requested', {
          name: request.requestedBy.displayName,
          username: request.requestedBy.username,
          time: dateTime.format(new Date(request.requestedAt)),
        })}
      </p>
      <table className="ac-policy-table">
        <thead>
          <tr>
            <th scope="col">
              <span className="ac-sr-only">{t('admin.access.policy.rule')}</span>
            </th>
            <th scope="col">{t('admin.access.policy.now')}</th>
            <th scope="col">{t('admin.access.policy.proposed')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-weaker={row.weaker || undefined}>
              <th scope="row">{row.label}</th>
              <td>{row.now}</td>
              <td>
                {row.next === row.now ? (
                  row.next
                ) : (
                  <strong className={row.weaker ? 'ac-danger-text' : undefined}>{row.next}</strong>
                )}
                {row.weaker ? <span className="ac-sr-only">{t('admin.access.policy.weaker')}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {own ? (
        <div className="kit-actions ac-policy-actions">
          <p className="kit-hint">{t('admin.access.policy.ownHint')}</p>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setDecision('cancel')}
            data-testid="policy-cancel"
          >
            {t('admin.access.policy.cancel')}
          </button>
        </div>
      ) : mayDecide ? (
        <div className="kit-actions ac-policy-actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setDecision('reject')}
            data-testid="policy-reject"
          >
            {t('admin.access.policy.reject')}
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => setDecision('approve')}
            data-testid="policy-approve"
          >
            {t('admin.access.policy.approve')}
          </button>
        </div>
      ) : (
        <p className="kit-hint">{t('admin.access.policy.othersHint')}</p>
      )}
      {decision ? (
        <ConfirmDialog
          title={texts[decision].title}
          message={texts[decision].message}
          confirmLabel={texts[decision].label}
          danger={decision === 'approve'}
          pending={mutations[decision].pending}
          error={failure(mutations[decision].error)}
          onConfirm={async () => {
            if (await mutations[decision].run({ id: request.id })) {
              const done = texts[decision].done;
              setDecision(null);
              onDecided(done);
            }
          }}
          onCancel={() => setDecision(null)}
        />
      ) : null}
    </section>
  );
}

/** Role checkboxes; roles the staff member may not hand out are still listed, the server refuses them. */
function RolePicker({
  roles,
  value,
  onChange,
  disabled = false,
}: {
  roles: readonly TRoleOption[];
  value: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  return (
    <fieldset className="ac-role-picker" disabled={disabled}>
      <legend className="field-label">{t('admin.access.staff.roles')}</legend>
      {roles.length === 0 ? <p className="kit-hint">{t('admin.access.roles.empty')}</p> : null}
      {roles.map((role) => (
        <label key={role.id} className="kit-check">
          <input
            type="checkbox"
            name="roles"
            value={role.id}
            checked={value.has(role.id)}
            onChange={(e) => {
              const next = new Set(value);
              if (e.target.checked) next.add(role.id);
              else next.delete(role.id);
              onChange(next);
            }}
          />
          <span>
            {role.name}
            {role.isSystem ? (
              <span className="kit-pill ac-pill-system">{t('admin.access.roles.system')}</span>
            ) : null}
          </span>
          <span className="kit-hint">
            {t('admin.access.roles.effectiveCount', { count: role.permissions.length })}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function CreateStaff({
  roles,
  minLength,
  onClose,
  onSaved,
}: {
  roles: readonly TRoleOption[];
  minLength: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const failure = useFailureText();
  const create = useMutation('adminstaffcreate');
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [roleIds, setRoleIds] = useState<Set<string>>(new Set());
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const confirmingRef = useRef(false);
  confirmingRef.current = confirming;
  const close = useCallback(() => {
    if (!confirmingRef.current) onClose();
  }, [onClose]);
  const formId = useId();
  const usernameOk = STAFF_USERNAME_PATTERN.test(username.trim());
  const passwordOk = [...password].length >= Math.max(5, minLength);
  const nameOk = displayName.trim().length > 0;
  const fieldError = (field: string, local: string | null) =>
    create.error?.fields[field] ??
    (field === 'username' && create.error?.errorCode === -6001 ? create.error.message : null) ??
    (field === 'password' && create.error?.errorCode === -6006 ? create.error.message : null) ??
    (touched ? local : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (usernameOk && passwordOk && nameOk) setConfirming(true);
  };

  const generalError =
    create.error && ![-6001, -6006, -9001].includes(create.error.errorCode) ? failure(create.error) : null;

  return (
    <>
      <FormModal
        title={t('admin.access.staff.newTitle')}
        onClose={close}
        wide
        testId="staff-create"
        formId={formId}
        formClassName="ac-form"
        onSubmit={submit}
        onCancel={onClose}
        submitLabel={t('admin.access.staff.create')}
        pending={create.pending}
      >
        <div className="kit-form-grid">
          <Field
            label={t('admin.access.staff.username')}
            hint={t('admin.access.staff.usernameHint')}
            error={fieldError('username', usernameOk ? null : t('admin.login.errors.usernameFormat'))}
          >
            {(props) => (
              <input
                {...props}
                name="username"
                className="input"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={32}
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            )}
          </Field>
          <Field
            label={t('admin.access.staff.displayName')}
            error={fieldError('displayName', nameOk ? null : t('admin.access.staff.displayNameRequired'))}
          >
            {(props) => (
              <input
                {...props}
                name="displayName"
                className="input"
                maxLength={60}
                value={displayName}
                onChange={(e) => setDisplayName(e.target.value)}
              />
            )}
          </Field>
        </div>
        <PasswordField
          label={t('admin.access.staff.initialPassword')}
          value={password}
          onChange={setPassword}
          minLength={Math.max(5, minLength)}
          error={fieldError(
            'password',
            passwordOk ? null : t('admin.access.strength.min', { min: minLength }),
          )}
        />
        <div className="kit-actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setPassword(generatePassword(Math.max(16, minLength)))}
          >
            {t('admin.access.staff.generate')}
          </button>
        </div>
        <RolePicker roles={roles} value={roleIds} onChange={setRoleIds} />
        {generalError ? (
          <p className="kit-error" role="alert">
            {generalError}
          </p>
        ) : null}
      </FormModal>
      {confirming ? (
        <ConfirmDialog
          title={t('admin.access.staff.confirmCreate')}
          message={t('admin.access.staff.confirmCreateText', {
            username: username.trim(),
            count: roleIds.size,
          })}
          pending={create.pending}
          onConfirm={async () => {
            const answer = await create.run({
              username: username.trim(),
              displayName: displayName.trim(),
              password,
              roleIds: [...roleIds],
            });
            setConfirming(false);
            if (answer) onSaved();
          }}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}

type TAction = 'status' | 'unlock' | 'password' | 'totp' | 'save';

/** One staff member: edit name and roles, and the account actions, each confirmed first. */
function ManageStaff({
  member,
  roles,
  minLength,
  self,
  onClose,
  onChanged,
}: {
  member: TStaffRow;
  roles: readonly TRoleOption[];
  minLength: number;
  self: boolean;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const { can, refresh } = useSession();
  const failure = useFailureText();
  const dateTime = useDateTime();
  const mayEdit = can('staff.edit');
  const update = useMutation('adminstaffupdate');
  const status = useMutation('adminstaffstatus');
  const unlock = useMutation('adminstaffunlock');
  const reset = useMutation('adminstaffpassword');
  const totp = useMutation('adminstafftotpreset');
  const [displayName, setDisplayName] = useState(member.displayName);
  const [roleIds, setRoleIds] = useState<Set<string>>(new Set(member.roles.map((r) => r.id)));
  const [action, setAction] = useState<TAction | null>(null);
  const [passwordMode, setPasswordMode] = useState<'generate' | 'set'>('generate');
  const [newPassword, setNewPassword] = useState('');
  const [generated, setGenerated] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const actionRef = useRef<TAction | null>(null);
  actionRef.current = action;
  const close = useCallback(() => {
    if (!actionRef.current) onClose();
  }, [onClose]);
  const formId = useId();

  const mutations = { save: update, status, unlock, password: reset, totp } as const;
  const pending = action ? mutations[action].pending : false;
  const actionError = action ? failure(mutations[action].error) : null;

  const done = (text: string) => {
    setAction(null);
    setNotice(text);
    onChanged();
    if (self) void refresh();
  };

  const run = async () => {
    if (action === 'save') {
      if (await update.run({ id: member.id, displayName: displayName.trim(), roleIds: [...roleIds] }))
        done(t('admin.access.staff.saved'));
    } else if (action === 'status') {
      const next = member.status === 'active' ? 'disabled' : 'active';
      if (await status.run({ id: member.id, status: next }))
        done(
          next === 'disabled' ? t('admin.access.staff.disabledDone') : t('admin.access.staff.enabledDone'),
        );
    } else if (action === 'unlock') {
      if (await unlock.run({ id: member.id })) done(t('admin.access.staff.unlockedDone'));
    } else if (action === 'password') {
      const answer = await reset.run(
        passwordMode === 'set' ? { id: member.id, password: newPassword } : { id: member.id },
      );
      if (answer) {
        setGenerated(answer.generated);
        setNewPassword('');
        done(t('admin.access.staff.passwordDone'));
      }
    } else if (action === 'totp') {
      if (await totp.run({ id: member.id })) done(t('admin.access.staff.totpDone'));
    }
  };

  const confirmText: Record<TAction, string> = {
    save: t('admin.access.staff.confirmSave', { username: member.username }),
    status:
      member.status === 'active'
        ? t('admin.access.staff.confirmDisable', { username: member.username })
        : t('admin.access.staff.confirmEnable', { username: member.username }),
    unlock: t('admin.access.staff.confirmUnlock', { username: member.username }),
    password:
      passwordMode === 'generate'
        ? t('admin.access.staff.confirmGenerate', { username: member.username })
        : t('admin.access.staff.confirmSetPassword', { username: member.username }),
    totp: t('admin.access.staff.confirmTotp', { username: member.username }),
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (displayName.trim()) setAction('save');
  };

  return (
    <>
      <Modal
        title={t('admin.access.staff.manageTitle', { name: member.displayName })}
        onClose={close}
        wide
        testId="staff-manage-dialog"
      >
        {notice ? (
          <div className="alert alert-info bo-alert" role="status">
            <Icon name="check" size={16} className="bo-alert-icon" />
            <span>{notice}</span>
          </div>
        ) : null}
        {generated ? (
          <div className="ac-generated" data-testid="generated-password">
            <span>{t('admin.access.staff.generatedOnce')}</span>
            <code>{generated}</code>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => navigator.clipboard?.writeText(generated).catch(() => undefined)}
            >
              {t('admin.access.staff.copy')}
            </button>
          </div>
        ) : null}
        <dl className="ac-facts">
          <div>
            <dt>{t('admin.access.staff.username')}</dt>
            <dd>@{member.username}</dd>
          </div>
          <div>
            <dt>{t('admin.access.staff.status')}</dt>
            <dd>
              {member.status === 'active' ? t('admin.access.staff.active') : t('admin.access.staff.disabled')}
            </dd>
          </div>
          <div>
            <dt>{t('admin.access.staff.twoFactor')}</dt>
            <dd>{member.twoFactor ? t('admin.access.security.on') : t('admin.access.security.off')}</dd>
          </div>
          <div>
            <dt>{t('admin.access.staff.lastSignIn')}</dt>
            <dd>
              {member.lastSignInAt
                ? dateTime.format(new Date(member.lastSignInAt))
                : t('admin.access.staff.never')}
            </dd>
          </div>
          <div>
            <dt>{t('admin.access.staff.failedAttempts')}</dt>
            <dd>
              {member.lockedUntil
                ? t('admin.access.staff.lockedUntil', { time: dateTime.format(new Date(member.lockedUntil)) })
                : member.failedAttempts}
            </dd>
          </div>
          <div>
            <dt>{t('admin.access.staff.created')}</dt>
            <dd>{dateTime.format(new Date(member.createdAt))}</dd>
          </div>
        </dl>

        <form id={formId} className="ac-form" onSubmit={submit} noValidate>
          <Field label={t('admin.access.staff.displayName')} error={update.error?.fields.displayName ?? null}>
            {(props) => (
              <input
                {...props}
                name="displayName"
                className="input"
                maxLength={60}
                value={displayName}
                disabled={!mayEdit}
                onChange={(e) => setDisplayName(e.target.value)}
              />
            )}
          </Field>
          <RolePicker roles={roles} value={roleIds} onChange={setRoleIds} disabled={!mayEdit || self} />
          {self ? <p className="kit-hint">{t('admin.access.staff.selfRoles')}</p> : null}
          {mayEdit ? (
            <div className="kit-actions">
              <button type="submit" className="btn btn-primary" disabled={!displayName.trim()}>
                {t('admin.access.save')}
              </button>
            </div>
          ) : null}
        </form>

        {mayEdit && !self ? (
          <section className="ac-danger-zone" aria-label={t('admin.access.staff.accountActions')}>
            <h3>{t('admin.access.staff.accountActions')}</h3>
            <div className="ac-password-reset">
              <div
                className="ac-radio-row"
                role="radiogroup"
                aria-label={t('admin.access.staff.resetPassword')}
              >
                <label className="kit-check">
                  <input
                    type="radio"
                    name="passwordMode"
                    checked={passwordMode === 'generate'}
                    onChange={() => setPasswordMode('generate')}
                  />
                  {t('admin.access.staff.modeGenerate')}
                </label>
                <label className="kit-check">
                  <input
                    type="radio"
                    name="passwordMode"
                    checked={passwordMode === 'set'}
                    onChange={() => setPasswordMode('set')}
                  />
                  {t('admin.access.staff.modeSet')}
                </label>
              </div>
              {passwordMode === 'set' ? (
                <PasswordField
                  label={t('admin.access.security.newPassword')}
                  value={newPassword}
                  onChange={setNewPassword}
                  minLength={Math.max(5, minLength)}
                />
              ) : null}
            </div>
            <div className="kit-actions">
              <button
                type="button"
                className="btn btn-secondary"
                disabled={passwordMode === 'set' && [...newPassword].length < Math.max(5, minLength)}
                onClick={() => setAction('password')}
                data-testid="staff-reset-password"
              >
                {t('admin.access.staff.resetPassword')}
              </button>
              {member.lockedUntil ? (
                <button type="button" className="btn btn-secondary" onClick={() => setAction('unlock')}>
                  {t('admin.access.staff.unlock')}
                </button>
              ) : null}
              {member.twoFactor ? (
                <button type="button" className="btn btn-secondary" onClick={() => setAction('totp')}>
                  {t('admin.access.staff.resetTotp')}
                </button>
              ) : null}
              <button
                type="button"
                className={`btn ${member.status === 'active' ? 'kit-btn-danger' : 'btn-secondary'}`}
                onClick={() => setAction('status')}
                data-testid="staff-toggle-status"
              >
                {member.status === 'active'
                  ? t('admin.access.staff.disable')
                  : t('admin.access.staff.enable')}
              </button>
            </div>
          </section>
        ) : null}
      </Modal>
      {action ? (
        <ConfirmDialog
          title={t('admin.access.confirmTitle')}
          message={confirmText[action]}
          danger={action === 'status' && member.status === 'active'}
          pending={pending}
          error={actionError}
          onConfirm={run}
          onCancel={() => {
            mutations[action].reset();
            setAction(null);
          }}
        />
      ) : null}
    </>
  );
}

import { BROKER_SLUG_PATTERN, HOST_NAME_PATTERN } from '@broker/contracts/admin/access-paths';
import type { TBroker } from '@broker/contracts/admin/access-routes';
import { STAFF_USERNAME_PATTERN } from '@broker/domain/staff-credentials';
import { type FormEvent, useCallback, useId, useMemo, useRef, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { FormModal } from '../../kit/FormModal';
import { ConfirmDialog } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { useSession } from '../../session';
import { generatePassword, PasswordField, useFailureText } from './ui';

/** New brokers start with an 8-character staff password minimum. */
const NEW_BROKER_MIN_PASSWORD = 8;

/** Host names typed one per line or separated by commas or spaces, lower-cased, without repeats. */
export function parseHosts(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** /admin/brokers (platform operator only): brokers with host names, status and head counts. */
export function BrokersPage() {
  const { t, intl, formatNumber } = useI18n();
  const { can } = useSession();
  const failure = useFailureText();
  useDocumentTitle(t('admin.menu.brokers'));
  const list = useQuery('adminbrokerlist', {});
  const status = useMutation('adminbrokerstatus');
  const [editing, setEditing] = useState<TBroker | 'new' | null>(null);
  const [toggling, setToggling] = useState<TBroker | null>(null);
  const closeEditor = useCallback(() => setEditing(null), []);
  const mayEdit = can('brokers.edit');
  const date = useMemo(() => new Intl.DateTimeFormat(intl, { dateStyle: 'medium' }), [intl]);

  const columns = useMemo<TColumn<TBroker>[]>(
    () => [
      {
        key: 'name',
        header: t('admin.access.brokers.name'),
        sortValue: (b) => b.name.toLowerCase(),
        render: (b) => (
          <div className="ac-member">
            <strong>
              {b.name}
              {b.isDefault ? (
                <span className="kit-pill ac-pill-system">{t('admin.access.brokers.platform')}</span>
              ) : null}
            </strong>
            <span className="kit-hint">{b.slug}</span>
          </div>
        ),
      },
      {
        key: 'hosts',
        header: t('admin.access.brokers.hosts'),
        render: (b) =>
          b.hosts.length ? (
            <span className="ac-hosts">
              {b.hosts.map((h) => (
                <code key={h}>{h}</code>
              ))}
            </span>
          ) : (
            <span className="kit-hint">{t('admin.access.brokers.anyHost')}</span>
          ),
      },
      {
        key: 'status',
        header: t('admin.access.staff.status'),
        sortValue: (b) => b.status,
        render: (b) => (
          <span className={`kit-pill ${b.status === 'active' ? 'kit-pill-up' : 'kit-pill-down'}`}>
            {b.status === 'active' ? t('admin.access.brokers.active') : t('admin.access.brokers.suspended')}
          </span>
        ),
      },
      {
        key: 'staff',
        header: t('admin.access.brokers.staff'),
        align: 'end',
        sortValue: (b) => b.staffCount,
        render: (b) => formatNumber(b.staffCount),
      },
      {
        key: 'customers',
        header: t('admin.access.brokers.customers'),
        align: 'end',
        sortValue: (b) => b.customerCount,
        render: (b) => formatNumber(b.customerCount),
      },
      {
        key: 'created',
        header: t('admin.access.brokers.created'),
        sortValue: (b) => new Date(b.createdAt).getTime(),
        render: (b) => date.format(new Date(b.createdAt)),
      },
      {
        key: 'actions',
        header: (
          <span className="ac-sr-wrap">
            <span className="ac-sr-only">{t('admin.access.staff.actions')}</span>
          </span>
        ),
        align: 'end',
        render: (b) =>
          mayEdit && !b.isDefault ? (
            <span className="ac-row-actions">
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(b)}>
                {t('admin.access.edit')}
              </button>
              <button
                type="button"
                className={`btn btn-sm ${b.status === 'active' ? 'btn-secondary ac-danger-text' : 'btn-secondary'}`}
                onClick={() => {
                  status.reset();
                  setToggling(b);
                }}
              >
                {b.status === 'active'
                  ? t('admin.access.brokers.suspend')
                  : t('admin.access.brokers.reactivate')}
              </button>
            </span>
          ) : null,
      },
    ],
    [t, formatNumber, date, mayEdit, status.reset],
  );

  return (
    <div className="bo-page" data-testid="brokers-page">
      <PageHeader
        title={t('admin.menu.brokers')}
        description={t('admin.module.brokers.description')}
        actions={
          <Can permission="brokers.edit">
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => setEditing('new')}
              data-testid="broker-new"
            >
              {t('admin.access.brokers.new')}
            </button>
          </Can>
        }
      />
      <DataTable
        rows={list.data?.brokers ?? []}
        columns={columns}
        rowKey={(b) => b.id}
        filterText={(b) => `${b.name} ${b.slug} ${b.hosts.join(' ')}`}
        filterPlaceholder={t('admin.access.brokers.filter')}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? failure(list.error) : null}
        onRetry={list.reload}
        empty={t('admin.access.brokers.empty')}
        testId="brokers-table"
        rowTestId="broker-row"
      />
      {editing ? (
        <BrokerEditor
          broker={editing === 'new' ? null : editing}
          onClose={closeEditor}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      ) : null}
      {toggling ? (
        <ConfirmDialog
          title={
            toggling.status === 'active'
              ? t('admin.access.brokers.suspendTitle', { name: toggling.name })
              : t('admin.access.brokers.reactivateTitle', { name: toggling.name })
          }
          message={
            toggling.status === 'active'
              ? t('admin.access.brokers.suspendText')
              : t('admin.access.brokers.reactivateText')
          }
          danger={toggling.status === 'active'}
          pending={status.pending}
          error={failure(status.error)}
          onConfirm={async () => {
            const next = toggling.status === 'active' ? 'suspended' : 'active';
            if (await status.run({ id: toggling.id, status: next })) {
              setToggling(null);
              list.reload();
            }
          }}
          onCancel={() => setToggling(null)}
        />
      ) : null}
    </div>
  );
}

function BrokerEditor({
  broker,
  onClose,
  onSaved,
}: {
  broker: TBroker | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const failure = useFailureText();
  const create = useMutation('adminbrokercreate');
  const update = useMutation('adminbrokerupdate');
  const [name, setName] = useState(broker?.name ?? '');
  const [slug, setSlug] = useState(broker?.slug ?? '');
  const [hostsText, setHostsText] = useState(broker?.hosts.join('\n') ?? '');
  const [adminUsername, setAdminUsername] = useState('admin');
  const [adminPassword, setAdminPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const confirmingRef = useRef(false);
  confirmingRef.current = confirming;
  const close = useCallback(() => {
    if (!confirmingRef.current) onClose();
  }, [onClose]);
  const formId = useId();
  const hosts = parseHosts(hostsText);
  const mutation = broker ? update : create;
  const problems = {
    name: name.trim() ? null : t('admin.access.brokers.nameRequired'),
    slug: broker || BROKER_SLUG_PATTERN.test(slug) ? null : t('admin.access.brokers.slugFormat'),
    hosts:
      hosts.length === 0
        ? t('admin.access.brokers.hostsRequired')
        : hosts.every((h) => HOST_NAME_PATTERN.test(h))
          ? null
          : t('admin.access.brokers.hostFormat'),
    adminUsername:
      broker || STAFF_USERNAME_PATTERN.test(adminUsername) ? null : t('admin.login.errors.usernameFormat'),
    adminPassword:
      broker || [...adminPassword].length >= NEW_BROKER_MIN_PASSWORD
        ? null
        : t('admin.access.strength.min', { min: NEW_BROKER_MIN_PASSWORD }),
  };
  const shown = (field: keyof typeof problems) =>
    mutation.error?.fields[field] ??
    (field === 'slug' && mutation.error?.errorCode === -6016 ? mutation.error.message : null) ??
    (touched ? problems[field] : null);
  const valid = Object.values(problems).every((p) => p === null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (valid) setConfirming(true);
  };

  const onConfirm = async () => {
    const answer = broker
      ? await update.run({ id: broker.id, name: name.trim(), hosts })
      : await create.run({ name: name.trim(), slug, hosts, adminUsername, adminPassword });
    setConfirming(false);
    if (answer) onSaved();
  };

  const generalError =
    mutation.error && mutation.error.errorCode !== -9001 && mutation.error.errorCode !== -6016
      ? failure(mutation.error)
      : mutation.error?.errorCode === -6016 && broker
        ? mutation.error.message
        : null;

  return (
    <>
      <FormModal
        title={
          broker
            ? t('admin.access.brokers.editTitle', { name: broker.name })
            : t('admin.access.brokers.newTitle')
        }
        onClose={close}
        wide
        testId="broker-editor"
        formId={formId}
        formClassName="ac-form"
        onSubmit={submit}
        onCancel={onClose}
        submitLabel={broker ? t('admin.access.save') : t('admin.access.brokers.create')}
        pending={mutation.pending}
      >
        <div className="kit-form-grid">
          <Field label={t('admin.access.brokers.name')} error={shown('name')}>
            {(props) => (
              <input
                {...props}
                name="name"
                className="input"
                maxLength={80}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          <Field
            label={t('admin.access.brokers.slug')}
            hint={broker ? t('admin.access.brokers.slugFixed') : t('admin.access.brokers.slugHint')}
            error={shown('slug')}
          >
            {(props) => (
              <input
                {...props}
                name="slug"
                className="input"
                maxLength={40}
                autoCapitalize="none"
                spellCheck={false}
                value={slug}
                disabled={broker !== null}
                onChange={(e) => setSlug(e.target.value.toLowerCase())}
              />
            )}
          </Field>
        </div>
        <Field
          label={t('admin.access.brokers.hosts')}
          hint={t('admin.access.brokers.hostsHint')}
          error={shown('hosts')}
        >
          {(props) => (
            <textarea
              {...props}
              name="hosts"
              className="input ac-textarea"
              rows={3}
              spellCheck={false}
              value={hostsText}
              onChange={(e) => setHostsText(e.target.value)}
            />
          )}
        </Field>
        {broker ? null : (
          <fieldset className="ac-fieldset">
            <legend>{t('admin.access.brokers.firstAdmin')}</legend>
            <p className="kit-hint">{t('admin.access.brokers.firstAdminHint')}</p>
            <Field label={t('admin.access.staff.username')} error={shown('adminUsername')}>
              {(props) => (
                <input
                  {...props}
                  name="adminUsername"
                  className="input"
                  autoComplete="off"
                  maxLength={32}
                  value={adminUsername}
                  onChange={(e) => setAdminUsername(e.target.value)}
                />
              )}
            </Field>
            <PasswordField
              label={t('admin.access.staff.initialPassword')}
              name="adminPassword"
              value={adminPassword}
              onChange={setAdminPassword}
              minLength={NEW_BROKER_MIN_PASSWORD}
              error={shown('adminPassword')}
            />
            <div className="kit-actions">
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setAdminPassword(generatePassword(16))}
              >
                {t('admin.access.staff.generate')}
              </button>
            </div>
          </fieldset>
        )}
        {generalError ? (
          <p className="kit-error" role="alert">
            {generalError}
          </p>
        ) : null}
      </FormModal>
      {confirming ? (
        <ConfirmDialog
          title={broker ? t('admin.access.brokers.confirmEdit') : t('admin.access.brokers.confirmNew')}
          message={
            broker
              ? t('admin.access.brokers.confirmEditText', { name: name.trim(), hosts: hosts.join(', ') })
              : t('admin.access.brokers.confirmNewText', {
                  name: name.trim(),
                  hosts: hosts.join(', '),
                  username: adminUsername,
                })
          }
          pending={mutation.pending}
          onConfirm={onConfirm}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}

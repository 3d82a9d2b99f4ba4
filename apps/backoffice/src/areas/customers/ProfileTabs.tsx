import { type ReactNode, useMemo, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { Modal } from '../../kit/Modal';
import { useMutation } from '../../kit/useApi';
import { KYC_LABELS, KYC_TONES, SESSION_STATE_LABELS, STATUS_LABELS, useFormat } from './format';
import type { TTabProps } from './tabs';

type TSession = TTabProps['detail']['sessions'][number];

/** Identity and sign-in facts; contacts are masked until a staff member asks to see them (audited). */
export function ProfileTab({ detail }: TTabProps) {
  const { t } = useI18n();
  const format = useFormat();
  const { profile } = detail;
  const reveal = useMutation('admincustomercontact');
  const [contact, setContact] = useState<{ email: string | null; phone: string | null } | null>(null);
  const facts: { label: string; value: ReactNode }[] = [
    { label: t('admin.customers.field.id'), value: <span className="cu-mono">{profile.id}</span> },
    { label: t('admin.customers.field.name'), value: profile.name },
    { label: t('admin.customers.field.nick'), value: profile.nick || '—' },
    {
      label: t('admin.customers.field.email'),
      value: (
        <span className="cu-mono" data-testid="profile-email">
          {(contact ? contact.email : profile.email) ?? '—'}
        </span>
      ),
    },
    {
      label: t('admin.customers.field.phone'),
      value: (
        <span className="cu-mono" data-testid="profile-phone">
          {(contact ? contact.phone : profile.phone) ?? '—'}
        </span>
      ),
    },
    { label: t('admin.customers.field.country'), value: format.country(profile.country) ?? '—' },
    { label: t('admin.customers.field.registered'), value: format.dateTime(profile.createdAt) },
    {
      label: t('admin.customers.field.status'),
      value: (
        <span className={`kit-pill ${profile.status === 'active' ? 'kit-pill-up' : 'kit-pill-down'}`}>
          {t(STATUS_LABELS[profile.status])}
        </span>
      ),
    },
    {
      label: t('admin.customers.field.kyc'),
      value: <span className={`kit-pill ${KYC_TONES[profile.kyc]}`}>{t(KYC_LABELS[profile.kyc])}</span>,
    },
    {
      label: t('admin.customers.field.twoFactor'),
      value: (
        <span className={`kit-pill ${profile.twoFactor ? 'kit-pill-up' : ''}`}>
          {t(profile.twoFactor ? 'admin.customers.twoFactor.on' : 'admin.customers.twoFactor.off')}
        </span>
      ),
    },
    {
      label: t('admin.customers.field.lastSignIn'),
      value: profile.lastSignInAt ? format.dateTime(profile.lastSignInAt) : '—',
    },
    {
      label: t('admin.customers.field.signInFailures'),
      value: profile.lockedUntil
        ? t('admin.customers.lockedUntil', {
            count: profile.failedSignIns,
            time: format.dateTime(profile.lockedUntil),
          })
        : profile.failedSignIns,
    },
  ];
  return (
    <section className="card cu-profile">
      <dl className="cu-facts cu-facts-grid">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      {contact || (!profile.email && !profile.phone) ? null : (
        <div className="cu-reveal">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={reveal.pending}
            data-testid="profile-reveal"
            onClick={async () => {
              const answer = await reveal.run({ userId: profile.id });
              if (answer) setContact(answer);
            }}
          >
            <Icon name="eye" size={14} />
            {t('admin.customers.reveal.action')}
          </button>
          <span className="kit-hint">{t('admin.customers.reveal.hint')}</span>
          {reveal.error ? <span className="field-error">{reveal.error.message}</span> : null}
        </div>
      )}
    </section>
  );
}

/** The trader's sign-in sessions: live ones and the latest ended ones. */
export function SessionsTab({ detail }: TTabProps) {
  const { t } = useI18n();
  const format = useFormat();
  const columns = useMemo<TColumn<TSession>[]>(
    () => [
      { key: 'device', header: t('admin.customers.session.device'), render: (s) => s.device },
      {
        key: 'ip',
        header: t('admin.customers.session.ip'),
        render: (s) => <span className="cu-mono">{s.ip ?? '—'}</span>,
      },
      {
        key: 'created',
        header: t('admin.customers.session.signedIn'),
        render: (s) => format.dateTime(s.createdAt),
      },
      {
        key: 'seen',
        header: t('admin.customers.session.lastSeen'),
        render: (s) => format.dateTime(s.lastSeenAt),
      },
      {
        key: 'state',
        header: t('admin.customers.field.status'),
        render: (s) => (
          <span className={`kit-pill ${s.state === 'active' ? 'kit-pill-up' : ''}`}>
            {t(SESSION_STATE_LABELS[s.state])}
          </span>
        ),
      },
    ],
    [t, format],
  );
  return (
    <DataTable
      testId="sessions-table"
      rows={detail.sessions}
      columns={columns}
      rowKey={(s) => s.id}
      empty={t('admin.customers.session.none')}
    />
  );
}

/** Staff notes on the customer, newest first; staff with users.note add them. */
export function NotesTab({ detail, reload, notify }: TTabProps) {
  const { t } = useI18n();
  const format = useFormat();
  const [writing, setWriting] = useState(false);
  return (
    <section className="cu-notes">
      <Can permission="users.note">
        <div className="cu-notes-bar">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => setWriting(true)}
            data-testid="note-add"
          >
            <Icon name="sparkles" size={14} />
            {t('admin.customers.note.add')}
          </button>
        </div>
      </Can>
      {detail.notes.length === 0 ? (
        <div className="card empty-state cu-empty">
          <Icon name="info" size={22} />
          <p>{t('admin.customers.note.none')}</p>
        </div>
      ) : (
        <ol className="cu-note-list">
          {detail.notes.map((note) => (
            <li key={note.id} className="card cu-note" data-testid="note">
              <p>{note.body}</p>
              <span className="cu-muted">
                {t('admin.customers.note.by', {
                  name: note.staffName,
                  time: format.dateTime(note.createdAt),
                })}
              </span>
            </li>
          ))}
        </ol>
      )}
      {writing ? (
        <NoteDialog
          userId={detail.profile.id}
          onClose={() => setWriting(false)}
          onDone={() => {
            setWriting(false);
            notify(t('admin.customers.note.done'));
            reload();
          }}
        />
      ) : null}
    </section>
  );
}

const NOTE_MAX = 1000;

function NoteDialog({
  userId,
  onClose,
  onDone,
}: {
  userId: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const add = useMutation('admincustomernote');
  const [body, setBody] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = body.trim() === '' ? t('admin.customers.note.required') : null;
  return (
    <Modal
      title={t('admin.customers.note.add')}
      onClose={onClose}
      testId="note-dialog"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={add.pending}>
            {t('admin.kit.cancel')}
          </button>
          <button
            type="submit"
            form="cu-note-form"
            className="btn btn-primary"
            disabled={add.pending}
            data-testid="note-save"
          >
            {add.pending ? <span className="bo-spin bo-spinner-sm" aria-hidden="true" /> : null}
            {t('admin.customers.note.save')}
          </button>
        </>
      }
    >
      <form
        id="cu-note-form"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          setTouched(true);
          if (problem) return;
          if (await add.run({ userId, body: body.trim() })) onDone();
        }}
      >
        <Field
          label={t('admin.customers.note.body')}
          error={touched ? problem : null}
          hint={t('admin.customers.note.count', { count: body.length, max: NOTE_MAX })}
        >
          {(props) => (
            <textarea
              {...props}
              className="input"
              rows={5}
              maxLength={NOTE_MAX}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              data-testid="note-body"
            />
          )}
        </Field>
        {add.error ? (
          <p className="kit-error" role="alert">
            {add.error.message}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}

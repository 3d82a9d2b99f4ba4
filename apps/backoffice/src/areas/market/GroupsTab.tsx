import type { TAccountGroup } from '@broker/contracts/admin/market-routes';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { callApi } from '../../api';
import { useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { Modal } from '../../kit/Modal';
import { useQuery } from '../../kit/useApi';
import { ApiError } from '../../lib/api';

/** Margin levels are kept in basis points; staff read them as percentages. */
export const percent = (bp: number, intl: string) =>
  new Intl.NumberFormat(intl, { style: 'percent', maximumFractionDigits: 2 }).format(bp / 10_000);

/** Creates a group, or renames and describes one. */
export function GroupForm({
  group,
  onClose,
  onSaved,
}: {
  group: TAccountGroup | null;
  onClose: () => void;
  onSaved: (group: TAccountGroup) => void;
}) {
  const { t } = useI18n();
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [errors, setErrors] = useState<{ name?: string; description?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  const formId = 'mk-group-form';
  const submit = async () => {
    if (name.trim() === '') {
      setErrors({ name: t('admin.market.groups.nameRequired') });
      return;
    }
    setPending(true);
    setErrors({});
    try {
      const answer = await callApi('adminmarketgroupsave', {
        ...(group ? { id: group.id, version: group.version } : {}),
        name: name.trim(),
        description: description.trim(),
      });
      onSaved(answer.item);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError('http', String(error));
      if (apiError.errorCode === -6013 && apiError.fields.name)
        setErrors({ name: t('admin.market.groups.nameTaken') });
      else if (apiError.fields.name || apiError.fields.description)
        setErrors({ name: apiError.fields.name, description: apiError.fields.description });
      else setErrors({ form: apiError.message });
    } finally {
      setPending(false);
    }
  };
  return (
    <Modal
      title={
        group ? t('admin.market.groups.editTitle', { name: group.name }) : t('admin.market.groups.newTitle')
      }
      onClose={onClose}
      testId="group-form"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={pending}>
            {t('admin.kit.cancel')}
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={pending}>
            {pending ? <span className="bo-spin bo-spinner-sm" aria-hidden="true" /> : null}
            {t('admin.market.groups.save')}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="mk-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label={t('admin.market.field.name')} error={errors.name}>
          {(props) => (
            <input
              {...props}
              className="input"
              name="name"
              maxLength={40}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field
          label={t('admin.market.field.description')}
          error={errors.description}
          hint={t('admin.market.groups.descriptionHint')}
        >
          {(props) => (
            <textarea
              {...props}
              className="input"
              name="description"
              rows={3}
              maxLength={200}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </Field>
        {errors.form ? (
          <p className="kit-error" role="alert">
            {errors.form}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}

export function GroupsTab() {
  const { t, intl, formatNumber } = useI18n();
  const navigate = useNavigate();
  const list = useQuery('adminmarketgrouplist', {});
  const [creating, setCreating] = useState(false);
  const date = useMemo(() => new Intl.DateTimeFormat(intl, { dateStyle: 'medium' }), [intl]);
  const columns: TColumn<TAccountGroup>[] = [
    {
      key: 'name',
      header: t('admin.market.field.name'),
      sortValue: (g) => g.name,
      render: (g) => (
        <span className="mk-group-name">
          <strong>{g.name}</strong>
          {g.isDefault ? (
            <span className="kit-pill kit-pill-up">{t('admin.market.groups.default')}</span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'description',
      header: t('admin.market.field.description'),
      render: (g) => <span className="mk-clip">{g.description || '—'}</span>,
    },
    {
      key: 'accounts',
      header: t('admin.market.groups.accounts'),
      align: 'end',
      sortValue: (g) => g.accounts,
      render: (g) => formatNumber(g.accounts),
    },
    {
      key: 'overrides',
      header: t('admin.market.groups.overrides'),
      align: 'end',
      sortValue: (g) => g.overrides,
      render: (g) => formatNumber(g.overrides),
    },
    {
      key: 'levels',
      header: t('admin.market.groups.levels'),
      align: 'end',
      render: (g) => `${percent(g.marginCallBp, intl)} / ${percent(g.stopOutBp, intl)}`,
    },
    {
      key: 'created',
      header: t('admin.market.groups.created'),
      sortValue: (g) => g.createdAt,
      render: (g) => <span className="mk-muted">{date.format(new Date(g.createdAt))}</span>,
    },
  ];
  return (
    <div className="mk-tab" data-testid="market-groups">
      <p className="mk-intro">{t('admin.market.groups.intro')}</p>
      <DataTable
        testId="groups-table"
        rowTestId="group-row"
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(g) => g.id}
        filterText={(g) => `${g.name} ${g.description}`}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        onRowClick={(g) => navigate(`/market/groups/${g.id}`)}
        toolbar={
          <Can permission="market.groups">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => setCreating(true)}
              data-testid="group-new"
            >
              {t('admin.market.groups.new')}
            </button>
          </Can>
        }
      />
      {creating ? (
        <GroupForm
          group={null}
          onClose={() => setCreating(false)}
          onSaved={(group) => {
            setCreating(false);
            navigate(`/market/groups/${group.id}`);
          }}
        />
      ) : null}
    </div>
  );
}

import type { TRouteOutput } from '@broker/contracts/routes';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { ConfirmDialog, Modal } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { bpToPercent, percentToBp, useRiskFormat } from './format';

type TGroup = TRouteOutput<'adminrisklevels'>[number];

/** Each group's margin-call and stop-out levels and negative-balance protection. */
export function LevelsTab() {
  const { t } = useI18n();
  const f = useRiskFormat();
  const query = useQuery('adminrisklevels', {});
  const [editing, setEditing] = useState<TGroup | null>(null);
  const percent = (bp: number) => f.percent((bp / 100).toFixed(2));
  const columns: TColumn<TGroup>[] = [
    {
      key: 'name',
      header: t('admin.risk.col.group'),
      render: (g) => (
        <span className="risk-split">
          <strong>{g.name}</strong>
          {g.isDefault ? <span className="kit-pill">{t('admin.risk.levels.default')}</span> : null}
        </span>
      ),
      sortValue: (g) => g.name,
    },
    {
      key: 'accounts',
      header: t('admin.risk.col.accounts'),
      align: 'end',
      render: (g) => f.count(g.accounts),
      sortValue: (g) => g.accounts,
    },
    {
      key: 'call',
      header: t('admin.risk.levels.marginCall'),
      align: 'end',
      render: (g) => percent(g.marginCallBp),
      sortValue: (g) => g.marginCallBp,
    },
    {
      key: 'stop',
      header: t('admin.risk.levels.stopOut'),
      align: 'end',
      render: (g) => percent(g.stopOutBp),
      sortValue: (g) => g.stopOutBp,
    },
    {
      key: 'nbp',
      header: t('admin.risk.levels.nbp'),
      render: (g) =>
        g.negativeBalanceProtection ? (
          <span className="kit-pill kit-pill-up">{t('admin.risk.levels.on')}</span>
        ) : (
          <span className="kit-pill kit-pill-warn">{t('admin.risk.levels.off')}</span>
        ),
    },
    { key: 'updated', header: t('admin.risk.col.updated'), render: (g) => f.time(g.updatedAt) },
    {
      key: 'actions',
      header: '',
      align: 'end',
      render: (g) => (
        <Can permission="risk.edit">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setEditing(g)}
            data-testid="risk-level-edit"
          >
            {t('admin.risk.edit')}
          </button>
        </Can>
      ),
    },
  ];
  return (
    <div className="risk-tab-body">
      <p className="risk-note">{t('admin.risk.levels.text')}</p>
      <DataTable
        rows={query.data ?? []}
        columns={columns}
        rowKey={(g) => g.id}
        loading={query.status === 'loading'}
        error={query.status === 'error' ? query.error.message : null}
        onRetry={query.reload}
        testId="risk-levels"
      />
      {editing ? (
        <LevelDialog
          group={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            query.reload();
          }}
        />
      ) : null}
    </div>
  );
}

function LevelDialog({
  group,
  onClose,
  onSaved,
}: {
  group: TGroup;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const [call, setCall] = useState(bpToPercent(group.marginCallBp));
  const [stop, setStop] = useState(bpToPercent(group.stopOutBp));
  const [nbp, setNbp] = useState(group.negativeBalanceProtection);
  const [errors, setErrors] = useState<{ call?: string; stop?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const save = useMutation('adminrisklevelsave');
  const formId = `risk-levels-${group.id}`;

  const check = () => {
    const callBp = percentToBp(call);
    const stopBp = percentToBp(stop);
    const next: { call?: string; stop?: string } = {};
    if (callBp === null || callBp < 1 || callBp > 100_000) next.call = t('admin.risk.levels.range');
    if (stopBp === null || stopBp > 100_000) next.stop = t('admin.risk.levels.range');
    else if (callBp !== null && stopBp >= callBp) next.stop = t('admin.risk.levels.order');
    setErrors(next);
    return Object.keys(next).length === 0 && callBp !== null && stopBp !== null ? { callBp, stopBp } : null;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (check()) setConfirming(true);
  };
  const apply = async () => {
    const levels = check();
    if (!levels) return;
    const saved = await save.run({
      groupId: group.id,
      marginCallBp: levels.callBp,
      stopOutBp: levels.stopBp,
      negativeBalanceProtection: nbp,
      updatedAt: group.updatedAt,
    });
    if (saved) onSaved();
  };

  if (confirming)
    return (
      <ConfirmDialog
        title={t('admin.risk.levels.confirmTitle', { name: group.name })}
        message={t('admin.risk.levels.confirmText', {
          call,
          stop,
          accounts: group.accounts,
        })}
        confirmLabel={t('admin.risk.levels.apply')}
        danger={!nbp && group.negativeBalanceProtection}
        pending={save.pending}
        error={save.error?.message ?? null}
        onConfirm={apply}
        onCancel={() => {
          save.reset();
          setConfirming(false);
        }}
      >
        <LevelImpact groupId={group.id} call={call} stop={stop} />
        {!nbp && group.negativeBalanceProtection ? (
          <p className="kit-error">{t('admin.risk.levels.nbpOffWarning')}</p>
        ) : null}
      </ConfirmDialog>
    );

  return (
    <Modal
      title={t('admin.risk.levels.editTitle', { name: group.name })}
      onClose={onClose}
      testId="risk-level-dialog"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('admin.kit.cancel')}
          </button>
          <button type="submit" form={formId} className="btn btn-primary">
            {t('admin.risk.save')}
          </button>
        </>
      }
    >
      <form id={formId} className="kit-form-grid" onSubmit={submit} noValidate>
        <Field
          label={t('admin.risk.levels.marginCall')}
          error={errors.call}
          hint={t('admin.risk.levels.callHint')}
        >
          {(props) => (
            <input
              {...props}
              className="input"
              inputMode="decimal"
              name="marginCall"
              value={call}
              onChange={(e) => setCall(e.target.value)}
            />
          )}
        </Field>
        <Field
          label={t('admin.risk.levels.stopOut')}
          error={errors.stop}
          hint={t('admin.risk.levels.stopHint')}
        >
          {(props) => (
            <input
              {...props}
              className="input"
              inputMode="decimal"
              name="stopOut"
              value={stop}
              onChange={(e) => setStop(e.target.value)}
            />
          )}
        </Field>
      </form>
      <label className="kit-check">
        <input type="checkbox" checked={nbp} onChange={(e) => setNbp(e.target.checked)} name="nbp" />
        {t('admin.risk.levels.nbpLabel')}
      </label>
      <p className="kit-hint">{t('admin.risk.levels.nbpHint')}</p>
    </Modal>
  );
}

/**
 * What the proposed levels would do now (levels apply at once): accounts that would be stopped out
 * (their positions closed, largest loser first) or put in margin call, from the engine's figures.
 */
function LevelImpact({ groupId, call, stop }: { groupId: string; call: string; stop: string }) {
  const { t } = useI18n();
  const f = useRiskFormat();
  const marginCallBp = percentToBp(call) ?? 0;
  const stopOutBp = percentToBp(stop) ?? 0;
  const impact = useQuery('adminrisklevelpreview', { groupId, marginCallBp, stopOutBp });
  if (impact.status === 'error')
    return (
      <p className="kit-hint">{t('admin.risk.levels.impactFailed', { message: impact.error.message })}</p>
    );
  const data = impact.data;
  if (!data) return <p className="kit-hint">{t('admin.risk.levels.impactLoading')}</p>;
  return (
    <div data-testid="levels-impact">
      {data.stopOut > 0 ? (
        <p className="kit-error">
          {t('admin.risk.levels.impactStopOut', {
            count: data.stopOut,
            positions: data.stopOutPositions,
            pnl: f.usd(data.stopOutFloatingUsd),
          })}
        </p>
      ) : null}
      {data.marginCall > 0 ? (
        <p className="kit-error">{t('admin.risk.levels.impactMarginCall', { count: data.marginCall })}</p>
      ) : null}
      {data.stopOut === 0 && data.marginCall === 0 ? (
        <p className="kit-hint">{t('admin.risk.levels.impactNone', { trading: data.trading })}</p>
      ) : null}
    </div>
  );
}

import type { TAccountGroup, TMarketInstrument } from '@broker/contracts/admin/market-routes';
import {
  changedKeys,
  GROUP_OVERRIDE_KEYS,
  mergeOverrides,
  type TGroupOverrideKey,
  type TGroupOverrides,
} from '@broker/domain/market/market-config';
import { type ReactNode, useState } from 'react';
import { callApi } from '../../api';
import { useI18n } from '../../i18n';
import { Drawer } from '../../kit/Drawer';
import { ConfirmDialog } from '../../kit/Modal';
import { ApiError } from '../../lib/api';
import { useSession } from '../../session';
import { ChangeList } from './ChangeList';
import { EditorFooter, type TEditNotice } from './EditorFooter';
import { problemAt, readOverridesForm, type TInstrumentForm, type TProblems, toForm } from './form';
import { FIELD_LABEL, formatValue, PROBLEM_TEXT } from './format';
import { Section } from './InstrumentDrawer';
import { SessionsEditor } from './SessionsEditor';
import { TiersEditor } from './TiersEditor';

/** The form part that holds a key's value. */
const FORM_PART: Partial<Record<TGroupOverrideKey, keyof TInstrumentForm>> = {
  leverageTiers: 'tiers',
  sessions: 'days',
};
const partOf = (key: TGroupOverrideKey) => (FORM_PART[key] ?? key) as keyof TInstrumentForm;

/**
 * One group's overrides of one instrument: each field either inherits the instrument's value (shown
 * as a hint) or is ticked and set for the group. The spread markup is the instrument's for everyone.
 */
export function OverridesDrawer({
  group,
  instrument,
  entry,
  onClose,
  onSaved,
  onReload,
}: {
  group: TAccountGroup;
  instrument: TMarketInstrument;
  entry: { overrides: TGroupOverrides; version: string } | null;
  onClose: () => void;
  onSaved: (applied: boolean) => void;
  onReload: () => void;
}) {
  const { t, intl } = useI18n();
  const { can } = useSession();
  const canEdit = can('market.groups');
  const base = instrument.config;
  const baseForm = toForm(base);
  const initial = entry?.overrides ?? {};
  const [form, setForm] = useState<TInstrumentForm>(() => toForm(mergeOverrides(base, initial)));
  const [keys, setKeys] = useState<Set<TGroupOverrideKey>>(
    () => new Set(GROUP_OVERRIDE_KEYS.filter((k) => initial[k] !== undefined)),
  );
  const [problems, setProblems] = useState<TProblems>({});
  const [server, setServer] = useState<Record<string, string>>({});
  const [review, setReview] = useState<TGroupOverrides | null>(null);
  const [notice, setNotice] = useState<TEditNotice>(null);
  const [pending, setPending] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const context = { intl, t, defaultLeverage: instrument.defaultLeverage };
  const cap =
    keys.has('maxLeverage') && form.maxLeverage.trim() !== ''
      ? Number(form.maxLeverage)
      : (base.maxLeverage ?? instrument.defaultLeverage);

  const update = (change: Partial<TInstrumentForm>) => {
    setForm((f) => ({ ...f, ...change }));
    setNotice(null);
  };
  const toggle = (key: TGroupOverrideKey, on: boolean) => {
    setKeys((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
    if (!on) update({ [partOf(key)]: baseForm[partOf(key)] } as Partial<TInstrumentForm>);
    else if (key === 'maxLeverage' && form.maxLeverage === '')
      update({ maxLeverage: String(instrument.defaultLeverage) });
    else setNotice(null);
  };
  const errorOf = (path: string) => {
    const problem = problemAt(problems, path);
    return problem ? t(PROBLEM_TEXT[problem], { cap }) : server[path];
  };

  const submit = () => {
    const { overrides, problems: found } = readOverridesForm(form, keys, base, instrument.defaultLeverage);
    setProblems(found);
    setServer({});
    if (Object.keys(found).length > 0) {
      setNotice('invalid');
      return;
    }
    if (changedKeys(initial, overrides).length === 0) {
      setNotice('unchanged');
      return;
    }
    setConfirmError(null);
    setReview(overrides);
  };
  const confirm = async () => {
    if (!review) return;
    setPending(true);
    try {
      const answer = await callApi('adminmarketgrouptermssave', {
        groupId: group.id,
        symbol: instrument.symbol,
        overrides: review,
        version: entry?.version ?? null,
      });
      onSaved(answer.applied);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError('http', String(error));
      if (apiError.errorCode === -6013) {
        setReview(null);
        setServer(apiError.fields);
        setNotice('invalid');
      } else if (apiError.errorCode === -6017) {
        setReview(null);
        setNotice('stale');
      } else setConfirmError(apiError.message);
    } finally {
      setPending(false);
    }
  };

  /** One overridable field: the tick, the control, and what it inherits. */
  const row = (key: TGroupOverrideKey, control: (disabled: boolean) => ReactNode) => {
    const on = keys.has(key);
    const error = on ? errorOf(key === 'leverageTiers' ? 'leverageTiers' : key) : undefined;
    return (
      <div className={`mk-ovr${on ? ' is-on' : ''}`} data-key={key}>
        <label className="kit-check mk-ovr-toggle">
          <input
            type="checkbox"
            checked={on}
            disabled={!canEdit}
            name={`override-${key}`}
            onChange={(e) => toggle(key, e.target.checked)}
          />
          <span className="mk-check-label">{t(FIELD_LABEL[key] ?? key)}</span>
        </label>
        <div className="mk-ovr-control">
          {control(!on || !canEdit)}
          {on ? null : (
            <span className="kit-hint">
              {t('admin.market.value.inherits', { value: formatValue(key, base[key], context) })}
            </span>
          )}
          {error && key !== 'sessions' && key !== 'leverageTiers' ? (
            <span className="field-error" role="alert">
              {error}
            </span>
          ) : null}
        </div>
      </div>
    );
  };
  const input = (
    key:
      | 'minVolume'
      | 'volumeStep'
      | 'maxVolume'
      | 'maxLeverage'
      | 'swapLong'
      | 'swapShort'
      | 'commissionPerLot',
    suffix?: string,
  ) =>
    row(key, (disabled) => (
      <span className="mk-input-wrap">
        <input
          className="input"
          name={key}
          inputMode={key === 'maxLeverage' ? 'numeric' : 'decimal'}
          disabled={disabled}
          aria-label={t(FIELD_LABEL[key] ?? key)}
          aria-invalid={keys.has(key) && Boolean(errorOf(key))}
          value={form[key]}
          onChange={(e) => update({ [key]: e.target.value } as Partial<TInstrumentForm>)}
        />
        {suffix ? <span className="mk-suffix">{suffix}</span> : null}
      </span>
    ));
  const flag = (key: 'enabled' | 'closeOnly' | 'shortAllowed') =>
    row(key, (disabled) => (
      <select
        className="input mk-select"
        name={key}
        disabled={disabled}
        aria-label={t(FIELD_LABEL[key] ?? key)}
        value={form[key] ? 'yes' : 'no'}
        onChange={(e) => update({ [key]: e.target.value === 'yes' } as Partial<TInstrumentForm>)}
      >
        <option value="yes">{t('admin.market.value.yes')}</option>
        <option value="no">{t('admin.market.value.no')}</option>
      </select>
    ));

  return (
    <Drawer
      className="mk-drawer"
      focusFirstField
      testId="overrides-drawer"
      title={`${group.name} · ${instrument.symbol}`}
      subtitle={t('admin.market.overrides.subtitle')}
      onClose={onClose}
      footer={
        <EditorFooter
          notice={notice}
          canEdit={canEdit}
          onReload={onReload}
          onClose={onClose}
          onReview={submit}
          reviewTestId="overrides-review"
        />
      }
    >
      {!canEdit ? <p className="mk-readonly">{t('admin.market.overrides.readOnly')}</p> : null}
      <Section id="mk-ovr-trading" title={t('admin.market.edit.trading')}>
        {flag('enabled')}
        {flag('closeOnly')}
        {flag('shortAllowed')}
        <p className="kit-hint">
          {t('admin.market.overrides.markup', {
            markup: formatValue('markupPoints', base.markupPoints, context),
            stops: formatValue('stopsLevelPoints', base.stopsLevelPoints, context),
          })}
        </p>
      </Section>
      <Section id="mk-ovr-volumes" title={t('admin.market.edit.volumes')}>
        {input('minVolume', t('admin.market.unit.lots'))}
        {input('volumeStep', t('admin.market.unit.lots'))}
        {input('maxVolume', t('admin.market.unit.lots'))}
      </Section>
      <Section id="mk-ovr-leverage" title={t('admin.market.edit.leverage')}>
        {input('maxLeverage')}
        {row('leverageTiers', (disabled) => (
          <TiersEditor
            tiers={form.tiers}
            onChange={(tiers) => update({ tiers })}
            problems={keys.has('leverageTiers') ? problems : {}}
            cap={Number.isFinite(cap) ? cap : null}
            disabled={disabled}
          />
        ))}
      </Section>
      <Section id="mk-ovr-sessions" title={t('admin.market.edit.sessions')}>
        {row('sessions', (disabled) => (
          <SessionsEditor
            days={form.days}
            onChange={(days) => update({ days })}
            problems={keys.has('sessions') ? problems : {}}
            weekProblem={
              keys.has('sessions') && problems.sessions ? t(PROBLEM_TEXT[problems.sessions]) : server.sessions
            }
            disabled={disabled}
          />
        ))}
      </Section>
      <Section id="mk-ovr-swaps" title={t('admin.market.edit.swaps')}>
        {input('swapLong', t('admin.market.unit.points'))}
        {input('swapShort', t('admin.market.unit.points'))}
        {input('commissionPerLot', t('admin.market.unit.perLot'))}
      </Section>
      {review ? (
        <ConfirmDialog
          title={t('admin.market.overrides.confirmTitle', { group: group.name, symbol: instrument.symbol })}
          message={t('admin.market.overrides.confirmText')}
          confirmLabel={t('admin.market.edit.save')}
          pending={pending}
          error={confirmError}
          onConfirm={confirm}
          onCancel={() => setReview(null)}
        >
          <ChangeList
            before={initial}
            after={review}
            inherited={base}
            defaultLeverage={instrument.defaultLeverage}
            testId="overrides-changes"
          />
        </ConfirmDialog>
      ) : null}
    </Drawer>
  );
}

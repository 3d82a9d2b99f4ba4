import { useId } from 'react';
import { useI18n } from '../../i18n';
import { LoadError, Notice, Skeleton, useNotice } from '../../kit/Feedback';
import {
  NumberField,
  SettingsChangeList,
  SettingsReviewActions,
  useSettingsReview,
} from '../../kit/SettingsReview';
import { useMutation, useQuery } from '../../kit/useApi';
import { useSession } from '../../session';
import { methodLabel, useFundingFormat } from './format';
import {
  COIN_RULES,
  readSettingsForm,
  settingsChanges,
  type TDirection,
  type TSettingsChange,
  type TSettingsProblem,
  type TSideForm,
  toSettingsForm,
} from './settings-form';

const PROBLEM_TEXT: Record<TSettingsProblem, string> = {
  amount: 'admin.funding.settings.problem.amount',
  minAboveMax: 'admin.funding.settings.problem.minAboveMax',
  fee: 'admin.funding.settings.problem.fee',
  hours: 'admin.funding.settings.problem.hours',
  coins: 'admin.funding.settings.problem.coins',
};

const SIDE_FIELD_LABELS: Record<keyof TSideForm, string> = {
  enabled: 'admin.funding.settings.enabled',
  min: 'admin.funding.settings.min',
  max: 'admin.funding.settings.max',
  feePercent: 'admin.funding.settings.feePercent',
  feeFixed: 'admin.funding.settings.feeFixed',
};

const DIRECTION_LABELS: Record<TDirection, string> = {
  deposit: 'admin.funding.settings.deposit',
  withdraw: 'admin.funding.settings.withdraw',
};

const COIN_LABELS: Record<(typeof COIN_RULES)[number], string> = {
  first_deposit: 'admin.funding.settings.coin.first_deposit',
  kyc_approved: 'admin.funding.settings.coin.kyc_approved',
  contest_entry: 'admin.funding.settings.coin.contest_entry',
};

/**
 * The broker's funding settings: each method's deposit and withdrawal switch, limits and fees, the
 * four-eyes threshold, the funding-password lock and the coin rules; saved after a review of the changes.
 */
export function SettingsTab() {
  const { t } = useI18n();
  const { can } = useSession();
  const canEdit = can('funding.settings');
  const saved = useQuery('adminfundingsettings', {});
  const [notice, setNotice] = useNotice();
  const settings = useSettingsReview({
    saved,
    save: useMutation('adminfundingsettingssave'),
    toForm: toSettingsForm,
    readForm: readSettingsForm,
    changesOf: settingsChanges,
    onSaved: () => setNotice(t('admin.funding.settings.saved')),
  });
  const { current, form, problems, edit } = settings;

  if (saved.status === 'error' && !current)
    return (
      <div className="fu-tab">
        <LoadError message={saved.error.message} onRetry={saved.reload} />
      </div>
    );
  if (!form || !current)
    return (
      <div className="fu-tab">
        <div className="card">
          <Skeleton lines={6} />
        </div>
      </div>
    );

  const editSide = (method: string, direction: TDirection, change: Partial<TSideForm>) =>
    edit((f) => ({
      ...f,
      methods: f.methods.map((m) =>
        m.method === method ? { ...m, [direction]: { ...m[direction], ...change } } : m,
      ),
    }));
  const problemOf = (path: string) => (problems[path] ? t(PROBLEM_TEXT[problems[path]]) : null);

  return (
    <div className="fu-tab fu-settings" data-testid="funding-settings">
      <Notice message={notice} testId="funding-notice" />
      {!canEdit ? <p className="kit-readonly">{t('admin.funding.settings.readOnly')}</p> : null}
      <section className="bo-section" aria-labelledby="fu-methods-title">
        <div className="bo-section-head">
          <h2 id="fu-methods-title">{t('admin.funding.settings.methods')}</h2>
          <p>{t('admin.funding.settings.methodsText')}</p>
        </div>
        <div className="fu-method-list">
          {form.methods.map((m) => (
            <article
              key={m.method}
              className="card fu-method"
              data-testid="settings-method"
              data-method={m.method}
            >
              <h3>{methodLabel(t, m.method)}</h3>
              <div className="fu-method-sides">
                {(['deposit', 'withdraw'] as const).map((direction) => (
                  <SidePanel
                    key={direction}
                    title={t(DIRECTION_LABELS[direction])}
                    side={m[direction]}
                    disabled={!canEdit}
                    pathPrefix={`${m.method}.${direction}`}
                    currency={m.method.startsWith('usdt_') ? 'USDT' : 'USD'}
                    problemOf={problemOf}
                    onChange={(change) => editSide(m.method, direction, change)}
                  />
                ))}
              </div>
            </article>
          ))}
        </div>
      </section>
      <section className="bo-section" aria-labelledby="fu-rules-title">
        <div className="bo-section-head">
          <h2 id="fu-rules-title">{t('admin.funding.settings.rules')}</h2>
        </div>
        <div className="card fu-rules">
          <div className="kit-form-grid">
            <NumberField
              label={t('admin.funding.settings.fourEyes')}
              error={problemOf('fourEyesUsd')}
              hint={t('admin.funding.settings.fourEyesHint')}
              suffix="USD"
              inputMode="decimal"
              value={form.fourEyesUsd}
              disabled={!canEdit}
              onChange={(value) => edit((f) => ({ ...f, fourEyesUsd: value }))}
              testId="settings-foureyes"
            />
            <NumberField
              label={t('admin.funding.settings.lockHours')}
              error={problemOf('fundPasswordLockHours')}
              hint={t('admin.funding.settings.lockHoursHint')}
              suffix={t('admin.funding.settings.hours')}
              inputMode="numeric"
              value={form.fundPasswordLockHours}
              disabled={!canEdit}
              onChange={(value) => edit((f) => ({ ...f, fundPasswordLockHours: value }))}
              testId="settings-lockhours"
            />
          </div>
        </div>
      </section>
      <section className="bo-section" aria-labelledby="fu-coins-title">
        <div className="bo-section-head">
          <h2 id="fu-coins-title">{t('admin.funding.settings.coins')}</h2>
          <p>{t('admin.funding.settings.coinsText')}</p>
        </div>
        <div className="card fu-rules">
          <div className="kit-form-grid">
            {COIN_RULES.map((rule) => (
              <NumberField
                key={rule}
                label={t(COIN_LABELS[rule])}
                error={problemOf(`coins.${rule}`)}
                suffix={t('admin.funding.settings.coinUnit')}
                inputMode="numeric"
                value={form.coins[rule]}
                disabled={!canEdit}
                onChange={(value) => edit((f) => ({ ...f, coins: { ...f.coins, [rule]: value } }))}
                testId={`settings-coin-${rule}`}
              />
            ))}
          </div>
        </div>
      </section>
      <SettingsReviewActions
        state={settings}
        canEdit={canEdit}
        reviewTestId="settings-review"
        text={{
          unchanged: t('admin.funding.settings.unchanged'),
          invalid: t('admin.funding.settings.invalid'),
          discard: t('admin.funding.settings.discard'),
          review: t('admin.funding.settings.review'),
          confirmTitle: t('admin.funding.settings.confirmTitle'),
          confirmText: (count) => t('admin.funding.settings.confirmText', { count }),
          save: t('admin.funding.settings.save'),
        }}
      >
        {(changes) => <ChangeList changes={changes} />}
      </SettingsReviewActions>
    </div>
  );
}

function SidePanel({
  title,
  side,
  disabled,
  pathPrefix,
  currency,
  problemOf,
  onChange,
}: {
  title: string;
  side: TSideForm;
  disabled: boolean;
  pathPrefix: string;
  /** The method's currency (USD for cards, e-wallets and banks, USDT on the chains). */
  currency: string;
  problemOf: (path: string) => string | null;
  onChange: (change: Partial<TSideForm>) => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const input = (
    field: 'min' | 'max' | 'feePercent' | 'feeFixed',
    mode: 'decimal' | 'numeric',
    suffix: string,
  ) => (
    <NumberField
      label={t(SIDE_FIELD_LABELS[field])}
      error={problemOf(`${pathPrefix}.${field}`)}
      suffix={suffix}
      inputMode={mode}
      value={side[field]}
      disabled={disabled}
      onChange={(value) => onChange({ [field]: value })}
      testId={`settings-${pathPrefix}.${field}`}
    />
  );
  return (
    <fieldset className={`fu-side${side.enabled ? '' : ' fu-side-off'}`} aria-labelledby={headingId}>
      <div className="fu-side-head">
        <h4 id={headingId}>{title}</h4>
        <label className="kit-check">
          <input
            type="checkbox"
            checked={side.enabled}
            disabled={disabled}
            onChange={(e) => onChange({ enabled: e.target.checked })}
            data-testid={`settings-${pathPrefix}.enabled`}
          />
          <span>{t('admin.funding.settings.enabled')}</span>
        </label>
      </div>
      <div className="fu-side-grid">
        {input('min', 'decimal', currency)}
        {input('max', 'decimal', currency)}
        {input('feePercent', 'decimal', '%')}
        {input('feeFixed', 'decimal', currency)}
      </div>
    </fieldset>
  );
}

function ChangeList({ changes }: { changes: readonly TSettingsChange[] }) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const show = (change: TSettingsChange, value: string) => {
    if (change.kind === 'method') {
      if (change.field === 'enabled')
        return value === 'true' ? t('admin.funding.settings.on') : t('admin.funding.settings.off');
      if (change.field === 'feePercent') return `${value} %`;
      return format.amount(value);
    }
    if (change.kind === 'fourEyesUsd') return format.money(value, 'USD');
    if (change.kind === 'coins') return value;
    return t('admin.funding.settings.hoursValue', { count: Number(value) });
  };
  const label = (change: TSettingsChange) => {
    if (change.kind === 'method')
      return `${methodLabel(t, change.method)} · ${t(DIRECTION_LABELS[change.direction])} · ${t(SIDE_FIELD_LABELS[change.field])}`;
    if (change.kind === 'fourEyesUsd') return t('admin.funding.settings.fourEyes');
    if (change.kind === 'coins') return t(COIN_LABELS[change.rule]);
    return t('admin.funding.settings.lockHours');
  };
  return (
    <SettingsChangeList
      changes={changes}
      label={label}
      show={show}
      arrowLabel={t('admin.funding.settings.to')}
      testId="settings-changes"
    />
  );
}

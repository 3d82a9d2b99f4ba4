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
import {
  copySettingsChanges,
  FEE_PERCENT_MAX,
  readCopySettingsForm,
  type TCopySettings,
  type TCopySettingsChange,
  type TCopySettingsForm,
  type TCopySettingsProblem,
  type TCopySettingsProblems,
  TRADING_DAYS_MAX,
  toCopySettingsForm,
  useCopyFormat,
} from './format';

const PROBLEM_TEXT: Record<TCopySettingsProblem, string> = {
  days: 'admin.copy.settings.problem.days',
  amount: 'admin.copy.settings.problem.amount',
  percent: 'admin.copy.settings.problem.percent',
};

const FIELD_LABELS: Record<keyof TCopySettings, string> = {
  autoApprove: 'admin.copy.settings.autoApprove',
  minTradingDays: 'admin.copy.settings.minTradingDays',
  minEquity: 'admin.copy.settings.minEquity',
  maxFeePercent: 'admin.copy.settings.maxFeePercent',
};

/**
 * The broker's copy-trading rules: whether applications that meet the minimum trading days and equity
 * are approved at once, and the highest fee a leader may ask. Checked with the contract's rules, then
 * saved after a review of the changes; read only without copy.settings.
 */
export function SettingsTab() {
  const { t, formatNumber } = useI18n();
  const { can } = useSession();
  const canEdit = can('copy.settings');
  const saved = useQuery('admincopysettings', {});
  const [notice, setNotice] = useNotice();
  const settings = useSettingsReview({
    saved,
    save: useMutation('admincopysettingssave'),
    toForm: toCopySettingsForm,
    readForm: readCopySettingsForm,
    changesOf: copySettingsChanges,
    onSaved: () => setNotice(t('admin.copy.settings.saved')),
  });
  const { current, form, problems } = settings;

  if (saved.status === 'error' && !current)
    return (
      <div className="cp-tab">
        <LoadError message={saved.error.message} onRetry={saved.reload} />
      </div>
    );
  if (!form || !current)
    return (
      <div className="cp-tab">
        <div className="card cp-settings-card">
          <Skeleton lines={5} />
        </div>
      </div>
    );

  const edit = (change: Partial<TCopySettingsForm>) => settings.edit((f) => ({ ...f, ...change }));
  const problemOf = (field: keyof TCopySettingsProblems) => {
    const problem = problems[field];
    return problem
      ? t(PROBLEM_TEXT[problem], {
          max: formatNumber(problem === 'days' ? TRADING_DAYS_MAX : FEE_PERCENT_MAX),
        })
      : null;
  };

  return (
    <div className="cp-tab cp-settings" data-testid="copy-settings">
      <Notice message={notice} testId="copy-notice" />
      {!canEdit ? <p className="kit-readonly">{t('admin.copy.settings.readOnly')}</p> : null}
      <section className="bo-section" aria-labelledby="cp-approval-title">
        <div className="bo-section-head">
          <h2 id="cp-approval-title">{t('admin.copy.settings.approval')}</h2>
          <p>{t('admin.copy.settings.approvalText')}</p>
        </div>
        <div className="card cp-settings-card">
          <label className="cp-switch">
            <input
              type="checkbox"
              checked={form.autoApprove}
              disabled={!canEdit}
              onChange={(e) => edit({ autoApprove: e.target.checked })}
              data-testid="copy-settings-auto"
            />
            <span className="cp-switch-text">
              <strong>{t('admin.copy.settings.autoApprove')}</strong>
              <span className="cp-muted">{t('admin.copy.settings.autoApproveHint')}</span>
            </span>
          </label>
          <div className="kit-form-grid">
            <NumberField
              label={t('admin.copy.settings.minTradingDays')}
              error={problemOf('minTradingDays')}
              hint={t('admin.copy.settings.minTradingDaysHint')}
              suffix={t('admin.copy.settings.days')}
              inputMode="numeric"
              value={form.minTradingDays}
              disabled={!canEdit}
              onChange={(value) => edit({ minTradingDays: value })}
              testId="copy-settings-days"
            />
            <NumberField
              label={t('admin.copy.settings.minEquity')}
              error={problemOf('minEquity')}
              hint={t('admin.copy.settings.minEquityHint')}
              inputMode="decimal"
              value={form.minEquity}
              disabled={!canEdit}
              onChange={(value) => edit({ minEquity: value })}
              testId="copy-settings-equity"
            />
          </div>
        </div>
      </section>
      <section className="bo-section" aria-labelledby="cp-fees-title">
        <div className="bo-section-head">
          <h2 id="cp-fees-title">{t('admin.copy.settings.fees')}</h2>
          <p>{t('admin.copy.settings.feesText')}</p>
        </div>
        <div className="card cp-settings-card">
          <div className="kit-form-grid">
            <NumberField
              label={t('admin.copy.settings.maxFeePercent')}
              error={problemOf('maxFeePercent')}
              hint={t('admin.copy.settings.maxFeeHint', { max: formatNumber(FEE_PERCENT_MAX) })}
              suffix="%"
              inputMode="decimal"
              value={form.maxFeePercent}
              disabled={!canEdit}
              onChange={(value) => edit({ maxFeePercent: value })}
              testId="copy-settings-fee"
            />
          </div>
        </div>
      </section>
      <SettingsReviewActions
        state={settings}
        canEdit={canEdit}
        reviewTestId="copy-settings-review"
        text={{
          unchanged: t('admin.copy.settings.unchanged'),
          invalid: t('admin.copy.settings.invalid'),
          discard: t('admin.copy.settings.discard'),
          review: t('admin.copy.settings.review'),
          confirmTitle: t('admin.copy.settings.confirmTitle'),
          confirmText: (count) => t('admin.copy.settings.confirmText', { count }),
          save: t('admin.copy.settings.save'),
        }}
      >
        {(changes) => <ChangeList changes={changes} />}
      </SettingsReviewActions>
    </div>
  );
}

function ChangeList({ changes }: { changes: readonly TCopySettingsChange[] }) {
  const { t } = useI18n();
  const format = useCopyFormat();
  const show = (change: TCopySettingsChange, value: string) => {
    if (change.field === 'autoApprove')
      return value === 'true' ? t('admin.copy.settings.on') : t('admin.copy.settings.off');
    if (change.field === 'minTradingDays')
      return t('admin.copy.settings.daysValue', { count: Number(value) });
    if (change.field === 'maxFeePercent') return format.percent(value);
    return format.amount(value);
  };
  return (
    <SettingsChangeList
      changes={changes}
      label={(change) => t(FIELD_LABELS[change.field])}
      show={show}
      arrowLabel={t('admin.copy.to')}
      testId="copy-settings-changes"
    />
  );
}

import { useId } from 'react';
import { TextField } from '../../components/TextField';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import {
  COPY_MODES,
  exampleLots,
  MODE_UNIT,
  modeValue,
  type TFollowDraft,
  type TFollowField,
  type TProblem,
} from './copy-form';
import { problemText } from './parts';

/**
 * The copy's mode with its value and the follower's risk controls: shared by the follow dialog and the
 * edit dialog of My copies. Each mode is told in one sentence with the unit of its value.
 */
export function SettingsFields({
  draft,
  onChange,
  problems,
  currency,
  showProblems,
  withCopyExisting,
}: {
  draft: TFollowDraft;
  onChange(change: Partial<TFollowDraft>): void;
  problems: Partial<Record<TFollowField, TProblem>>;
  currency: string;
  /** Problems show once the trader has typed or tried to submit. */
  showProblems: boolean;
  withCopyExisting: boolean;
}) {
  const { t, intl } = useI18n();
  const name = useId();
  const unit = MODE_UNIT[draft.mode];
  const problem = (field: TFollowField) => (showProblems ? problemText(t, problems[field]) : null);
  const lots = exampleValue(draft, intl);
  const example =
    lots === null ? null : t('copy.follow.example', { lots, leader: formatDecimal(intl, '1.00', 2) });
  return (
    <>
      <fieldset className="ui-choices">
        <legend className="field-label">{t('copy.follow.mode')}</legend>
        <div className="cp-modes" role="radiogroup">
          {COPY_MODES.map((mode) => (
            <label key={mode} className="cp-mode" data-checked={draft.mode === mode ? 'true' : undefined}>
              <input
                type="radio"
                name={name}
                value={mode}
                checked={draft.mode === mode}
                onChange={() =>
                  onChange({ mode, value: mode === draft.mode ? draft.value : defaultValue(mode) })
                }
                data-testid={`mode-${mode}`}
              />
              <span className="cp-mode-text">
                <strong>{t(`copy.mode.${mode}`)}</strong>
                <span>{t(`copy.mode.${mode}.text`)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {unit !== null && (
        <TextField
          name="value"
          label={t(`copy.follow.value.${unit}`)}
          value={draft.value}
          onChange={(value) => onChange({ value })}
          suffix={unit === 'lots' ? t('copy.unit.lots') : unit === 'money' ? currency : '×'}
          hint={example ?? t(`copy.follow.valueHint.${unit}`)}
          problem={problem('value')}
          testId="follow-value"
        />
      )}

      <fieldset className="ui-choices">
        <legend className="field-label">{t('copy.follow.controls')}</legend>
        <p className="ui-hint">{t('copy.follow.controlsHint')}</p>
        <div className="cp-controls">
          <TextField
            name="stopLossPercent"
            label={t('copy.control.stopLoss')}
            value={draft.stopLossPercent}
            onChange={(stopLossPercent) => onChange({ stopLossPercent })}
            suffix="%"
            placeholder={t('copy.control.none')}
            hint={t('copy.control.stopLossHint')}
            problem={problem('stopLossPercent')}
            testId="control-stop-loss"
          />
          <TextField
            name="takeProfitPercent"
            label={t('copy.control.takeProfit')}
            value={draft.takeProfitPercent}
            onChange={(takeProfitPercent) => onChange({ takeProfitPercent })}
            suffix="%"
            placeholder={t('copy.control.none')}
            hint={t('copy.control.takeProfitHint')}
            problem={problem('takeProfitPercent')}
            testId="control-take-profit"
          />
          <TextField
            name="maxVolume"
            label={t('copy.control.maxVolume')}
            value={draft.maxVolume}
            onChange={(maxVolume) => onChange({ maxVolume })}
            suffix={t('copy.unit.lots')}
            placeholder={t('copy.control.none')}
            problem={problem('maxVolume')}
            testId="control-max-volume"
          />
          <TextField
            name="maxPositions"
            label={t('copy.control.maxPositions')}
            value={draft.maxPositions}
            onChange={(maxPositions) => onChange({ maxPositions })}
            inputMode="numeric"
            placeholder={t('copy.control.none')}
            problem={problem('maxPositions')}
            testId="control-max-positions"
          />
          <TextField
            name="maxSlippagePoints"
            label={t('copy.control.maxSlippage')}
            value={draft.maxSlippagePoints}
            onChange={(maxSlippagePoints) => onChange({ maxSlippagePoints })}
            inputMode="numeric"
            suffix={t('copy.unit.points')}
            placeholder={t('copy.control.none')}
            problem={problem('maxSlippagePoints')}
            testId="control-max-slippage"
          />
        </div>
        <label className="ui-check">
          <input
            type="checkbox"
            checked={draft.copyStops}
            onChange={(event) => onChange({ copyStops: event.target.checked })}
            data-testid="control-copy-stops"
          />
          <span>
            <strong>{t('copy.control.copyStops')}</strong>
            <span className="ui-hint">{t('copy.control.copyStopsHint')}</span>
          </span>
        </label>
        {withCopyExisting && (
          <label className="ui-check">
            <input
              type="checkbox"
              checked={draft.copyExisting}
              onChange={(event) => onChange({ copyExisting: event.target.checked })}
              data-testid="control-copy-existing"
            />
            <span>
              <strong>{t('copy.control.copyExisting')}</strong>
              <span className="ui-hint">{t('copy.control.copyExistingHint')}</span>
            </span>
          </label>
        )}
      </fieldset>
    </>
  );
}

/** A sensible starting value when the trader picks a mode: 0.01 lot, 100 of margin, 1× the leader. */
function defaultValue(mode: TFollowDraft['mode']): string {
  return mode === 'fixed_lot' ? '0.01' : mode === 'fixed_margin' ? '100' : mode === 'ratio' ? '1' : '';
}

/** The copied volume of a leader's 1.00 lot, for the modes that do not depend on equity or margin. */
function exampleValue(draft: TFollowDraft, intl: string): string | null {
  const unit = MODE_UNIT[draft.mode];
  if (unit !== 'lots' && unit !== 'multiplier') return null;
  const value = modeValue(draft.mode, draft.value, intl);
  const lots = value.ok ? exampleLots(draft.mode, value.value) : null;
  return lots === null ? null : formatDecimal(intl, lots, 2);
}

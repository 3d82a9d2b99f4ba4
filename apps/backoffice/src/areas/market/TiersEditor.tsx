import { MAX_LEVERAGE_TIERS } from '@broker/domain/market/market-config';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import type { TInstrumentForm, TProblems } from './form';
import { PROBLEM_TEXT } from './format';

type TTiers = TInstrumentForm['tiers'];

/**
 * Leverage by position size: each row caps the leverage of positions up to its size. The engine
 * enforces the symbol's leverage cap today; the lower leverage of larger sizes is kept and shown
 * (docs/backoffice/market.md says exactly what is enforced).
 */
export function TiersEditor({
  tiers,
  onChange,
  problems,
  cap,
  disabled = false,
}: {
  tiers: TTiers;
  onChange: (tiers: TTiers) => void;
  problems: TProblems;
  cap: number | null;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const set = (index: number, change: Partial<TTiers[number]>) =>
    onChange(tiers.map((tier, i) => (i === index ? { ...tier, ...change } : tier)));
  const tiersProblem = problems.leverageTiers;
  return (
    <div className="mk-tiers" data-testid="tiers-editor">
      {tiers.length === 0 ? <p className="kit-hint">{t('admin.market.tiers.empty')}</p> : null}
      {tiers.length > 0 ? (
        <table className="mk-tiers-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.market.tiers.upTo')}</th>
              <th scope="col">{t('admin.market.tiers.leverage')}</th>
              <th scope="col">
                <span className="mk-sr">{t('admin.market.tiers.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tiers.map((tier, index) => {
              const lotsProblem = problems[`leverageTiers.${index}.upToLots`];
              const leverageProblem = problems[`leverageTiers.${index}.maxLeverage`];
              return (
                <tr key={index}>
                  <td>
                    <input
                      className="input"
                      inputMode="decimal"
                      value={tier.upToLots}
                      disabled={disabled}
                      aria-invalid={Boolean(lotsProblem)}
                      aria-label={t('admin.market.tiers.upToRow', { row: index + 1 })}
                      onChange={(e) => set(index, { upToLots: e.target.value })}
                    />
                    {lotsProblem ? (
                      <span className="field-error" role="alert">
                        {t(PROBLEM_TEXT[lotsProblem])}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    <span className="mk-leverage-input">
                      <span aria-hidden="true">1:</span>
                      <input
                        className="input"
                        inputMode="numeric"
                        value={tier.maxLeverage}
                        disabled={disabled}
                        aria-invalid={Boolean(leverageProblem)}
                        aria-label={t('admin.market.tiers.leverageRow', { row: index + 1 })}
                        onChange={(e) => set(index, { maxLeverage: e.target.value })}
                      />
                    </span>
                    {leverageProblem ? (
                      <span className="field-error" role="alert">
                        {t(PROBLEM_TEXT[leverageProblem], { cap: cap ?? '' })}
                      </span>
                    ) : null}
                  </td>
                  <td className="kit-end">
                    <button
                      type="button"
                      className="bo-iconbtn"
                      disabled={disabled}
                      aria-label={t('admin.market.tiers.removeRow', { row: index + 1 })}
                      onClick={() => onChange(tiers.filter((_, i) => i !== index))}
                    >
                      <Icon name="close" size={14} />
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {tiersProblem ? (
        <span className="field-error" role="alert">
          {t(PROBLEM_TEXT[tiersProblem])}
        </span>
      ) : null}
      <div className="kit-actions">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={disabled || tiers.length >= MAX_LEVERAGE_TIERS}
          onClick={() =>
            onChange([
              ...tiers,
              { upToLots: '', maxLeverage: tiers.at(-1)?.maxLeverage ?? String(cap ?? '') },
            ])
          }
        >
          {t('admin.market.tiers.add')}
        </button>
      </div>
      <p className="kit-hint">{t('admin.market.tiers.enforced')}</p>
    </div>
  );
}

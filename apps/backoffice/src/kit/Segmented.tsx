import { useI18n } from '../i18n';

/**
 * A row of mutually exclusive buttons (a date preset, an account scope, a filter), optionally with
 * how many items each option holds (`counts`, by value; a value without a count shows none).
 * Each area keeps its own look: `classPrefix` names the group class, `<prefix>-item` the buttons and
 * `<prefix>-count` the counts.
 */
export function Segmented<V extends string>({
  value,
  options,
  onChange,
  label,
  testId,
  classPrefix,
  counts,
}: {
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  label: string;
  testId?: string;
  classPrefix: string;
  counts?: Partial<Record<string, number>> | null;
}) {
  const { formatNumber } = useI18n();
  return (
    <div className={classPrefix} role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((option) => {
        const count = counts?.[option.value];
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={option.value === value}
            className={`${classPrefix}-item`}
            onClick={() => onChange(option.value)}
            data-value={option.value}
          >
            {counts ? <span>{option.label}</span> : option.label}
            {count === undefined ? null : (
              <span
                className={`${classPrefix}-count`}
                data-testid={testId ? `${testId}-count-${option.value}` : undefined}
              >
                {formatNumber(count)}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}

/**
 * A row of mutually exclusive buttons (a date preset, an account scope, a filter).
 * Each area keeps its own look: `classPrefix` names the group class and `<prefix>-item` the buttons.
 */
export function Segmented<V extends string>({
  value,
  options,
  onChange,
  label,
  testId,
  classPrefix,
}: {
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  label: string;
  testId?: string;
  classPrefix: string;
}) {
  return (
    <div className={classPrefix} role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={option.value === value}
          className={`${classPrefix}-item`}
          onClick={() => onChange(option.value)}
          data-value={option.value}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

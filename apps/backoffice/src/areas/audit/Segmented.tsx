/** A row of mutually exclusive buttons (a date preset, an account scope). */
export function Segmented<V extends string>({
  value,
  options,
  onChange,
  label,
  testId,
}: {
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  label: string;
  testId?: string;
}) {
  return (
    <div className="audit-seg" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={option.value === value}
          className="audit-seg-item"
          onClick={() => onChange(option.value)}
          data-value={option.value}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

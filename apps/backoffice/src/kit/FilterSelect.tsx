/**
 * A list filter as a select: "any" (the empty value, `onChange(null)`) or one of the options. The
 * area gives the words, its class (the width it needs in its filters) and the test id.
 */
export function FilterSelect<V extends string>({
  value,
  options,
  onChange,
  label,
  anyLabel,
  className,
  testId,
}: {
  value: V | undefined;
  options: readonly { value: V; label: string }[];
  onChange: (value: V | null) => void;
  /** The accessible name. */
  label: string;
  /** The first option, that filters nothing. */
  anyLabel: string;
  className: string;
  testId?: string;
}) {
  return (
    <select
      className={`input ${className}`}
      value={value ?? ''}
      onChange={(e) => onChange((e.target.value || null) as V | null)}
      aria-label={label}
      data-testid={testId}
    >
      <option value="">{anyLabel}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

import { useId } from 'react';

/** A labelled drop-down of choices, with an optional hint under it. Styles: text-field.css. */
export function SelectField<T extends string | number>({
  label,
  value,
  options,
  onChange,
  hint,
  testId,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange(value: T): void;
  hint?: string | null;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="field ui-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="input ui-select"
        value={value}
        onChange={(event) => {
          const chosen = options.find((option) => String(option.value) === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
        aria-describedby={hint ? `${id}-hint` : undefined}
        data-testid={testId}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint && (
        <span className="ui-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}

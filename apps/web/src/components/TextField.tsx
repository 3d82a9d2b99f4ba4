import { useId } from 'react';

/**
 * A text or number field with its label, hint and problem (announced, and tied to the input), and an
 * optional unit inside it. Styles: text-field.css.
 */
export function TextField({
  label,
  value,
  onChange,
  hint,
  problem,
  suffix,
  inputMode = 'decimal',
  name,
  placeholder,
  testId,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  hint?: string | null;
  problem?: string | null;
  suffix?: string;
  inputMode?: 'decimal' | 'numeric' | 'text';
  name: string;
  placeholder?: string;
  testId?: string;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field ui-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="ui-input-wrap">
        <input
          id={id}
          name={name}
          className="input"
          value={value}
          inputMode={inputMode}
          autoComplete="off"
          placeholder={placeholder}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described || undefined}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
        />
        {suffix && (
          <span className="ui-suffix" aria-hidden="true">
            {suffix}
          </span>
        )}
      </div>
      {hint && (
        <span className="ui-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {problem && (
        <span className="field-error" id={`${id}-error`} data-testid={testId ? `${testId}-error` : undefined}>
          {problem}
        </span>
      )}
    </div>
  );
}

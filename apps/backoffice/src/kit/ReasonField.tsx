import { useId } from 'react';
import { useI18n } from '../i18n';

/**
 * The reason of a review decision with a live counter: its problem shows once the form was sent
 * (`showProblem`), or at once when it is too long. The area gives its words and test ids.
 */
export function ReasonField({
  value,
  onChange,
  showProblem,
  problem,
  max,
  label,
  words,
  testIds,
}: {
  value: string;
  onChange: (value: string) => void;
  showProblem: boolean;
  /** The area's verdict on the value. */
  problem: 'required' | 'tooLong' | null;
  max: number;
  label: string;
  words: { required: string; tooLong: string; hint: string; counter: (count: string, max: string) => string };
  testIds: { input: string; problem: string; counter: string };
}) {
  const { formatNumber } = useI18n();
  const id = useId();
  const length = value.trim().length;
  const visible = problem === 'tooLong' || (showProblem && problem) ? problem : null;
  return (
    <div className="field kit-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={visible ? true : undefined}
        aria-describedby={`${id}-note`}
        autoComplete="off"
        data-testid={testIds.input}
      />
      <span className="kit-reason-note" id={`${id}-note`}>
        <span className={visible ? 'field-error' : 'kit-hint'} data-testid={testIds.problem}>
          {visible === 'required' ? words.required : visible === 'tooLong' ? words.tooLong : words.hint}
        </span>
        <span className={`kit-counter${length > max ? ' kit-down' : ''}`} data-testid={testIds.counter}>
          {words.counter(formatNumber(length), formatNumber(max))}
        </span>
      </span>
    </div>
  );
}

import { type ReactNode, useEffect, useState } from 'react';
import type { ApiError } from '../lib/api';
import { Field } from './Field';
import { ConfirmDialog } from './Modal';
import type { TQueryState } from './useApi';

/** Why Review did not open the confirmation: nothing changed, or a field is wrong. */
export type TFootNote = 'unchanged' | 'invalid' | null;

/** The words of a settings form's save bar and confirmation, in the area's own keys. */
export interface TSettingsReviewText {
  unchanged: string;
  invalid: string;
  discard: string;
  review: string;
  confirmTitle: string;
  confirmText: (count: number) => string;
  save: string;
}

/**
 * A settings form saved after a review of its changes: the saved settings and their form, the form's
 * problems, the note under an unchanged or invalid form, and the changes awaiting confirmation. The
 * area gives its own reading of the form and its list of changes (pure, unit tested).
 */
export function useSettingsReview<TSettings, TForm, TProblems extends object, TChange>({
  saved,
  save,
  toForm,
  readForm,
  changesOf,
  onSaved,
}: {
  saved: TQueryState<TSettings>;
  save: {
    run(settings: TSettings): Promise<TSettings | null>;
    pending: boolean;
    error: ApiError | null;
    reset(): void;
  };
  toForm: (settings: TSettings) => TForm;
  readForm: (form: TForm) => { settings: TSettings | null; problems: TProblems };
  changesOf: (current: TSettings, next: TSettings) => TChange[];
  onSaved: () => void;
}) {
  const [current, setCurrent] = useState<TSettings | null>(null);
  const [form, setForm] = useState<TForm | null>(null);
  const [problems, setProblems] = useState<TProblems>({} as TProblems);
  const [review, setReview] = useState<{ settings: TSettings; changes: TChange[] } | null>(null);
  const [footNote, setFootNote] = useState<TFootNote>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form follows each new answer, not the area's helpers.
  useEffect(() => {
    if (saved.status === 'ready') {
      setCurrent(saved.data);
      setForm(toForm(saved.data));
      setProblems({} as TProblems);
    }
  }, [saved.status, saved.data]);

  return {
    current,
    form,
    problems,
    footNote,
    review,
    save,
    edit(change: (form: TForm) => TForm) {
      setForm((f) => (f ? change(f) : f));
      setFootNote(null);
    },
    discard() {
      if (current) setForm(toForm(current));
      setProblems({} as TProblems);
      setFootNote(null);
    },
    openReview() {
      if (!form || !current) return;
      const result = readForm(form);
      setProblems(result.problems);
      if (!result.settings) {
        setFootNote('invalid');
        return;
      }
      const changes = changesOf(current, result.settings);
      if (changes.length === 0) {
        setFootNote('unchanged');
        return;
      }
      save.reset();
      setReview({ settings: result.settings, changes });
    },
    closeReview: () => setReview(null),
    async confirm() {
      if (!review) return;
      const answer = await save.run(review.settings);
      if (!answer) return;
      setReview(null);
      setCurrent(answer);
      setForm(toForm(answer));
      onSaved();
    },
  };
}

export type TSettingsReview<TChange> = Pick<
  ReturnType<typeof useSettingsReview<unknown, unknown, object, TChange>>,
  'footNote' | 'review' | 'save' | 'discard' | 'openReview' | 'closeReview' | 'confirm'
>;

/**
 * The sticky bar under a settings form (the note, Discard and Review) and the confirmation that lists
 * the changes; nothing of it for staff who may only read.
 */
export function SettingsReviewActions<TChange>({
  state,
  canEdit,
  text,
  reviewTestId,
  children,
}: {
  state: TSettingsReview<TChange>;
  canEdit: boolean;
  text: TSettingsReviewText;
  reviewTestId: string;
  /** The changes awaiting confirmation, shown in the dialog. */
  children: (changes: TChange[]) => ReactNode;
}) {
  if (!canEdit) return null;
  const { footNote, review, save } = state;
  return (
    <>
      <div className="kit-savebar">
        {footNote ? (
          <span className={`kit-foot-note${footNote === 'invalid' ? ' kit-foot-warn' : ''}`} role="status">
            {footNote === 'invalid' ? text.invalid : text.unchanged}
          </span>
        ) : null}
        <button type="button" className="btn btn-secondary" onClick={state.discard}>
          {text.discard}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={state.openReview}
          data-testid={reviewTestId}
        >
          {text.review}
        </button>
      </div>
      {review ? (
        <ConfirmDialog
          title={text.confirmTitle}
          message={text.confirmText(review.changes.length)}
          confirmLabel={text.save}
          pending={save.pending}
          error={save.error?.message ?? null}
          onCancel={state.closeReview}
          onConfirm={state.confirm}
        >
          {children(review.changes)}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** Each change of a review: its label, the value before (struck through), an arrow and the value after. */
export function SettingsChangeList<TChange extends { before: string; after: string }>({
  changes,
  label,
  show,
  arrowLabel,
  testId,
}: {
  changes: readonly TChange[];
  label: (change: TChange) => string;
  show: (change: TChange, value: string) => ReactNode;
  arrowLabel: string;
  testId: string;
}) {
  return (
    <dl className="kit-changes" data-testid={testId}>
      {changes.map((change) => (
        <div key={label(change)} className="kit-change">
          <dt>{label(change)}</dt>
          <dd>
            <span className="kit-before">{show(change, change.before)}</span>
            <span className="kit-arrow" role="img" aria-label={arrowLabel}>
              →
            </span>
            <span className="kit-after">{show(change, change.after)}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A number field of a settings form (text, so the form keeps what was typed), with its unit inside. */
export function NumberField({
  label,
  error,
  hint,
  suffix,
  inputMode,
  value,
  disabled,
  onChange,
  testId,
}: {
  label: string;
  error: string | null;
  hint?: string;
  suffix?: string;
  inputMode: 'decimal' | 'numeric';
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(props) => {
        const input = (
          <input
            {...props}
            className="input num"
            inputMode={inputMode}
            value={value}
            disabled={disabled}
            onChange={(e) => onChange(e.target.value)}
            data-testid={testId}
          />
        );
        return suffix ? <Suffixed suffix={suffix}>{input}</Suffixed> : input;
      }}
    </Field>
  );
}

/** An input with its unit inside, at the right edge (USD, %, days). */
function Suffixed({ suffix, children }: { suffix: string; children: ReactNode }) {
  return (
    <span className="kit-input-wrap">
      {children}
      <span className="kit-suffix" aria-hidden="true">
        {suffix}
      </span>
    </span>
  );
}

import { type ReactNode, useId } from 'react';

/** A labelled form control with its hint or (translated) error under it. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: ReactNode;
  error?: string | null | undefined;
  hint?: ReactNode;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const noteId = `${id}-note`;
  return (
    <div className="field kit-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        ...(error || hint ? { 'aria-describedby': noteId } : {}),
      })}
      {error ? (
        <span className="field-error" id={noteId} role="alert">
          {error}
        </span>
      ) : hint ? (
        <span className="kit-hint" id={noteId}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

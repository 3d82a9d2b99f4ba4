import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useI18n } from '../../lib/i18n';

/** One on/off setting: a label, a line of explanation and a switch (a checkbox with role switch). */
export function SwitchRow({
  label,
  hint,
  checked,
  onChange,
  testId,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange(value: boolean): void;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="st-row">
      <label className="st-row-text" htmlFor={id}>
        <span className="st-row-label">{label}</span>
        <span className="st-row-hint" id={`${id}-hint`}>
          {hint}
        </span>
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="st-switch"
        checked={checked}
        aria-checked={checked}
        aria-describedby={`${id}-hint`}
        data-testid={testId}
        onChange={(e) => onChange(e.target.checked)}
      />
    </div>
  );
}

/** A card of the settings screens: a titled group with an optional explanation and extra header content. */
export function SettingsCard({
  title,
  text,
  aside,
  children,
  testId,
}: {
  title: string;
  text?: string;
  aside?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const id = useId();
  return (
    <section className="card st-card" aria-labelledby={id} data-testid={testId}>
      <header className="st-card-head">
        <div>
          <h2 id={id}>{title}</h2>
          {text && <p>{text}</p>}
        </div>
        {aside}
      </header>
      {children}
    </section>
  );
}

/**
 * A modal question with a cancel and a confirm button (a native dialog: focus is trapped, Escape
 * cancels). Rendered only while open.
 */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="st-dialog"
      aria-labelledby={titleId}
      data-testid="confirm-dialog"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <p>{text}</p>
      <div className="st-dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
          {t('settings.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary st-danger"
          onClick={onConfirm}
          disabled={busy}
          data-testid="confirm-dialog-confirm"
        >
          {busy ? <span className="spinner" /> : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

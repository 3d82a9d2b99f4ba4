import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useI18n } from '../../lib/i18n';

/**
 * A modal question with a cancel and a confirm button, in the personal centre's dialog style (a
 * native dialog: focus is trapped, Escape cancels unless the action is running). Rendered only
 * while open.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onCancel,
  testId,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy: boolean;
  error?: string | null;
  onConfirm(): void;
  onCancel(): void;
  testId: string;
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
      className="st-dialog ac-dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div className="ac-dialog-body">{children}</div>
      {error && (
        <div className="alert alert-error ac-dialog-error" role="alert">
          {error}
        </div>
      )}
      <div className="st-dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
          {t('accounts.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={onConfirm}
          disabled={busy}
          data-testid={`${testId}-confirm`}
        >
          {busy ? <span className="spinner st-spinner-sm" /> : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

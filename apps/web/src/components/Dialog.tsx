import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useI18n } from '../lib/i18n';
import { Icon } from './Icon';

/**
 * A modal dialog (native: focus is trapped and returns to the opener, Escape closes unless an action
 * runs). Rendered only while open; `wide` for a form beside its preview. Styles: dialog.css.
 */
export function Dialog({
  title,
  children,
  footer,
  busy = false,
  onClose,
  testId,
  wide = false,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  busy?: boolean;
  onClose(): void;
  testId: string;
  wide?: boolean;
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
      className="ui-dialog"
      data-wide={wide ? 'true' : undefined}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <div className="ui-dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="btn btn-ghost btn-sm ui-dialog-close"
          onClick={onClose}
          disabled={busy}
          aria-label={t('common.close')}
        >
          <Icon name="close" size={18} />
        </button>
      </div>
      <div className="ui-dialog-body">{children}</div>
      {footer && <div className="ui-dialog-actions">{footer}</div>}
    </dialog>
  );
}

/**
 * A dialog's cancel and confirm buttons, the confirm one red when it ends something (a stop) and
 * spinning while its call runs; both wait while it does.
 */
export function ConfirmActions({
  cancel,
  confirm,
  onCancel,
  onConfirm,
  busy,
  danger = false,
  testId,
}: {
  cancel: string;
  confirm: string;
  onCancel(): void;
  onConfirm(): void;
  busy: boolean;
  danger?: boolean;
  testId: string;
}) {
  return (
    <>
      <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
        {cancel}
      </button>
      <button
        type="button"
        className={`btn btn-primary${danger ? ' ui-btn-danger' : ''}`}
        onClick={onConfirm}
        disabled={busy}
        data-testid={testId}
      >
        {busy && <span className="spinner ui-spinner" />}
        {confirm}
      </button>
    </>
  );
}

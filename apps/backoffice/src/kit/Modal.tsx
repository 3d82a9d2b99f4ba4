import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Icon } from '../components/Icon';
import { useI18n } from '../i18n';

/**
 * A dialog over the page: Escape and the close button cancel, focus moves into it and back.
 * `footer` holds the actions; forms put their submit there with `form={formId}`.
 */
export function Modal({
  title,
  children,
  footer,
  onClose,
  wide = false,
  testId,
}: {
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  onClose: () => void;
  wide?: boolean;
  testId?: string;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>(
      'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])',
    );
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [onClose]);
  return (
    <div className="kit-backdrop">
      <div
        ref={box}
        className={`kit-modal card${wide ? ' kit-modal-wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <header className="kit-modal-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="bo-iconbtn" onClick={onClose} aria-label={t('admin.kit.close')}>
            <Icon name="close" size={16} />
          </button>
        </header>
        <div className="kit-modal-body">{children}</div>
        {footer ? <footer className="kit-modal-foot">{footer}</footer> : null}
      </div>
    </div>
  );
}

/**
 * Asks before an action that changes something. `onConfirm` runs the action; while it runs the
 * buttons wait, and a refusal shows its (server-translated) message in the dialog.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  danger = false,
  pending = false,
  error,
  onConfirm,
  onCancel,
  children,
}: {
  title: ReactNode;
  message: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Modal
      title={title}
      onClose={onCancel}
      testId="confirm-dialog"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={pending}>
            {t('admin.kit.cancel')}
          </button>
          <button
            type="button"
            className={`btn ${danger ? 'kit-btn-danger' : 'btn-primary'}`}
            onClick={onConfirm}
            disabled={pending}
            data-testid="confirm-ok"
          >
            {pending ? <span className="bo-spin bo-spinner-sm" aria-hidden="true" /> : null}
            {confirmLabel ?? t('admin.kit.confirm')}
          </button>
        </>
      }
    >
      <p className="kit-confirm-text">{message}</p>
      {children}
      {error ? (
        <p className="kit-error" role="alert" data-testid="confirm-error">
          {error}
        </p>
      ) : null}
    </Modal>
  );
}

import type { FormEvent, ReactNode } from 'react';
import { useI18n } from '../i18n';
import { Modal } from './Modal';

/**
 * A modal holding one form, with Cancel and the form's submit in the footer.
 * `onCancel` is the Cancel button when it must differ from closing the dialog (Escape, the close button).
 */
export function FormModal({
  title,
  testId,
  wide = false,
  formId,
  formClassName,
  onSubmit,
  onClose,
  onCancel = onClose,
  submitLabel,
  submitTestId,
  pending,
  children,
}: {
  title: ReactNode;
  testId: string;
  wide?: boolean;
  formId: string;
  formClassName: string;
  onSubmit: (event: FormEvent) => void;
  onClose: () => void;
  onCancel?: () => void;
  submitLabel: ReactNode;
  submitTestId?: string;
  pending?: boolean;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Modal
      title={title}
      onClose={onClose}
      wide={wide}
      testId={testId}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            {t('admin.kit.cancel')}
          </button>
          <button
            type="submit"
            form={formId}
            className="btn btn-primary"
            disabled={pending}
            data-testid={submitTestId}
          >
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} className={formClassName} onSubmit={onSubmit} noValidate>
        {children}
      </form>
    </Modal>
  );
}

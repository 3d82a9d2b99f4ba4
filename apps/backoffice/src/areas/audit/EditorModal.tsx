import { type FormEvent, type ReactNode, useState } from 'react';
import type { TAdminRouteName } from '../../api';
import { useI18n } from '../../i18n';
import { FormModal } from '../../kit/FormModal';
import { useMutation } from '../../kit/useApi';
import type { ApiError } from '../../lib/api';

/**
 * The save flow of an audit editor: the form is checked here first (problems are translation keys),
 * a clean form asks for confirmation, and the server's field errors show where the local ones would.
 */
export function useCheckedSave<N extends TAdminRouteName>(name: N, check: () => Record<string, string>) {
  const { t } = useI18n();
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const save = useMutation(name);
  const problem = (field: string) =>
    problems[field] ? t(problems[field] as string) : save.error?.fields[field];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = check();
    setProblems(found);
    if (!Object.keys(found).length) setConfirming(true);
  };
  return { save, problem, submit, confirming, setConfirming };
}

/** A wide modal around an editor form, with Save and the server's error not tied to a field. */
export function EditorModal({
  title,
  testId,
  saveTestId,
  formId,
  error,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  saveTestId: string;
  formId: string;
  error: ApiError | null;
  onSubmit: (event: FormEvent) => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <FormModal
      title={title}
      testId={testId}
      wide
      formId={formId}
      formClassName="audit-form"
      onSubmit={onSubmit}
      onClose={onClose}
      submitLabel={t('admin.audit.save')}
      submitTestId={saveTestId}
    >
      {error && !Object.keys(error.fields).length ? (
        <p className="kit-error" role="alert">
          {error.message}
        </p>
      ) : null}
      {children}
    </FormModal>
  );
}

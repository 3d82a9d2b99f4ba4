import { checkPassword } from '@broker/domain/identity/credentials';
import { AppErrorCode } from '@broker/domain/result-codes';
import { useRef, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { CODE, checkRegistered, failureErrors, type TFormErrors, useIdentityTarget } from './identity';
import { useSendCode } from './useSendCode';

type TField = keyof TFormErrors;

/**
 * The state shared by registration and password reset: the address, its code, a new password
 * entered twice, and the errors beside each field.
 */
export function useCodeForm(purpose: 'register' | 'reset') {
  const { t, lang } = useI18n();
  const target = useIdentityTarget(lang);
  const sender = useSendCode(purpose, lang);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<TFormErrors>({});
  // Bumped on every change of the address, so a late answer about an older one is dropped.
  const edits = useRef(0);

  const clear = (...fields: TField[]) =>
    setErrors((current) => {
      const next = { ...current };
      for (const field of fields) delete next[field];
      return next;
    });

  const editTarget = () => {
    edits.current++;
    sender.reset();
    clear('target');
  };

  /** When focus leaves the address: a taken address (registration) or an unknown one (reset) shows at once. */
  const checkTarget = async () => {
    if (target.problem(t)) return;
    const version = edits.current;
    const answer = await checkRegistered(target.input(), lang);
    if (version !== edits.current) return;
    if (!answer.succeed || !answer.Data) {
      if (answer.ErrorCode === AppErrorCode.PHONE_FORMAT_WRONG)
        setErrors((e) => ({ ...e, target: answer.message }));
      return;
    }
    const registered = answer.Data.registered;
    if (purpose === 'register' && registered) {
      const taken =
        target.mode === 'email'
          ? AppErrorCode.EMAIL_ALREADY_REGISTERED
          : AppErrorCode.PHONE_ALREADY_REGISTERED;
      setErrors((e) => ({ ...e, target: t(`errors.${taken}`) }));
    }
    if (purpose === 'reset' && !registered)
      setErrors((e) => ({ ...e, target: t(`errors.${AppErrorCode.USER_NOT_FOUND}`) }));
  };

  const sendCode = async () => {
    const problem = target.problem(t);
    if (problem) {
      setErrors((e) => ({ ...e, target: problem }));
      return;
    }
    clear('target', 'code', 'form');
    const version = edits.current;
    const failure = await sender.send(target.input());
    if (failure && version === edits.current) setErrors((e) => ({ ...e, ...failureErrors(failure, t) }));
  };

  /** Checks every field as the server would; shows and returns the problems. */
  const validate = (extra: TFormErrors = {}): boolean => {
    const next: TFormErrors = {};
    const targetProblem = target.problem(t);
    if (targetProblem) next.target = targetProblem;
    if (!CODE.test(code)) next.code = t('validation.codeFormat');
    const problems = checkPassword(password, { confirm });
    const passwordProblem = problems.find((p) => p !== 'passwordMismatch');
    if (passwordProblem) next.password = t(`validation.${passwordProblem}`);
    if (!confirm) next.confirm = t('validation.required');
    else if (problems.includes('passwordMismatch')) next.confirm = t('validation.passwordMismatch');
    Object.assign(next, extra);
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  /** The mismatch shows while typing once the repeat is as long as the password. */
  const confirmError =
    errors.confirm ??
    (confirm && password && confirm.length >= password.length && confirm !== password
      ? t('validation.passwordMismatch')
      : undefined);

  return {
    target,
    sender,
    code,
    setCode: (value: string) => {
      setCode(value);
      clear('code');
    },
    password,
    setPassword: (value: string) => {
      setPassword(value);
      clear('password');
    },
    confirm,
    setConfirm: (value: string) => {
      setConfirm(value);
      clear('confirm');
    },
    errors,
    confirmError,
    setErrors,
    clear,
    editTarget,
    checkTarget,
    sendCode,
    validate,
    payload: () => ({ ...target.input(), code, password, confirmPassword: confirm }),
    showFailure: (answer: Parameters<typeof failureErrors>[0]) => setErrors(failureErrors(answer, t)),
  };
}
export type TCodeForm = ReturnType<typeof useCodeForm>;

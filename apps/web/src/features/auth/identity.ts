import type { TUnwrapped } from '@broker/contracts/envelope';
import { AppErrorCode } from '@broker/domain/result-codes';
import type { TTranslate } from '@broker/i18n/translator';
import { useState } from 'react';
import type { TPhoneValue } from '../../components/PhoneField';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PHONE = /^[\d\s()-]{4,20}$/;
export const CODE = /^\d{4}$/;

/** The calling code preselected for each route language. */
export const DEFAULT_REGION: Record<string, string> = {
  'zh-CN': 'CN',
  zh: 'TW',
  en: 'US',
  de: 'DE',
  es: 'ES',
  fil: 'PH',
  fr: 'FR',
  hi: 'IN',
  id: 'ID',
  ja: 'JP',
  ko: 'KR',
  pt: 'BR',
  ru: 'RU',
  th: 'TH',
  tr: 'TR',
  vi: 'VN',
};

export type TTargetMode = 'email' | 'phone';
export type TTargetInput = { email: string } | { phone: TPhoneValue };
export type TFormErrors = Partial<
  Record<'target' | 'code' | 'password' | 'confirm' | 'consent' | 'form', string>
>;

/** The email address or phone number a code goes to, with its tab. */
export function useIdentityTarget(lang: string) {
  const [mode, setMode] = useState<TTargetMode>('email');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState<TPhoneValue>({ twoCharCode: DEFAULT_REGION[lang] ?? 'US', number: '' });
  const input = (): TTargetInput =>
    mode === 'email' ? { email: email.trim() } : { phone: { ...phone, number: phone.number.trim() } };
  /** The client-side format problem, translated; the server checks the number for its country. */
  const problem = (t: TTranslate): string | undefined => {
    if (mode === 'email') return EMAIL.test(email.trim()) ? undefined : t('validation.email');
    return PHONE.test(phone.number.trim()) ? undefined : t(`errors.${AppErrorCode.PHONE_FORMAT_WRONG}`);
  };
  return { mode, setMode, email, setEmail, phone, setPhone, input, problem };
}
export type TIdentityTarget = ReturnType<typeof useIdentityTarget>;

/** Whether the address is registered; a malformed phone number answers -1005 from the server. */
export function checkRegistered(target: TTargetInput, lang: string) {
  return 'email' in target
    ? callRoute('emailregistered', { email: target.email }, lang)
    : callRoute('phoneregistered', { phone: target.phone }, lang);
}

const TARGET_CODES: readonly number[] = [
  AppErrorCode.EMAIL_ALREADY_REGISTERED,
  AppErrorCode.PHONE_ALREADY_REGISTERED,
  AppErrorCode.USER_NOT_FOUND,
  AppErrorCode.PHONE_FORMAT_WRONG,
];
const CODE_CODES: readonly number[] = [AppErrorCode.VERIFICATION_CODE_WRONG, AppErrorCode.CODE_EXPIRED];

/** Puts a failed call's problems beside the fields they concern; the rest goes above the form. */
export function failureErrors(answer: TUnwrapped<unknown>, t: TTranslate): TFormErrors {
  const errors: TFormErrors = {};
  for (const [field, message] of Object.entries(answer.fields ?? {})) {
    if (field === 'email' || field.startsWith('phone')) errors.target ??= message;
    else if (field === 'code') errors.code ??= message;
    else if (field === 'password') errors.password ??= message;
    else if (field === 'confirmPassword') errors.confirm ??= message;
    else errors.form ??= message;
  }
  if (Object.keys(errors).length) return errors;
  const text = failureText(answer, t);
  if (TARGET_CODES.includes(answer.ErrorCode)) return { target: text };
  if (CODE_CODES.includes(answer.ErrorCode)) return { code: text };
  return { form: text };
}

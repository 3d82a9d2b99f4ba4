/**
 * Trader credential rules (spec 5): passwords of 6 to 20 characters without Chinese characters or
 * spaces, entered twice alike, a new password different from the old one; 4-digit verification codes.
 */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 20;
export const VERIFICATION_CODE_PATTERN = /^\d{4}$/;
const CHINESE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2ebef}]/u;
const WHITESPACE = /\s/;

export type TPasswordProblem =
  | 'passwordLength'
  | 'passwordChinese'
  | 'passwordSpaces'
  | 'passwordMismatch'
  | 'passwordSameAsOld';

export function checkPassword(
  password: string,
  options: { confirm?: string; old?: string } = {},
): TPasswordProblem[] {
  const problems: TPasswordProblem[] = [];
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) problems.push('passwordLength');
  if (CHINESE.test(password)) problems.push('passwordChinese');
  if (WHITESPACE.test(password)) problems.push('passwordSpaces');
  if (options.confirm !== undefined && options.confirm !== password) problems.push('passwordMismatch');
  if (options.old !== undefined && options.old === password) problems.push('passwordSameAsOld');
  return problems;
}

/** Email masking (spec 5): the first 2 characters stay, the rest of the name is hidden. */
export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  if (at < 0) return email.slice(0, 2) + '*'.repeat(Math.max(0, email.length - 2));
  const name = email.slice(0, at);
  return `${name.slice(0, 2)}${'*'.repeat(Math.max(1, name.length - 2))}${email.slice(at)}`;
}

/** Phone masking (spec 5): the first 3 characters, stars, then the characters from the 9th on. */
export function maskPhone(phone: string): string {
  if (phone.length <= 8) return phone.slice(0, 3) + '*'.repeat(Math.max(0, phone.length - 3));
  return `${phone.slice(0, 3)}${'*'.repeat(5)}${phone.slice(8)}`;
}

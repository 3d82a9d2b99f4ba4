/** Back-office credential rules (spec 5): username of letters and digits, password of at least 5 characters. */
export const STAFF_USERNAME_PATTERN = /^[A-Za-z0-9]{3,32}$/;
export const STAFF_PASSWORD_MIN_LENGTH = 5;
export const STAFF_PASSWORD_MAX_LENGTH = 128;

export type TStaffCredentialProblem = 'usernameFormat' | 'passwordTooShort' | 'passwordTooLong';

export function checkStaffCredentials(username: string, password: string): TStaffCredentialProblem[] {
  const problems: TStaffCredentialProblem[] = [];
  if (!STAFF_USERNAME_PATTERN.test(username)) problems.push('usernameFormat');
  if (password.length < STAFF_PASSWORD_MIN_LENGTH) problems.push('passwordTooShort');
  if (password.length > STAFF_PASSWORD_MAX_LENGTH) problems.push('passwordTooLong');
  return problems;
}

import {
  STAFF_PASSWORD_MAX_LENGTH,
  STAFF_PASSWORD_MIN_LENGTH,
  STAFF_USERNAME_PATTERN,
} from '@broker/domain/staff-credentials';
import type { TValues } from '@broker/i18n/translator';

export interface TFieldProblem {
  key: string;
  values?: TValues;
}

export interface TSignInProblems {
  username?: TFieldProblem;
  password?: TFieldProblem;
}

/** Spec 5: the username is 3 to 32 letters or digits; the password has at least 5 characters. */
export function validateSignIn({
  username,
  password,
}: {
  username: string;
  password: string;
}): TSignInProblems {
  const problems: TSignInProblems = {};
  const name = username.trim();
  if (name === '') problems.username = { key: 'admin.login.errors.usernameRequired' };
  else if (!STAFF_USERNAME_PATTERN.test(name))
    problems.username = { key: 'admin.login.errors.usernameFormat' };
  if (password === '') problems.password = { key: 'admin.login.errors.passwordRequired' };
  else if (password.length < STAFF_PASSWORD_MIN_LENGTH)
    problems.password = {
      key: 'admin.login.errors.passwordTooShort',
      values: { min: STAFF_PASSWORD_MIN_LENGTH },
    };
  else if (password.length > STAFF_PASSWORD_MAX_LENGTH)
    problems.password = {
      key: 'admin.login.errors.passwordTooLong',
      values: { max: STAFF_PASSWORD_MAX_LENGTH },
    };
  return problems;
}

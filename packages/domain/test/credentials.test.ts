import { describe, expect, it } from 'vitest';
import { checkPassword, maskEmail, maskPhone } from '../src/identity/credentials';

describe('trader passwords (spec 5)', () => {
  it.each([
    ['abc123', []],
    ['a'.repeat(20), []],
    ['abc12', ['passwordLength']],
    ['a'.repeat(21), ['passwordLength']],
    ['密码abc123', ['passwordChinese']],
    ['abc 1234', ['passwordSpaces']],
    ['ab\t12345', ['passwordSpaces']],
    ['Pässwörd!', []],
    ['パスワード123', []],
  ] as [string, string[]][])('%s', (password, problems) => {
    expect(checkPassword(password)).toEqual(problems);
  });
  it('checks the confirmation and the old password', () => {
    expect(checkPassword('secret1', { confirm: 'secret2' })).toEqual(['passwordMismatch']);
    expect(checkPassword('secret1', { old: 'secret1' })).toEqual(['passwordSameAsOld']);
  });
});

describe('masking (spec 5)', () => {
  it('keeps 2 characters of an email name', () => {
    expect(maskEmail('demo@example.com')).toBe('de**@example.com');
    expect(maskEmail('ab@x.io')).toBe('ab*@x.io');
  });
  it('shows the first 3 characters of a phone, stars, then from the 9th on', () => {
    expect(maskPhone('13812345678')).toBe('138*****678');
    expect(maskPhone('+12025550123')).toBe('+12*****0123');
  });
});

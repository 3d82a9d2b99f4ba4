import { describe, expect, it } from 'vitest';
import { checkStaffCredentials } from '../src/staff-credentials';

describe('back-office credentials (spec 5)', () => {
  it('accepts letters and digits and a password of five characters', () => {
    expect(checkStaffCredentials('admin01', '12345')).toEqual([]);
  });
  it('rejects other characters and short passwords', () => {
    expect(checkStaffCredentials('ad min', '1234')).toEqual(['usernameFormat', 'passwordTooShort']);
    expect(checkStaffCredentials('admin_1', 'longenough')).toEqual(['usernameFormat']);
    expect(checkStaffCredentials('管理员', 'longenough')).toEqual(['usernameFormat']);
  });
});

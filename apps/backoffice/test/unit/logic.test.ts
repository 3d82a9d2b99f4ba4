import { BACKOFFICE_MENU } from '@broker/contracts/permissions';
import { describe, expect, it } from 'vitest';
import { pickInitialLocale, pickInitialTheme } from '../../src/lib/preferences';
import { loginPathFor, routerPath, safeRedirect } from '../../src/lib/redirect';
import { validateSignIn } from '../../src/lib/validation';
import { menuEntryFor, visibleMenu } from '../../src/menu';

describe('sign-in validation (spec 5)', () => {
  it('accepts 3 to 32 letters and digits and a password of 5 or more characters', () => {
    expect(validateSignIn({ username: 'admin', password: '12345' })).toEqual({});
    expect(validateSignIn({ username: ' Abc123 ', password: 'x'.repeat(128) })).toEqual({});
    expect(validateSignIn({ username: 'a'.repeat(32), password: 'hello' })).toEqual({});
  });

  it('names the problem of each field', () => {
    expect(validateSignIn({ username: '', password: '' })).toEqual({
      username: { key: 'admin.login.errors.usernameRequired' },
      password: { key: 'admin.login.errors.passwordRequired' },
    });
    for (const username of ['ab', 'a'.repeat(33), 'ad min', 'admin!', '管理员'])
      expect(validateSignIn({ username, password: 'hello' }).username?.key).toBe(
        'admin.login.errors.usernameFormat',
      );
    expect(validateSignIn({ username: 'admin', password: '1234' }).password).toEqual({
      key: 'admin.login.errors.passwordTooShort',
      values: { min: 5 },
    });
    expect(validateSignIn({ username: 'admin', password: 'x'.repeat(129) }).password?.key).toBe(
      'admin.login.errors.passwordTooLong',
    );
  });
});

describe('first language and theme', () => {
  it('uses the remembered language, else zh-CN unless the browser is set to another language', () => {
    expect(pickInitialLocale('en', 'zh-CN')).toBe('en');
    expect(pickInitialLocale('zh-CN', 'en-US')).toBe('zh-CN');
    expect(pickInitialLocale(null, 'zh-TW')).toBe('zh-CN');
    expect(pickInitialLocale(null, 'en-GB')).toBe('en');
    expect(pickInitialLocale('fr', 'de-DE')).toBe('en');
    expect(pickInitialLocale(null, undefined)).toBe('zh-CN');
    expect(pickInitialLocale(null, '')).toBe('zh-CN');
  });

  it('defaults to navy', () => {
    expect(pickInitialTheme(null)).toBe('navy');
    expect(pickInitialTheme('purple')).toBe('navy');
    expect(pickInitialTheme('white')).toBe('white');
  });
});

describe('redirects after sign-in', () => {
  it('go back to back-office pages only', () => {
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('/admin')).toBe('/');
    expect(safeRedirect('/admin/users')).toBe('/users');
    expect(safeRedirect('/admin/roles?tab=1')).toBe('/roles?tab=1');
    expect(safeRedirect('https://evil.example/admin')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('/admin//evil.example')).toBe('/');
    expect(safeRedirect('/administrator')).toBe('/');
    expect(safeRedirect('/admin/login')).toBe('/');
    expect(safeRedirect('/admin/login?redirect=/admin')).toBe('/');
    expect(safeRedirect('/admin/\\evil')).toBe('/');
  });

  it('remember the page the user wanted', () => {
    expect(loginPathFor('/')).toBe('/login?redirect=%2Fadmin');
    expect(loginPathFor('/users?page=2')).toBe(
      `/login?redirect=${encodeURIComponent('/admin/users?page=2')}`,
    );
    expect(safeRedirect(decodeURIComponent(loginPathFor('/kyc').split('=')[1] ?? ''))).toBe('/kyc');
  });
});

describe('menu', () => {
  it('maps menu paths to router paths', () => {
    expect(routerPath('/admin')).toBe('/');
    expect(routerPath('/admin/users')).toBe('/users');
  });

  it('shows only entries whose permission the staff member holds', () => {
    expect(visibleMenu([]).length).toBe(0);
    expect(visibleMenu(['users.view', 'kyc.view']).map((m) => m.key)).toEqual(['users', 'kyc']);
    expect(visibleMenu(['statistics.view']).map((m) => m.key)).toEqual(['dashboard', 'statistics']);
    expect(visibleMenu(BACKOFFICE_MENU.map((m) => m.permission))).toHaveLength(BACKOFFICE_MENU.length);
  });

  it('finds the entry of the current page', () => {
    expect(menuEntryFor('/')?.key).toBe('dashboard');
    expect(menuEntryFor('/users')?.key).toBe('users');
    expect(menuEntryFor('/users/42')?.key).toBe('users');
    expect(menuEntryFor('/kyc/')?.key).toBe('kyc');
    expect(menuEntryFor('/nothing')).toBeUndefined();
    expect(menuEntryFor('/usersx')).toBeUndefined();
  });
});

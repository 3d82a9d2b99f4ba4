import { describe, expect, it } from 'vitest';
import { pathAfterLogout, userMenuAction } from '../src/user-menu';

describe('header user menu (spec 2.3)', () => {
  it('maps commands 1 to 5', () => {
    expect(userMenuAction(1)).toEqual({ kind: 'openInNewTab', section: 'withdrawal' });
    expect(userMenuAction(2)).toEqual({ kind: 'openInNewTab', section: 'deposit' });
    expect(userMenuAction(3)).toEqual({ kind: 'openInNewTab', section: 'account' });
    expect(userMenuAction(4)).toEqual({ kind: 'none' });
    expect(userMenuAction(5)).toEqual({ kind: 'logout' });
  });

  it('sends personal-centre pages home after logout and keeps other pages', () => {
    expect(pathAfterLogout('/de/personalCenter/deposit', 'de')).toBe('/de');
    expect(pathAfterLogout('/de/h5/privacy', 'de')).toBe('/de/h5/privacy');
    expect(pathAfterLogout('/de', 'de')).toBe('/de');
  });
});

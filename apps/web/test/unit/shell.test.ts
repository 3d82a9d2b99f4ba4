import { describe, expect, it } from 'vitest';
import { activeSection, switchLanguagePath } from '../../src/app/paths';
import { safeRedirect } from '../../src/features/auth/redirect';
import { userInfoFromCookie } from '../../src/lib/cookies';
import { canPrefetch, shouldReloadAfterChunkError } from '../../src/lib/resilience';

describe('portal shell rules', () => {
  it('marks account active on its create and success pages (spec 2.2)', () => {
    expect(activeSection('/en/personalCenter/account/create')).toBe('account');
    expect(activeSection('/en/personalCenter/account/success')).toBe('account');
    expect(activeSection('/ja/personalCenter/financial')).toBe('financial');
    expect(activeSection('/ja/h5/privacy')).toBeNull();
  });

  it('switches language by replacing the first segment (spec 2.3)', () => {
    expect(switchLanguagePath('/en/h5/privacy', 'de')).toBe('/de/h5/privacy');
    expect(switchLanguagePath('/zh-CN', 'ja')).toBe('/ja');
    expect(switchLanguagePath('/', 'ko')).toBe('/ko');
  });

  it('reads the user-info cookie: signed in only with a name (spec 4)', () => {
    expect(userInfoFromCookie(`a=1; userInfo=${encodeURIComponent('{"name":"Ana"}')}`)).toEqual({
      name: 'Ana',
    });
    expect(userInfoFromCookie(`userInfo=${encodeURIComponent('{"name":""}')}`)).toBeNull();
    expect(userInfoFromCookie('userInfo=garbage')).toBeNull();
    expect(userInfoFromCookie('')).toBeNull();
  });

  it('reloads after a chunk failure at most once per 60 s (spec 8)', () => {
    expect(shouldReloadAfterChunkError(1_000_000, null)).toBe(true);
    expect(shouldReloadAfterChunkError(1_000_000, 1_000_000 - 59_000)).toBe(false);
    expect(shouldReloadAfterChunkError(1_000_000, 1_000_000 - 61_000)).toBe(true);
  });

  it('skips prefetching offline, on 2g and with data saver (spec 2.3)', () => {
    expect(canPrefetch(false, undefined)).toBe(false);
    expect(canPrefetch(true, { effectiveType: '2g' })).toBe(false);
    expect(canPrefetch(true, { effectiveType: 'slow-2g' })).toBe(false);
    expect(canPrefetch(true, { effectiveType: '4g', saveData: true })).toBe(false);
    expect(canPrefetch(true, { effectiveType: '4g' })).toBe(true);
    expect(canPrefetch(true, undefined)).toBe(true);
  });

  it('accepts only same-site language paths as return addresses', () => {
    expect(safeRedirect('/en/personalCenter/deposit', 'en')).toBe('/en/personalCenter/deposit');
    expect(safeRedirect('//evil.example/x', 'en')).toBe('/en/personalCenter/account');
    expect(safeRedirect('https://evil.example', 'en')).toBe('/en/personalCenter/account');
    expect(safeRedirect(null, 'de')).toBe('/de/personalCenter/account');
  });
});

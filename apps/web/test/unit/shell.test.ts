import { describe, expect, it } from 'vitest';
import { activeSection, paths, switchLanguagePath, wayIn } from '../../src/app/paths';
import { SHIPPED, shipped, shippedOnly } from '../../src/app/upcoming';
import { NAV_ITEMS } from '../../src/components/Header';
import { safeRedirect } from '../../src/features/auth/redirect';
import { userInfoFromCookie } from '../../src/lib/cookies';
import { canPrefetch, reloadForChunkError, shouldReloadAfterChunkError } from '../../src/lib/resilience';

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

  it('reloads into the page a navigation was going to, not the page it left', () => {
    const calls: string[] = [];
    const storage = new Map<string, string>();
    const fakeWindow = (pathname: string) =>
      ({
        sessionStorage: {
          getItem: (key: string) => storage.get(key) ?? null,
          setItem: (key: string, value: string) => storage.set(key, value),
        },
        location: {
          pathname,
          search: '',
          hash: '',
          assign: (to: string) => calls.push(`assign ${to}`),
          reload: () => calls.push('reload'),
        },
      }) as unknown as Window;
    expect(reloadForChunkError(fakeWindow('/en/login'), '/en/qrcodePage')).toBe(true);
    expect(calls).toEqual(['assign /en/qrcodePage']);
    // Inside the guard window nothing more happens.
    expect(reloadForChunkError(fakeWindow('/en/login'), '/en/qrcodePage')).toBe(false);
    storage.clear();
    // No navigation under way (an import in an effect failed): the page reloads where it is.
    expect(reloadForChunkError(fakeWindow('/en/trade'), null)).toBe(true);
    expect(calls).toEqual(['assign /en/qrcodePage', 'reload']);
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

  // Issue 21, item 12: the way in.
  it('sends a visitor to registration, then to the demo account form; a trader to their accounts', () => {
    expect(wayIn('en', false)).toBe('/en/register');
    expect(wayIn('ja', true)).toBe('/ja/personalCenter/account');
    expect(paths.openDemo('de')).toBe('/de/personalCenter/account/create?type=1');
    // Registration without a return address ends on the demo account form; with one, there.
    expect(safeRedirect(null, 'de', paths.openDemo('de'))).toBe(paths.openDemo('de'));
    expect(safeRedirect('/de/trade', 'de', paths.openDemo('de'))).toBe('/de/trade');
  });

  it('shows a navigation entry of a feature still to come only once it has shipped', () => {
    const shown = shippedOnly(NAV_ITEMS).map((item) => item.key);
    for (const item of NAV_ITEMS)
      expect(shown.includes(item.key), item.key).toBe(!item.feature || SHIPPED[item.feature]);
    expect(NAV_ITEMS.filter((item) => item.feature).map((item) => item.key)).toEqual([
      'nav.copy',
      'nav.strategies',
    ]);
    expect(shipped(undefined)).toBe(true);
  });
});

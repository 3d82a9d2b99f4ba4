import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { likelyNextPaths } from '../../src/app/prefetch';
import { routeChunk, routes } from '../../src/app/routes';

describe('likelyNextPaths (issue 21, item 14)', () => {
  it('leads home to registration, sign-in and the markets, and nowhere near the terminal', () => {
    expect(likelyNextPaths('/en')).toEqual(['/en/register', '/en/login', '/en/markets']);
    expect(likelyNextPaths('/ja/')).toEqual(['/ja/register', '/ja/login', '/ja/markets']);
    expect(likelyNextPaths('/en').some((path) => path.includes('trade'))).toBe(false);
  });

  it('leads the markets to a symbol and the terminal, a symbol to the terminal', () => {
    expect(likelyNextPaths('/en/markets')).toEqual(['/en/markets/EURUSD', '/en/trade']);
    expect(likelyNextPaths('/de/markets/XAUUSD')[0]).toBe('/de/trade');
  });

  it('leads sign-in and registration to each other, other pages to both', () => {
    expect(likelyNextPaths('/en/login')).toContain('/en/register');
    expect(likelyNextPaths('/en/register')).toEqual(['/en/login']);
    expect(likelyNextPaths('/en/h5/privacy')).toEqual(['/en/register', '/en/login']);
  });

  it("leads a signed-in trader to their own pages, not to every page the terminal's menus link", () => {
    expect(likelyNextPaths('/en/trade', true)).toEqual([
      '/en/personalCenter/account',
      '/en/personalCenter/deposit',
      '/en/markets',
    ]);
    expect(likelyNextPaths('/de/personalCenter/deposit', true)).toEqual([
      '/de/trade',
      '/de/personalCenter/account',
    ]);
    expect(likelyNextPaths('/en/personalCenter/account', true)[0]).toBe('/en/trade');
    expect(likelyNextPaths('/en', true)).toEqual(['/en/trade', '/en/personalCenter/account']);
    for (const from of ['/en', '/en/trade', '/en/markets', '/en/personalCenter/history'])
      expect(likelyNextPaths(from, true).some((path) => /login|register/.test(path))).toBe(false);
  });

  it('names only pages the router has, each with a lazily loaded chunk, at most three', () => {
    for (const from of [
      '/en',
      '/en/markets',
      '/en/markets/EURUSD',
      '/en/login',
      '/en/register',
      '/en/trade',
      '/en/converter',
      '/en/personalCenter/deposit',
    ]) {
      expect(likelyNextPaths(from).length).toBeLessThanOrEqual(3);
      expect(likelyNextPaths(from, true).length).toBeLessThanOrEqual(3);
      for (const path of [...likelyNextPaths(from), ...likelyNextPaths(from, true)]) {
        const matches = matchRoutes(routes, path) ?? [];
        const leaf = matches.at(-1)?.route;
        expect(leaf?.path, `${from} → ${path}`).not.toBe('*');
        expect(typeof leaf?.lazy, `${from} → ${path}`).toBe('function');
      }
    }
  });
});

describe('the chunk the server preloads for a page', () => {
  const lazyRoutes = (list: RouteObject[]): RouteObject[] =>
    list.flatMap((route) => [...(route.lazy ? [route] : []), ...lazyRoutes(route.children ?? [])]);

  it('names, for every lazy route, the source module its import loads', () => {
    const all = lazyRoutes(routes);
    expect(all.length).toBeGreaterThan(25);
    for (const route of all) {
      const chunk = routeChunk(route);
      expect(chunk, route.path).toMatch(/^features\/[\w/-]+$/);
      // The name is the imported module: the server finds it in the client build's manifest as
      // src/<chunk>.tsx, so it must be a file there.
      expect(
        existsSync(join(dirname(fileURLToPath(import.meta.url)), '../../src', `${chunk}.tsx`)),
        chunk,
      ).toBe(true);
    }
  });

  it('finds the terminal’s chunk from its address', () => {
    const chunks = (matchRoutes(routes, '/en/trade') ?? []).map((m) => routeChunk(m.route)).filter(Boolean);
    expect(chunks).toEqual(['features/trade/TradePage']);
  });
});

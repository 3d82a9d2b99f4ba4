import { describe, expect, it } from 'vitest';
import { routeByName, routeByPath, routeCatalogue, routeList } from '../src/routes';

describe('route catalogue', () => {
  it('has unique short names and unique /api/v1 paths', () => {
    expect(new Set(routeList.map((r) => r.name)).size).toBe(routeList.length);
    expect(new Set(routeList.map((r) => r.path)).size).toBe(routeList.length);
    for (const [key, route] of Object.entries(routeCatalogue)) {
      expect(route.name).toBe(key);
      expect(route.path).toMatch(/^\/api\/v1\/[a-z]+\/[a-z_/]+$/);
    }
  });
  it('resolves names case-insensitively and paths exactly', () => {
    expect(routeByName('CountryList')?.path).toBe('/api/v1/common/countrylist');
    expect(routeByPath('/api/v1/common/localelist')?.name).toBe('localelist');
    expect(routeByName('nope')).toBeUndefined();
  });
  it('declares a permission for every staff route of the back office', () => {
    for (const route of routeList.filter(
      (r) => r.path.startsWith('/api/v1/admin/') && !r.path.includes('/auth/'),
    )) {
      expect(route.access.kind).toBe('staff');
      expect(route.access.kind === 'staff' && route.access.permission).toBeTruthy();
    }
  });
});

import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  BACKOFFICE_MENU,
  BROKER_PERMISSIONS,
  MONEY_PERMISSIONS,
  PLATFORM_PERMISSIONS,
} from '../src/permissions';
import { routeCatalogue, routeList } from '../src/routes';

/** Back-office routes anyone may call: sign-in, sign-out and the two-factor enrolment of a sign-in. */
const PUBLIC_ADMIN_ROUTES = ['adminlogin', 'adminlogout', 'adminenrolstart', 'adminenrolconfirm'];

/** Staff routes about the caller themselves, open to every signed-in staff member (permission null). */
const SELF_ROUTES = [
  'adminme',
  'adminmysecurity',
  'adminmytotpbegin',
  'adminmytotpenable',
  'adminmytotpdisable',
  'adminmypassword',
];

const adminRoutes = routeList.filter((route) => route.path.startsWith('/api/v1/admin/'));

describe('every back-office route is guarded or explicitly public', () => {
  it('walks the route table: each admin route names a permission of the map, or is on an allowlist', () => {
    expect(adminRoutes.length).toBeGreaterThan(PUBLIC_ADMIN_ROUTES.length + SELF_ROUTES.length);
    for (const route of adminRoutes) {
      if (PUBLIC_ADMIN_ROUTES.includes(route.name)) {
        expect(route.access, route.name).toEqual({ kind: 'public' });
        continue;
      }
      expect(route.access.kind, route.name).toBe('staff');
      if (route.access.kind !== 'staff') continue;
      if (SELF_ROUTES.includes(route.name)) {
        expect(route.access.permission, route.name).toBeNull();
        continue;
      }
      expect(route.access.permission, `${route.name} must declare its permission`).not.toBeNull();
      expect(ALL_PERMISSIONS, route.name).toContain(route.access.permission);
    }
  });

  it('keeps the allowlists honest: each name exists and is an admin route', () => {
    for (const name of [...PUBLIC_ADMIN_ROUTES, ...SELF_ROUTES]) {
      const route = (routeCatalogue as Record<string, { path: string } | undefined>)[name];
      expect(route, name).toBeDefined();
      expect(route?.path.startsWith('/api/v1/admin/'), name).toBe(true);
    }
  });

  it('has no staff route outside /api/v1/admin/ and no trader route inside it', () => {
    for (const route of routeList) {
      if (route.access.kind === 'staff')
        expect(route.path.startsWith('/api/v1/admin/'), route.name).toBe(true);
      if (route.access.kind === 'user')
        expect(route.path.startsWith('/api/v1/admin/'), route.name).toBe(false);
    }
  });

  it('names back-office routes admin<area><action> in lowercase', () => {
    for (const route of adminRoutes) expect(route.name, route.path).toMatch(/^admin[a-z]+$/);
  });
});

describe('the permission map', () => {
  it('has one menu permission per module and button permissions named after their module', () => {
    for (const entry of BACKOFFICE_MENU) {
      expect(entry.permission, entry.key).toMatch(/^[a-z]+\.view$/);
      const module = entry.permission.split('.')[0];
      for (const button of entry.buttons)
        expect(button.permission.split('.')[0], button.permission).toBe(module);
    }
    expect(new Set(ALL_PERMISSIONS).size).toBe(ALL_PERMISSIONS.length);
  });

  it('splits broker and platform permissions without overlap, and money permissions are buttons a broker can grant', () => {
    expect([...BROKER_PERMISSIONS, ...PLATFORM_PERMISSIONS].sort()).toEqual([...ALL_PERMISSIONS].sort());
    for (const p of PLATFORM_PERMISSIONS) expect(BROKER_PERMISSIONS).not.toContain(p);
    expect(PLATFORM_PERMISSIONS).toContain('brokers.edit');
    for (const p of MONEY_PERMISSIONS) expect(BROKER_PERMISSIONS).toContain(p);
  });
});

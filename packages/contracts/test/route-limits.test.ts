import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEFAULT_PUBLIC_LIMIT, limitsOf, ROUTE_LIMITS } from '../src/route-limits';
import { routeByName, routeList } from '../src/routes';

/** The field names of a route's input, through optionals, defaults, pipes, unions and intersections. */
function inputKeys(schema: z.ZodType, into = new Set<string>()): Set<string> {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const walk = (inner: unknown) => inner && inputKeys(inner as z.ZodType, into);
  switch (def.type) {
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        into.add(key);
        walk(value);
      }
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      walk(def.innerType);
      break;
    case 'pipe':
      walk(def.in);
      break;
    case 'intersection':
      walk(def.left);
      walk(def.right);
      break;
    case 'union':
      for (const option of def.options as z.ZodType[]) walk(option);
      break;
    case 'array':
      walk(def.element);
      break;
  }
  return into;
}

/** Fields that carry something secret to check: a password, a code, an authenticator code. */
const CREDENTIAL_FIELDS = ['password', 'oldPassword', 'code', 'otp', 'captcha', 'cipher_text'];

describe('route limits', () => {
  it('names only routes of the catalogue, with positive counts and windows', () => {
    for (const [name, limits] of Object.entries(ROUTE_LIMITS)) {
      expect(routeByName(name), name).toBeDefined();
      for (const limit of limits) {
        expect(limit.max, name).toBeGreaterThan(0);
        expect(limit.seconds, name).toBeGreaterThan(0);
      }
    }
  });

  it('limits every public call, and lists every public call that changes state', () => {
    for (const route of routeList) {
      if (route.access.kind !== 'public') continue;
      expect(limitsOf(route).length, route.name).toBeGreaterThan(0);
      if (route.mutates) expect(ROUTE_LIMITS[route.name], `${route.name} changes state`).toBeDefined();
    }
    expect(limitsOf({ name: 'symbols', access: { kind: 'public' } })).toEqual([DEFAULT_PUBLIC_LIMIT]);
  });

  it('lists every call whose input carries a credential', () => {
    const checked: string[] = [];
    for (const route of routeList) {
      const keys = inputKeys(route.input);
      const credential = CREDENTIAL_FIELDS.filter((field) => keys.has(field));
      if (credential.length === 0) continue;
      // The trade token's request is a key exchange bound to the session, not a guessable secret,
      // and staff creating or resetting others' passwords set a password, they do not check one.
      if (['tradetoken', 'adminstaffcreate', 'adminstaffpassword', 'adminbrokercreate'].includes(route.name))
        continue;
      checked.push(route.name);
      expect(ROUTE_LIMITS[route.name], `${route.name} takes ${credential.join(', ')}`).toBeDefined();
    }
    // The walk found the credential calls (a walk that sees no fields would pass vacuously).
    expect(checked).toEqual(
      expect.arrayContaining(['login', 'adminlogin', 'forgetpassword', 'changepassword', 'totpdisable']),
    );
  });
});

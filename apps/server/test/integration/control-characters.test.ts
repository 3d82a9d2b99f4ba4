import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTSPECIFIC_FIELD, ROUTES_HEADER } from '@broker/contracts/envelope';
import { routeList, type TRouteDefinition } from '@broker/contracts/routes';
import { AppErrorCode } from '@broker/domain/result-codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { StaffClient } from '../staff';
import { Trader } from '../trader';

/**
 * Finding 8 of issue 15: a NUL (or another control character) in any string answered HTTP 500
 * -9999, because PostgreSQL refuses U+0000. This walks the route catalogue and, for every string
 * field of every route's input schema (and Hostspecific), sends that field holding a NUL:
 * anonymously, and with the session the route needs. Each answer must be -9001 naming the field.
 */

const en = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../../packages/i18n/locales/en.json'), 'utf8'),
) as Record<string, string>;
const REFUSED = en['validation.controlCharacter'] as string;
const BAD = 'a\u0000b';

type TPath = (string | number)[];

/** zod v4's definition of a schema: only what the walk reads. */
interface TDef {
  type: string;
  shape?: Record<string, TSchema>;
  innerType?: TSchema;
  element?: TSchema;
  options?: TSchema[];
  left?: TSchema;
  right?: TSchema;
  in?: TSchema;
  out?: TSchema;
  keyType?: TSchema;
  valueType?: TSchema;
  items?: TSchema[];
  values?: unknown[];
  entries?: Record<string, unknown>;
  getter?: () => TSchema;
}
interface TSchema {
  _zod: { def: TDef };
}

/**
 * The paths of every string the input schema takes (strings, string enums and literals), through
 * objects, optionals, nullables, defaults, arrays (index 0), records (key `k`), tuples, unions,
 * intersections, pipes and transforms (their input side) and lazy schemas.
 */
function stringPaths(schema: TSchema, path: TPath = [], seen = new Set<TSchema>()): TPath[] {
  if (seen.has(schema)) return [];
  const def = schema._zod.def;
  const inner = (next: TSchema | undefined, at: TPath = path) =>
    next ? stringPaths(next, at, new Set([...seen, schema])) : [];
  switch (def.type) {
    case 'string':
    case 'template_literal':
      return [path];
    case 'enum':
      return Object.values(def.entries ?? {}).some((v) => typeof v === 'string') ? [path] : [];
    case 'literal':
      return (def.values ?? []).some((v) => typeof v === 'string') ? [path] : [];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, field]) => inner(field, [...path, key]));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return inner(def.innerType);
    case 'array':
      return inner(def.element, [...path, 0]);
    case 'tuple':
      return (def.items ?? []).flatMap((item, index) => inner(item, [...path, index]));
    case 'record':
      return inner(def.valueType, [...path, 'k']);
    case 'union':
      return (def.options ?? []).flatMap((option) => inner(option));
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    case 'pipe':
      // z.preprocess is a pipe out of a transform: the schema after it says what the input holds.
      return def.in?._zod.def.type === 'transform' ? inner(def.out) : inner(def.in);
    case 'lazy':
      return inner(def.getter?.());
    default:
      return [];
  }
}

/** Every distinct string path of a route's input. */
function fieldsOf(route: TRouteDefinition): TPath[] {
  const unique = new Map<string, TPath>();
  for (const path of stringPaths(route.input as unknown as TSchema)) unique.set(path.join('.'), path);
  return [...unique.values()];
}

/** A body holding BAD at `path`, and nothing else. */
function bodyWith(path: TPath): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let at: Record<string | number, unknown> = root;
  path.forEach((key, index) => {
    const next = path[index + 1];
    if (next === undefined) at[key] = BAD;
    else {
      at[key] = typeof next === 'number' ? [] : {};
      at = at[key] as Record<string | number, unknown>;
    }
  });
  return root;
}

let server: TTestServer;
let anonymous: ApiClient;
let trader: Trader;
let staff: StaffClient;

beforeAll(async () => {
  server = await startTestServer();
  anonymous = new ApiClient(server.baseUrl);
  anonymous.cookies.set('lang', 'en');
  trader = await Trader.signIn(server.baseUrl);
  staff = await new StaffClient(server.baseUrl, (path: string) => path).signIn('admin', TEST_ADMIN_PASSWORD);
});
afterAll(() => server.close());

interface TCase {
  route: TRouteDefinition;
  caller: 'anonymous' | 'trader' | 'staff';
  field: string;
  body: Record<string, unknown>;
  viaGateway: boolean;
}

function send({ route, caller, body, viaGateway }: TCase) {
  const path = viaGateway ? '/gateway' : route.path;
  const routeHeader: Record<string, string> = viaGateway ? { [ROUTES_HEADER]: route.name } : {};
  if (caller === 'trader') return trader.api.post(path, body, { ...trader.headers, ...routeHeader });
  if (caller === 'staff') return staff.api.post(path, body, { 'x-csrf-token': staff.csrf, ...routeHeader });
  return anonymous.post(path, body, routeHeader);
}

/** Runs the cases a few at a time: fast, without a burst of hundreds of sockets. */
async function runAll(cases: TCase[], parallel = 16) {
  const failures: string[] = [];
  for (let start = 0; start < cases.length; start += parallel) {
    await Promise.all(
      cases.slice(start, start + parallel).map(async (c) => {
        const answer = await send(c);
        const named = answer.body.fields?.[c.field];
        if (answer.status !== 400 || answer.body.code !== AppErrorCode.VALIDATION_FAILED || named !== REFUSED)
          failures.push(
            `${c.route.name} ${c.field} (${c.caller}${c.viaGateway ? ', /gateway' : ''}): ${answer.status} ` +
              `${answer.body.code} ${JSON.stringify(answer.body.fields)}`,
          );
      }),
    );
  }
  return failures;
}

describe('control characters in a call', () => {
  it('are refused with -9001 naming the field, on every string field of every route, for every caller', async () => {
    const cases: TCase[] = [];
    const routesWithFields = new Set<string>();
    let pairs = 0;
    for (const route of routeList) {
      const callers: TCase['caller'][] = ['anonymous'];
      if (route.access.kind === 'user') callers.push('trader');
      if (route.access.kind === 'staff') callers.push('staff');
      const fields = fieldsOf(route);
      if (fields.length > 0) routesWithFields.add(route.name);
      pairs += fields.length;
      for (const caller of callers) {
        for (const path of fields)
          cases.push({ route, caller, field: path.join('.'), body: bodyWith(path), viaGateway: false });
        // Hostspecific names the broker and is read before the input is parsed; also by the Routes header.
        cases.push({
          route,
          caller,
          field: HOSTSPECIFIC_FIELD,
          body: { [HOSTSPECIFIC_FIELD]: BAD },
          viaGateway: true,
        });
      }
    }
    const failures = await runAll(cases);
    console.info(
      `control characters: ${routeList.length} routes, ${routesWithFields.size} with string fields, ` +
        `${pairs} (route, field) pairs, ${cases.length} calls`,
    );
    expect(failures).toEqual([]);
    // The walk must not check nothing: when written, 156 routes, 114 of them with 287 string fields.
    expect(routeList.length).toBeGreaterThan(150);
    expect(routesWithFields.size).toBeGreaterThan(100);
    expect(pairs).toBeGreaterThan(250);
  });

  it('refuses each forbidden character, and lets tab, line feed and carriage return through', async () => {
    for (const char of ['\u0001', '\u0008', '\u000b', '\u000c', '\u000e', '\u001f', '\u007f']) {
      const answer = await anonymous.post('/api/v1/common/localelist', { [HOSTSPECIFIC_FIELD]: `x${char}` });
      expect(answer.body.fields, JSON.stringify(char)).toEqual({ [HOSTSPECIFIC_FIELD]: REFUSED });
    }
    // A sign-in whose password holds tab, CR and LF is checked as a password (wrong), not refused.
    const signIn = await anonymous.post('/api/v1/usercenter/login', {
      email: 'demo@example.com',
      password: 'a\tb\r\nc',
    });
    expect(signIn.body.code).not.toBe(AppErrorCode.VALIDATION_FAILED);
    expect(signIn.status).toBeLessThan(500);
  });

  it('are refused by the routes outside the gateway: OAuth2, exports, uploads', async () => {
    const authorize = await anonymous.get('/oauth2/authorize?client_id=%00&response_type=code');
    expect(authorize.status).toBe(400);
    expect(((await authorize.json()) as { fields: Record<string, string> }).fields).toEqual({
      client_id: REFUSED,
    });

    const form = await fetch(`${server.baseUrl}/oauth2/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'lang=en' },
      body: 'response_type=code&client_id=%00&provision_key=x&authenticated_userid=u',
    });
    expect(form.status).toBe(400);
    expect(await form.json()).toMatchObject({
      code: AppErrorCode.VALIDATION_FAILED,
      fields: { client_id: REFUSED },
    });

    const token = await anonymous.post('/oauth2/token', {
      grant_type: 'refresh_token',
      client_id: 'web',
      client_secret: 'x',
      refresh_token: BAD,
    });
    expect(token.status).toBe(400);
    expect(token.body.fields).toEqual({ refresh_token: REFUSED });

    const csv = await trader.api.get('/api/v1/order/history.csv?account_id=1&symbol=EUR%00USD');
    expect(csv.status).toBe(400);
    expect(((await csv.json()) as { fields: Record<string, string> }).fields).toEqual({ symbol: REFUSED });

    const upload = await trader.api.upload(
      '/api/v1/account/golbal/upload?purpose=avatar%01',
      new Uint8Array(16),
    );
    expect(upload.status).toBe(400);
    expect(upload.body.fields).toEqual({ purpose: REFUSED });
  });
});

import { routeList } from '@broker/contracts/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
  await createTenant({
    db: server.app.services.database.db,
    slug: 'acme',
    name: 'Acme FX',
    hosts: ['acme.example'],
  });
});
afterAll(() => server.close());

describe('gateway', () => {
  it('answers the same call by path and by Routes header, in one envelope', async () => {
    const api = new ApiClient(server.baseUrl);
    const byPath = await api.post('/api/v1/common/localelist');
    const byHeader = await api.post('/gateway', {}, { Routes: 'localelist' });
    expect(byPath.status).toBe(200);
    expect(byPath.body).toMatchObject({ code: 200, success: true, errorCode: 200 });
    expect(byPath.body.data).toHaveLength(16);
    expect(byPath.body.data.map((l: { code: string }) => l.code)).toContain('zh-CN');
    expect(byHeader.body.data).toEqual(byPath.body.data);
  });

  it('serves the calling-code list grouped A to Z in Chinese and English', async () => {
    const api = new ApiClient(server.baseUrl);
    const zh = await api.post('/gateway', { list: 'zh' }, { Routes: 'countrylist' });
    const en = await api.post('/api/v1/common/countrylist', { list: 'en' });
    const groups = en.body.data as {
      name: string;
      data: {
        twoCharCode: string;
        name: string;
        code: string;
        codes: string[];
        countryCode: string;
        flag: string;
      }[];
    }[];
    expect(groups.map((g) => g.name)).toEqual([...groups.map((g) => g.name)].sort());
    const all = groups.flatMap((g) => g.data);
    expect(all.length).toBeGreaterThan(240);
    const us = all.find((c) => c.twoCharCode === 'US')!;
    expect(us).toMatchObject({ code: '001', countryCode: '840', name: 'United States' });
    expect(all.find((c) => c.twoCharCode === 'PR')!.codes).toEqual(['001787', '001939']);
    expect(all.find((c) => c.twoCharCode === 'KZ')!.code).toBe('007');
    const zhUs = (zh.body.data as typeof groups).flatMap((g) => g.data).find((c) => c.twoCharCode === 'US')!;
    expect(zhUs.name).toBe('美国');
    const flag = await fetch(server.baseUrl + us.flag);
    expect(flag.status).toBe(200);
    expect(flag.headers.get('content-type')).toContain('svg');
  });

  it('rejects an unknown route with a stable code and a translated message', async () => {
    const api = new ApiClient(server.baseUrl);
    const en = await api.post('/gateway', {}, { Routes: 'nosuchroute', LanguageCode: 'en' });
    const zh = await api.post('/gateway', {}, { Routes: 'nosuchroute', LanguageCode: 'zh-CN' });
    expect(en.status).toBe(404);
    expect(en.body).toMatchObject({
      success: false,
      errorCode: -9002,
      code: -9002,
      messageKey: 'errors.-9002',
    });
    expect(en.body.message).toBe('This service does not exist.');
    expect(zh.body.message).not.toBe(en.body.message);
    expect(zh.body.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers a body that is not JSON in the envelope, with -9001 and a translated message', async () => {
    for (const path of ['/api/v1/order/send', '/gateway']) {
      const response = await fetch(server.baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', LanguageCode: 'de', Routes: 'ordersend' },
        body: '{bad',
      });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body).toMatchObject({
        success: false,
        code: -9001,
        errorCode: -9001,
        messageKey: 'errors.-9001',
      });
      expect(body.message).toMatch(/\S/);
      expect(body.message).not.toMatch(/FST_|JSON/);
    }
  });

  it('answers bad input with field errors and changes nothing', async () => {
    const api = new ApiClient(server.baseUrl);
    const answer = await api.post(
      '/api/v1/admin/auth/login',
      { username: 'bad name!', password: '123' },
      { LanguageCode: 'en' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errorCode).toBe(-9001);
    expect(Object.keys(answer.body.fields ?? {}).sort()).toEqual(['password', 'username']);
    expect(answer.body.fields?.username).toBe('Use 3 to 32 letters and digits only.');

    // A value of the wrong type is not "required": it is there, and not valid.
    const typed = await api.post(
      '/api/v1/admin/auth/login',
      { username: 12345, password: null },
      { LanguageCode: 'en' },
    );
    expect(typed.body.errorCode).toBe(-9001);
    expect(typed.body.fields?.username).toBe('This value is not valid.');
    expect(typed.body.fields?.password).toBe('This field is required.');
  });

  it('selects the broker by the Hostspecific field or the host, and refuses an unknown one', async () => {
    const api = new ApiClient(server.baseUrl);
    const unknown = await api.post('/api/v1/common/localelist', { Hostspecific: 'nobody' });
    expect(unknown.body.errorCode).toBe(-9004);
    const known = await api.post('/api/v1/common/localelist', { Hostspecific: 'acme' });
    expect(known.body.success).toBe(true);
    // Staff of the default broker cannot sign in at another broker.
    const other = await api.post('/api/v1/admin/auth/login', {
      username: 'admin',
      password: 'Admin-Test-Password-2026',
      Hostspecific: 'acme.example',
    });
    expect(other.body.errorCode).toBe(-1002);
  });

  it('guards every non-public route in the catalogue', async () => {
    const api = new ApiClient(server.baseUrl);
    const guarded = routeList.filter((route) => route.access.kind !== 'public');
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of routeList) {
      expect(['public', 'user', 'staff']).toContain(route.access.kind);
    }
    for (const route of guarded) {
      const answer = await api.post(route.path, {});
      expect(answer.body.errorCode, route.name).toBe(-1001);
      expect(answer.status, route.name).toBe(401);
    }
  });
});

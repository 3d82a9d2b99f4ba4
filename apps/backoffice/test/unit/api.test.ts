import { CSRF_HEADER } from '@broker/contracts/envelope';
import { routeCatalogue } from '@broker/contracts/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_ROUTES, callApi } from '../../src/api';
import {
  ApiError,
  CSRF_COOKIE_NAME,
  CSRF_HEADER_NAME,
  configureApi,
  onUnauthorized,
  readCookie,
} from '../../src/lib/api';

function answer(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function stubFetch(response: () => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  configureApi({
    fetch: (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return response();
    }) as typeof fetch,
  });
  return calls;
}

afterEach(() => configureApi({ csrfToken: null, cookies: () => '', locale: 'zh-CN' }));

describe('API client', () => {
  it('uses the paths and CSRF rules of the route catalogue', () => {
    for (const [name, route] of Object.entries(ADMIN_ROUTES)) {
      const contract = routeCatalogue[name as keyof typeof routeCatalogue];
      expect(route.path).toBe(contract.path);
      expect(route.mutates).toBe(contract.mutates);
    }
    expect(CSRF_HEADER_NAME).toBe(CSRF_HEADER);
    expect(CSRF_COOKIE_NAME).toBe('admin_csrf');
  });

  it('reads cookies', () => {
    expect(readCookie('admin_csrf', 'lang=en; admin_csrf=abc%3D; other=1')).toBe('abc=');
    expect(readCookie('csrf', 'admin_csrf=abc')).toBeNull();
  });

  it('posts JSON with the language, and returns the data of a successful answer', async () => {
    const calls = stubFetch(() =>
      answer({
        code: 0,
        success: true,
        data: { tenants: 1, users: 2, staff: 3, pageViewsToday: 4 },
        errorCode: 0,
        message: 'ok',
      }),
    );
    configureApi({ locale: 'en' });
    await expect(callApi('adminoverview', {})).resolves.toEqual({
      tenants: 1,
      users: 2,
      staff: 3,
      pageViewsToday: 4,
    });
    const [call] = calls;
    expect(call?.url).toBe('/api/v1/admin/statistics/overview');
    expect(call?.init.method).toBe('POST');
    expect(call?.init.credentials).toBe('same-origin');
    expect(call?.init.body).toBe('{}');
    const headers = call?.init.headers as Record<string, string>;
    expect(headers.LanguageCode).toBe('en');
    expect(headers[CSRF_HEADER]).toBeUndefined();
  });

  it('sends the CSRF token on calls that change state, preferring the cookie', async () => {
    const calls = stubFetch(() =>
      answer({ code: 0, success: true, data: { ok: true }, errorCode: 0, message: 'ok' }),
    );
    configureApi({ csrfToken: 'from-answer' });
    await callApi('adminlogout', {});
    configureApi({ cookies: () => 'admin_csrf=from-cookie' });
    await callApi('adminlogout', {});
    expect((calls[0]!.init.headers as Record<string, string>)[CSRF_HEADER]).toBe('from-answer');
    expect((calls[1]!.init.headers as Record<string, string>)[CSRF_HEADER]).toBe('from-cookie');
  });

  it('rejects with the translated message and field problems of a failed answer', async () => {
    stubFetch(() =>
      answer(
        {
          code: -9001,
          success: false,
          data: null,
          errorCode: -9001,
          message: '部分信息无效。',
          messageKey: 'errors.-9001',
          fields: { username: '用户名格式不正确' },
        },
        400,
      ),
    );
    const error = await callApi('adminlogin', { username: 'a', password: 'b' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'answer',
      errorCode: -9001,
      message: '部分信息无效。',
      fields: { username: '用户名格式不正确' },
    });
  });

  it('tells listeners when the session has ended, except on sign-in', async () => {
    stubFetch(() => answer({ code: -1001, success: false, data: null, errorCode: -1001, message: 'x' }, 401));
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    await expect(callApi('adminme', {})).rejects.toMatchObject({ unauthorized: true });
    await expect(callApi('adminlogin', { username: 'admin', password: 'wrong' })).rejects.toBeInstanceOf(
      ApiError,
    );
    stop();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('reports network failures and answers that are not envelopes', async () => {
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(callApi('adminme', {})).rejects.toMatchObject({ kind: 'network' });
    stubFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(callApi('adminme', {})).rejects.toMatchObject({ kind: 'http', status: 502 });
  });
});

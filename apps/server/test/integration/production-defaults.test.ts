import { AppErrorCode } from '@broker/domain/result-codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

/**
 * Issue 15, finding 11: a production start (NODE_ENV=production, DEMO_MODE not set) has no
 * development conveniences: no mail catcher or /dev/mailbox, no SMS sandbox, no Sandbox ID, and
 * /metrics only with its bearer token.
 */
const METRICS_TOKEN = 'metrics-token-of-the-test-0123456789';

describe('production defaults', () => {
  let server: TTestServer;
  beforeAll(async () => {
    // DEMO_MODE '' is unset: the default of a production start applies.
    server = await startTestServer({ NODE_ENV: 'production', DEMO_MODE: '', METRICS_TOKEN });
  });
  afterAll(async () => server?.close());

  it('turns demo mode off', () => {
    expect(server.config.DEMO_MODE).toBe(false);
    expect(server.app.services.mailCatcher).toBeNull();
    expect(server.app.services.oidcSandbox).toBeNull();
  });

  it('has no developer mailbox', async () => {
    for (const path of ['/dev/mailbox.json', '/dev/mailbox', '/dev/mailbox.json?to=demo@example.com']) {
      const response = await fetch(server.baseUrl + path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toMatch(/Developer mailbox|"mails"/);
    }
  });

  it('offers no Sandbox ID sign-in', async () => {
    const api = new ApiClient(server.baseUrl);
    const { body } = await api.post('/api/v1/usercenter/unionproviders', {});
    expect(body.success).toBe(true);
    expect(JSON.stringify(body.data)).not.toMatch(/sandbox/i);
    const start = await api.post('/api/v1/usercenter/unionstart', {
      slug: 'sandbox',
      mode: 'login',
      lang: 'en',
      redirect: '/en',
    });
    expect(start.body.success).toBe(false);
  });

  it('refuses codes it cannot deliver instead of storing them where nobody reads them', async () => {
    const sms = server.app.services.sms;
    await expect(sms.send({ to: '+12025550123', text: 'code 1234', channel: 'sms' })).rejects.toThrow(
      /no sms provider/,
    );
    await expect(
      server.app.services.mailer.send({ to: 'demo@example.com', subject: 's', text: 't' }),
    ).rejects.toThrow(/SMTP_URL is not set/);
    const stored = await server.app.services.database.db.selectFrom('sms_outbox').select('id').execute();
    expect(stored).toEqual([]);
  });

  it('answers /metrics only with the bearer token', async () => {
    const metrics = (headers: Record<string, string> = {}) => fetch(`${server.baseUrl}/metrics`, { headers });
    expect((await metrics()).status).toBe(401);
    expect((await metrics({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await metrics({ authorization: `Bearer ${METRICS_TOKEN}x` })).status).toBe(401);
    expect((await metrics({ authorization: METRICS_TOKEN })).status).toBe(401);
    const ok = await metrics({ authorization: `Bearer ${METRICS_TOKEN}` });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('http_request_duration_seconds_bucket');
  });

  it('without METRICS_TOKEN, refuses /metrics to everyone', async () => {
    const bare = await startTestServer({ NODE_ENV: 'production', DEMO_MODE: '' });
    try {
      const response = await fetch(`${bare.baseUrl}/metrics`);
      expect(response.status).toBe(401);
      expect(await response.text()).toMatch(/METRICS_TOKEN/);
      // The gateway still works; only the conveniences are gone.
      const api = new ApiClient(bare.baseUrl);
      const { body } = await api.post('/api/v1/usercenter/emailregistered', { email: 'demo@example.com' });
      expect(body.data).toEqual({ registered: true });
      expect(body.code).not.toBe(AppErrorCode.INTERNAL);
    } finally {
      await bare.close();
    }
  });
});

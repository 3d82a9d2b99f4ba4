import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function phone() {
  const api = new ApiClient(server.baseUrl);
  await api.post('/api/v1/usercenter/login', { email: 'demo@example.com', password: 'Demo2026!' });
  return { api, csrf: { 'x-csrf-token': api.cookies.get('csrf') as string } };
}

describe('QR sign-in', () => {
  it('signs the waiting browser in within 2 s of the confirmation, once', async () => {
    const waiting = new ApiClient(server.baseUrl);
    const { ticket } = (await waiting.post('/api/v1/usercenter/qrticket')).body.data as { ticket: string };
    const device = await phone();
    const poll = waiting.post('/api/v1/usercenter/qrstatus', { ticket, waitMs: 20_000 });
    await new Promise((r) => setTimeout(r, 300));
    expect((await device.api.post('/api/v1/usercenter/qrscan', { ticket }, device.csrf)).body.success).toBe(
      true,
    );
    expect((await poll).body.data.status).toBe('scanned');
    const confirmedPoll = waiting.post('/api/v1/usercenter/qrstatus', { ticket, waitMs: 20_000 });
    await new Promise((r) => setTimeout(r, 300));
    const confirmedAt = Date.now();
    expect(
      (await device.api.post('/api/v1/usercenter/qrconfirm', { ticket }, device.csrf)).body.success,
    ).toBe(true);
    const answer = await confirmedPoll;
    expect(Date.now() - confirmedAt).toBeLessThan(2_000);
    expect(answer.body.data.status).toBe('confirmed');
    expect(answer.body.data.session.user.email).toBe('demo@example.com');
    expect(waiting.cookies.has('token')).toBe(true);
    expect((await waiting.post('/api/v1/usercenter/userinfo')).body.success).toBe(true);
    // The ticket is spent.
    const replay = await new ApiClient(server.baseUrl).post('/api/v1/usercenter/qrstatus', {
      ticket,
      waitMs: 0,
    });
    expect(replay.body.data).toEqual({ status: 'expired', session: null });
  });

  it('expires after 2 minutes, and a cancelled ticket signs nobody in', async () => {
    const waiting = new ApiClient(server.baseUrl);
    const { ticket } = (await waiting.post('/api/v1/usercenter/qrticket')).body.data as { ticket: string };
    const device = await phone();
    await server.app.services.database.db
      .updateTable('qr_tickets')
      .set({ expires_at: new Date(Date.now() - 1) })
      .execute();
    expect(
      (await device.api.post('/api/v1/usercenter/qrconfirm', { ticket }, device.csrf)).body.errorCode,
    ).toBe(-1013);
    expect((await waiting.post('/api/v1/usercenter/qrstatus', { ticket, waitMs: 0 })).body.data.status).toBe(
      'expired',
    );
    const second = (await waiting.post('/api/v1/usercenter/qrticket')).body.data as {
      ticket: string;
      expiresAt: number;
    };
    expect(second.expiresAt - Date.now()).toBeGreaterThan(115_000);
    await device.api.post(
      '/api/v1/usercenter/qrconfirm',
      { ticket: second.ticket, approve: false },
      device.csrf,
    );
    expect(
      (await waiting.post('/api/v1/usercenter/qrstatus', { ticket: second.ticket, waitMs: 0 })).body.data
        .status,
    ).toBe('expired');
    expect(waiting.cookies.has('token')).toBe(false);
  });

  it('needs a signed-in device to confirm', async () => {
    const { ticket } = (await new ApiClient(server.baseUrl).post('/api/v1/usercenter/qrticket')).body
      .data as { ticket: string };
    expect(
      (await new ApiClient(server.baseUrl).post('/api/v1/usercenter/qrconfirm', { ticket })).body.errorCode,
    ).toBe(-1001);
  });
});

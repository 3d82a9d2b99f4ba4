import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { migrate } from '../../src/db/migrate';
import { startTestServer } from '../helpers';

describe('health, metrics and start-up', () => {
  it('reports its parts, and 503 once the database is gone', async () => {
    const server = await startTestServer();
    try {
      const ok = await fetch(`${server.baseUrl}/HealthCheck/Get`);
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as {
        status: string;
        parts: { database: { status: string }; redis: { status: string } };
      };
      expect(body.status).toBe('ok');
      expect(body.parts.database.status).toBe('ok');
      expect(body.parts.redis.status).toBe(process.env.REDIS_URL ? 'ok' : 'absent');
      const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
      expect(metrics).toContain('http_request_duration_seconds_bucket');
      expect(metrics).toContain('process_cpu_user_seconds_total');
      expect(await migrate(server.app.services.database)).toEqual([]);
      await server.app.services.database.close();
      const down = await fetch(`${server.baseUrl}/HealthCheck/Get`);
      expect(down.status).toBe(503);
      expect(((await down.json()) as { parts: { database: { status: string } } }).parts.database.status).toBe(
        'down',
      );
    } finally {
      await server.app.app.close();
    }
  });

  it('refuses bad configuration with one clear line per variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', REDIS_URL: 'http://x' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (error) {
      expect(String((error as Error).message)).toMatch(/PORT/);
      expect(String((error as Error).message)).toMatch(/DATABASE_URL: must start with postgres/);
    }
    expect(loadConfig({}).PORT).toBe(3000);
  });
});

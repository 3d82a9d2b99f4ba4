import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp, type TApp } from '../src/app';
import { loadConfig, type TConfig } from '../src/config';
import { seed } from '../src/seed';

export const TEST_ADMIN_PASSWORD = 'Admin-Test-Password-2026';

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by DATABASE_URL (the CI run against the real server).
 */
export async function freshDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (!server?.startsWith('postgres')) return { url: 'memory://', drop: async () => undefined };
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface TTestServer {
  app: TApp;
  config: TConfig;
  baseUrl: string;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TTestServer> {
  const database = await freshDatabaseUrl();
  const dataDir = mkdtempSync(join(tmpdir(), 'broker-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    REDIS_URL: process.env.REDIS_URL,
    WEB_DIST: 'apps/web/dist',
    // The tests read codes from the mail catcher and sign in through Sandbox ID: demo mode, explicitly.
    DEMO_MODE: 'true',
    MAIL_CATCHER_PORT: '0',
    OIDC_SANDBOX_PORT: '0',
    CAPTCHA_DIFFICULTY: '4',
    BACKOFFICE_DIST: 'apps/backoffice/dist',
    // The seeded administrator signs in with the password alone; tests of two-factor turn it on.
    SEED_MONEY_TWO_FACTOR: 'false',
    ...env,
  });
  const app = await buildApp(config);
  await seed(config, app.services.database, app.services);
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    config,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A tiny cookie-keeping client for API tests. */
export class ApiClient {
  cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** A GET that keeps cookies and does not follow redirects. */
  async get(pathOrUrl: string, headers: Record<string, string> = {}) {
    const response = await fetch(pathOrUrl.startsWith('http') ? pathOrUrl : this.baseUrl + pathOrUrl, {
      headers: { cookie: this.cookieHeader(), ...headers },
      redirect: 'manual',
    });
    this.keepCookies(response);
    return response;
  }

  /** Sends raw bytes (an upload) with the session's CSRF token. */
  async upload(path: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
    const response = await fetch(this.baseUrl + path, {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        cookie: this.cookieHeader(),
        'x-csrf-token': this.cookies.get('csrf') ?? '',
        ...headers,
      },
      body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read answers of every route
    return { status: response.status, body: (await response.json()) as any };
  }

  private keepCookies(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      const v = value.join('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || v === '') this.cookies.delete(name);
      else this.cookies.set(name, v);
    }
  }

  async post(path: string, body: unknown = {}, headers: Record<string, string> = {}) {
    const response = await fetch(this.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: this.cookieHeader(), ...headers },
      body: JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      const v = value.join('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || v === '') this.cookies.delete(name);
      else this.cookies.set(name, v);
    }
    return {
      status: response.status,
      body: (await response.json()) as {
        code: number;
        success: boolean;
        // biome-ignore lint/suspicious/noExplicitAny: tests read answers of every route
        data: any;
        errorCode: number;
        message: string;
        messageKey?: string;
        fields?: Record<string, string>;
      },
      headers: response.headers,
    };
  }
}

let lastTickTime = 0;
/**
 * Pushes a quote (prices with 2 digits) through the test server's market service, as the feed
 * would: at the real time, each tick strictly later than the one before.
 */
export function pushTick(server: TTestServer, symbol: string, bid: number, ask: number) {
  lastTickTime = Math.max(lastTickTime + 1, Date.now());
  server.app.services.market.onTick({
    symbol,
    time: lastTickTime,
    bid: Math.round(bid * 100),
    ask: Math.round(ask * 100),
  });
}

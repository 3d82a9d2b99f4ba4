import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabaseUrl, TEST_ADMIN_PASSWORD } from './helpers';

const root = join(import.meta.dirname, '../../..');

/** Whether a server can listen on this loopback port now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free TCP port on the loopback interface, below Linux's ephemeral range (32768–60999). A port the
 * kernel hands out for `listen(0)` comes from that range, the one outgoing connections take their
 * local ports from: between this check and an instance's own listen, a connection of the instance
 * started before it (to PostgreSQL, NATS, Redis) could take it, and the instance then failed with
 * EADDRINUSE (seen once in CI). Ports below the range are never given to outgoing connections.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port between 20000 and 32000');
}

export async function until<T>(probe: () => Promise<T | undefined>, ms = 30_000, every = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, every));
  }
}

export type THealthBody = {
  status: string;
  parts: {
    bus?: { kind: string; status: string };
    engine: { status: string; role: string; epoch: number | null; instance: string };
  };
};

export async function healthOf(baseUrl: string): Promise<{ code: number; body: THealthBody } | undefined> {
  try {
    const response = await fetch(`${baseUrl}/HealthCheck/Get`, { signal: AbortSignal.timeout(2_000) });
    return { code: response.status, body: (await response.json()) as THealthBody };
  } catch {
    return undefined;
  }
}

export interface TInstance {
  index: number;
  port: number;
  baseUrl: string;
  child: ChildProcess | null;
  exit: Promise<number | null>;
  output: () => string;
}

/**
 * Several server processes (`main.ts`, as an operator starts them) on one PostgreSQL database and
 * one NATS, behind HAProxy (Debian's package) on one address: the topology of docs/operations.md,
 * on one machine (issue 20).
 */
export class LocalCluster {
  readonly instances: TInstance[] = [];
  private haproxy: ChildProcess | null = null;
  proxyUrl = '';
  private dataDir = '';
  private dropDatabase: () => Promise<void> = async () => undefined;
  private databaseUrl = '';
  private readonly prefix = `test${randomBytes(4).toString('hex')}`;
  private readonly secret = randomBytes(32).toString('hex');

  constructor(
    private readonly size: number,
    private readonly env: Record<string, string> = {},
    /** Without the bus: one process as `npm start` runs it (the benchmark's single-process figures). */
    private readonly options: { nats?: boolean; proxy?: boolean; proxyPort?: number; logLevel?: string } = {},
  ) {}

  /** The database the instances share (a test reads it directly). */
  get database(): string {
    return this.databaseUrl;
  }

  async start(): Promise<void> {
    const database = await freshDatabaseUrl();
    this.databaseUrl = database.url;
    this.dropDatabase = database.drop;
    this.dataDir = mkdtempSync(join(tmpdir(), 'broker-cluster-'));
    for (let i = 0; i < this.size; i++)
      this.instances.push({
        index: i,
        port: await freePort(),
        baseUrl: '',
        child: null,
        exit: Promise.resolve(null),
        output: () => '',
      });
    // The first instance migrates and seeds the database; the others start beside it.
    await this.launch(0);
    await Promise.all(this.instances.slice(1).map((instance) => this.launch(instance.index)));
    if (this.options.proxy !== false) await this.startProxy();
  }

  /** Starts (or restarts) one instance and waits until it serves. */
  async launch(index: number): Promise<TInstance> {
    const instance = this.instances[index] as TInstance;
    instance.baseUrl = `http://127.0.0.1:${instance.port}`;
    const child = spawn(
      join(root, 'node_modules/.bin/node'),
      ['--import', 'tsx', join(root, 'apps/server/src/main.ts')],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          DEMO_MODE: 'true',
          PORT: String(instance.port),
          HOST: '127.0.0.1',
          DATA_DIR: join(this.dataDir, `i${index}`),
          LOG_LEVEL: this.options.logLevel ?? 'warn',
          DATABASE_URL: this.databaseUrl,
          REDIS_URL: process.env.REDIS_URL ?? '',
          ...(this.options.nats === false
            ? {}
            : { NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', BUS_PREFIX: this.prefix }),
          APP_SECRET: this.secret,
          ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
          SEED_MONEY_TWO_FACTOR: 'false',
          MAIL_CATCHER_PORT: '0',
          OIDC_SANDBOX_PORT: 'off',
          TRUST_PROXY: 'loopback',
          WEB_DIST: 'apps/web/dist',
          BACKOFFICE_DIST: 'apps/backoffice/dist',
          ...this.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let text = '';
    const keep = (chunk: Buffer) => {
      text = (text + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    instance.child = child;
    instance.output = () => text;
    instance.exit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    const state = await until(
      async () => {
        // An instance that exited ends the wait at once (until() treats a thrown probe as "not yet").
        if (child.exitCode !== null) return 'exited' as const;
        const health = await healthOf(instance.baseUrl);
        return health?.code === 200 ? ('serving' as const) : undefined;
      },
      90_000,
      200,
    ).catch((error: unknown) => {
      throw new Error(`instance ${index} did not start: ${String(error)}\n${text}`);
    });
    if (state === 'exited') throw new Error(`instance ${index} exited ${child.exitCode}:\n${text}`);
    return instance;
  }

  private async startProxy() {
    const port = this.options.proxyPort ?? (await freePort());
    this.proxyUrl = `http://127.0.0.1:${port}`;
    const config = [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  timeout connect 1s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  timeout tunnel 1h',
      '  option redispatch',
      '  retries 3',
      '  option forwardfor',
      'frontend front',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /HealthCheck/Get',
      '  http-check expect status 200',
      '  default-server inter 300ms fall 2 rise 2 on-marked-down shutdown-sessions',
      ...this.instances.map((i) => `  server i${i.index} 127.0.0.1:${i.port} check`),
      '',
    ].join('\n');
    const file = join(this.dataDir, 'haproxy.cfg');
    writeFileSync(file, config);
    this.haproxy = spawn('haproxy', ['-f', file, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
    await until(async () => ((await healthOf(this.proxyUrl))?.code === 200 ? true : undefined), 15_000);
  }

  /** The instance that leads the engine now, asked of each instance directly. */
  async leader(): Promise<TInstance | undefined> {
    for (const instance of this.instances) {
      if (!instance.child || instance.child.exitCode !== null) continue;
      const health = await healthOf(instance.baseUrl);
      if (health?.body.parts.engine.role === 'leader') return instance;
    }
    return undefined;
  }

  /** SIGKILL: no chance to give anything back. */
  async kill(instance: TInstance): Promise<void> {
    instance.child?.kill('SIGKILL');
    await instance.exit;
    instance.child = null;
  }

  async stop(): Promise<void> {
    this.haproxy?.kill('SIGKILL');
    await Promise.all(
      this.instances.map(async (instance) => {
        if (!instance.child) return;
        instance.child.kill('SIGTERM');
        const stopped = await Promise.race([
          instance.exit.then(() => true),
          new Promise((r) => setTimeout(() => r(false), 10_000)),
        ]);
        if (!stopped) instance.child.kill('SIGKILL');
      }),
    );
    await this.dropDatabase().catch(() => undefined);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

// Checks that the built product starts with production dependencies only (issue 15, finding 12).
//
//   npm run build && npm run check:prod-start
//
// Copies the repository's files and the built apps (apps/*/dist) into a temporary folder, installs
// there with `npm ci --omit=dev` (no tsx, vitest, esbuild, TypeScript or the pinned Node), starts it
// as `npm run start:only` does (scripts/start.mjs on this Node) with an on-disk PGlite, and checks:
// the health endpoint answers 200, a portal page and a legal page render, the back office is
// served, the development conveniences are off (/dev/mailbox 404, /metrics 401), and SIGTERM stops
// it with exit code 0. Takes about a minute with a warm npm cache.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const say = (text) =>
  console.log(`check-prod-start: ${text} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
const fail = (text) => {
  console.error(`check-prod-start: FAILED: ${text}`);
  process.exitCode = 1;
};

const BUILT = [
  'apps/server/dist/main.mjs',
  'apps/server/dist/pglite-worker.mjs',
  'apps/web/dist',
  'apps/backoffice/dist',
];
for (const path of BUILT)
  if (!existsSync(join(root, path))) {
    console.error(`check-prod-start: ${path} is missing: run \`npm run build\` first`);
    process.exit(1);
  }

// npm's own settings from an `npm run` around this script must not reach the inner install.
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE_OPTIONS'),
);

const work = mkdtempSync(join(tmpdir(), 'broker-prod-start-'));
const app = join(work, 'app');
let server = null;
try {
  // The repository's files (as in a clean clone, plus files not yet committed) and the built apps.
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(app, file)), { recursive: true });
    cpSync(join(root, file), join(app, file));
  }
  for (const path of ['apps/server/dist', 'apps/web/dist', 'apps/backoffice/dist'])
    cpSync(join(root, path), join(app, path), { recursive: true });
  say('copied the repository and the built apps');

  const npm = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: app,
    env: cleanEnv,
    encoding: 'utf8',
  });
  if (npm.status !== 0) throw new Error(`npm ci --omit=dev failed:\n${npm.stdout}\n${npm.stderr}`);
  for (const dev of ['tsx', 'vitest', 'esbuild', 'typescript', 'node', 'vite'])
    if (existsSync(join(app, 'node_modules', dev))) throw new Error(`dev dependency ${dev} was installed`);
  say('installed production dependencies only');

  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  // What `npm run start:only` runs, on this Node (the production Node the operator brings).
  server = spawn(process.execPath, [join(app, 'scripts/start.mjs')], {
    cwd: app,
    env: {
      PATH: cleanEnv.PATH,
      HOME: cleanEnv.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(work, 'data'),
      LOG_LEVEL: 'warn',
      OIDC_SANDBOX_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));

  const deadline = Date.now() + 120_000;
  let healthy = false;
  while (!healthy && Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${output}`);
    healthy = await fetch(`${base}/HealthCheck/Get`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (!healthy) await new Promise((r) => setTimeout(r, 500));
  }
  if (!healthy) throw new Error(`no healthy answer within 120 s:\n${output}`);
  say('the built server answers /HealthCheck/Get 200');

  const expectations = [
    ['/en', 200, /<html[^>]*lang="en"/],
    ['/en/h5/privacy', 200, /<html/],
    ['/admin', 200, /<div id="root"|<script/],
    ['/dev/mailbox.json', 404, null],
    ['/metrics', 401, null],
  ];
  for (const [path, status, body] of expectations) {
    const response = await fetch(base + path, { redirect: 'manual' });
    const text = await response.text();
    if (response.status !== status) fail(`GET ${path} answered ${response.status}, not ${status}`);
    else if (body && !body.test(text)) fail(`GET ${path} does not match ${body}`);
  }
  if (!/Broker platform is running/.test(output)) fail(`no start banner:\n${output}`);
  if (/Demo mode/.test(output)) fail('a production start printed demo mode');
  say('pages render; mailbox and metrics are closed');

  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
  const end = await exited;
  clearTimeout(timer);
  if (end.code !== 0) fail(`SIGTERM ended the server with ${end.code ?? end.signal}:\n${output}`);
  server = null;
  if (!process.exitCode) say('ok');
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}

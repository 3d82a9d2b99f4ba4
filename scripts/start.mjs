// Starts the server on the Node that runs this script (npm scripts put node_modules/.bin first on
// PATH, so the pinned Node 24 when dev dependencies are installed).
//
//   node scripts/start.mjs          the built server (apps/server/dist, `npm run build`), as in
//                                   production: NODE_ENV=production, demo mode only if DEMO_MODE=true
//   node scripts/start.mjs --demo   the same, in demo mode (`npm start`): mail catcher and
//                                   /dev/mailbox, SMS sandbox, Sandbox ID, public /metrics
//   node scripts/start.mjs --dev    the TypeScript sources under tsx (`npm run dev`), development mode
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const demo = process.argv.includes('--demo');
const built = join(root, 'apps/server/dist/main.mjs');

if (!dev && !existsSync(built)) {
  console.error('apps/server/dist/main.mjs is missing: run `npm run build` first (or `npm run dev`).');
  process.exit(1);
}
const args = dev
  ? ['--import', 'tsx', join(root, 'apps/server/src/main.ts')]
  : ['--enable-source-maps', built];
const defaults = dev
  ? { NODE_ENV: 'development' }
  : // The local demo asks for its conveniences here, explicitly; the server prints that it runs so.
    { NODE_ENV: 'production', ...(demo ? { DEMO_MODE: 'true' } : {}) };
const child = spawn(process.execPath, args, {
  cwd: root,
  stdio: 'inherit',
  env: { ...defaults, ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

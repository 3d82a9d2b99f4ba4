// Runs the whole suite (unit, integration, end-to-end) and prints one closing line
// "N passed, N failed" that CI reads, whatever the runner prints above it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = join(root, '.tmp/vitest-report.json');
mkdirSync(dirname(report), { recursive: true });
const projects = process.argv.slice(2).flatMap((p) => ['--project', p]);
const result = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...projects,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ],
  { cwd: root, stdio: 'inherit', env: process.env },
);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  // A file that fails before its tests run counts as one failure.
  failed = json.numFailedTests || json.numFailedTestSuites || 0;
  skipped = json.numPendingTests + json.numTodoTests;
} catch {
  failed = Math.max(failed, 1);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(result.status === 0 && failed === 0 ? 0 : 1);

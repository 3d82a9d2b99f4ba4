/**
 * Chart update benchmark: lightweight-charts in headless Chromium (playwright-core), a candlestick
 * series with a volume histogram. Times setData of 50,000 bars, then 1,000 updates of the last bar
 * (four same-time updates, then a new bar), each until the next animation frame has run, beside
 * the same with 1,000 bars in the same run. The updates of a case stop after BENCH_CHART_MAX_SECONDS
 * (default 180 s; the 50,000-bar case needs about 150 s here); the table says how many ran.
 * Run: npm run bench:chart   (CHROMIUM=/path/to/chromium to use another browser, BENCH_CHART_FIT=1
 * to show all 50,000 bars with fitContent instead of the default view of the newest ones)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { TChartBench, TChartCase, TChartResult } from './chart/page';

const UPDATES = 1_000;
const SET_DATA_RUNS = 5;
/** Per case, the updates stop after this long, so the run stays bounded when updates are slow. */
const MAX_UPDATE_MS = Number(process.env.BENCH_CHART_MAX_SECONDS ?? 180) * 1000;
const HARD_LIMIT_MS = 60_000 + 2 * MAX_UPDATE_MS;

const hardLimit = setTimeout(() => {
  console.error(`chart benchmark: still running after ${HARD_LIMIT_MS / 1000} s, giving up`);
  process.exit(1);
}, HARD_LIMIT_MS);
hardLimit.unref();

const cases: (TChartCase & { name: string })[] = [
  {
    name: '1,000 bars (baseline)',
    bars: 1_000,
    updates: UPDATES,
    setDataRuns: SET_DATA_RUNS,
    fitContent: false,
    maxUpdateMs: MAX_UPDATE_MS,
  },
  {
    name: '50,000 bars',
    bars: 50_000,
    updates: UPDATES,
    setDataRuns: SET_DATA_RUNS,
    fitContent: process.env.BENCH_CHART_FIT === '1',
    maxUpdateMs: MAX_UPDATE_MS,
  },
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}
const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);

const loadAtStart = loadavg()[0]!;
const chartsVersion = (
  JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('lightweight-charts/package.json'), 'utf8'),
  ) as { version: string }
).version;
const bundle = await build({
  entryPoints: [fileURLToPath(new URL('./chart/page.ts', import.meta.url))],
  bundle: true,
  format: 'iife',
  minify: true,
  write: false,
  target: 'es2022',
  conditions: ['production'],
  logLevel: 'silent',
});
const script = bundle.outputFiles[0]!.text;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  // Frames as fast as the page can draw them, so the time to the next frame is the work, not the
  // 60 Hz clock (headless Chromium keeps 60 Hz without both switches).
  args: ['--run-all-compositor-stages-before-draw', '--disable-frame-rate-limit'],
  timeout: 30_000,
});
const rows: { name: string; result: TChartResult; visible: number }[] = [];
try {
  const version = browser.version();
  for (const c of cases) {
    // A fresh page per case, so one case's garbage and caches do not reach the next.
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
    page.setDefaultTimeout(60_000);
    await page.setContent(
      '<!doctype html><html><body style="margin:0"><div id="chart" style="width:1200px;height:600px"></div></body></html>',
    );
    await page.addScriptTag({ content: script });
    const { name, ...input } = c;
    const result = await page.evaluate(
      (arg) => (window as unknown as { chartBench: TChartBench }).chartBench.run(arg),
      input,
    );
    rows.push({ name, result, visible: result.visibleBars });
    await page.close();
  }

  console.log(
    `\nChart update benchmark — ${new Date().toISOString()} — ${cpus()[0]?.model} x${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, Chromium ${version} headless (software rendering, frame rate limit off), lightweight-charts ${chartsVersion}, load average at start ${loadAtStart.toFixed(2)}`,
  );
  console.log(
    `Candlestick + volume histogram, 1200×600 CSS px at DPR 1. setData: median (max) of ${SET_DATA_RUNS} runs on new charts. ` +
      `${UPDATES} updates of both series on the last bar (4 same-time updates, then a new bar), each timed from the update call to the end of the next animation frame, at most ${MAX_UPDATE_MS / 1000} s per case.\n`,
  );
  console.log(
    '| case | bars in view | setData ms | setData to drawn ms | update to drawn p50 ms | p99 ms | max ms | update() call p50 ms | p99 ms | frame p50 ms | p99 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { name, result: r, visible } of rows) {
    console.log(
      `| ${name} | ${visible} | ${ms(percentile(r.setData, 50))} (${ms(Math.max(...r.setData))}) | ${ms(percentile(r.setDataToFrame, 50))} (${ms(Math.max(...r.setDataToFrame))}) | ${ms(percentile(r.updateToFrame, 50))} | ${ms(percentile(r.updateToFrame, 99))} | ${ms(Math.max(...r.updateToFrame))} | ${ms(percentile(r.updateSync, 50))} | ${ms(percentile(r.updateSync, 99))} | ${ms(percentile(r.frame, 50))} | ${ms(percentile(r.frame, 99))} |`,
    );
  }
  console.log(
    `\nUpdates run per case: ${rows.map((r) => `${r.result.updates} (${r.result.newBars} new bars)`).join(', ')}. "frame" is from the later of the frame's start and the end of the update() calls to the end of the chart's draw.`,
  );
} finally {
  await browser.close();
}

/**
 * The page of bench/chart-update.ts, bundled with esbuild and run in headless Chromium: a
 * lightweight-charts candlestick series with a volume histogram, timing setData and series updates.
 */
import {
  type CandlestickData,
  CandlestickSeries,
  createChart,
  type HistogramData,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';

export interface TChartCase {
  bars: number;
  updates: number;
  /** setData is timed this many times, each on a new chart; the updates run on the last one. */
  setDataRuns: number;
  /** Show every bar (fitContent) instead of the default view of the newest bars. */
  fitContent: boolean;
  /** The updates stop after this long even if fewer than `updates` have run. */
  maxUpdateMs: number;
}

export interface TChartResult {
  /** setData of both series, synchronous part, ms. */
  setData: number[];
  /** setData until the next animation frame has run (the chart has drawn), ms. */
  setDataToFrame: number[];
  /** Per update of both series: synchronous part, until the next animation frame, and that frame's share. */
  updateSync: number[];
  updateToFrame: number[];
  frame: number[];
  newBars: number;
  visibleBars: number;
  /** Updates that ran (fewer than asked if maxUpdateMs was reached). */
  updates: number;
}

export interface TChartBench {
  run(input: TChartCase): Promise<TChartResult>;
}

const STEP = 60;
const START = 1_700_000_000;

/** A deterministic random walk, so every case draws the same kind of data. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function makeBars(count: number) {
  const next = random(count);
  const candles: CandlestickData<UTCTimestamp>[] = [];
  const volumes: HistogramData<UTCTimestamp>[] = [];
  let close = 1.085;
  for (let i = 0; i < count; i++) {
    const time = (START + i * STEP) as UTCTimestamp;
    const open = close;
    close = Math.max(0.5, open + (next() - 0.5) * 0.002);
    const high = Math.max(open, close) + next() * 0.0005;
    const low = Math.min(open, close) - next() * 0.0005;
    candles.push({ time, open, high, low, close });
    volumes.push({
      time,
      value: Math.round(100 + next() * 900),
      color: close >= open ? '#26a69a80' : '#ef535080',
    });
  }
  return { candles, volumes };
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

function newChart(container: HTMLElement) {
  const chart = createChart(container, { width: 1200, height: 600 });
  const candles = chart.addSeries(CandlestickSeries, {});
  const volumes = chart.addSeries(HistogramSeries, { priceScaleId: '', priceFormat: { type: 'volume' } });
  volumes.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  return { chart, candles, volumes };
}

async function run(input: TChartCase): Promise<TChartResult> {
  const container = document.getElementById('chart')!;
  const data = makeBars(input.bars);
  const result: TChartResult = {
    setData: [],
    setDataToFrame: [],
    updateSync: [],
    updateToFrame: [],
    frame: [],
    newBars: 0,
    visibleBars: 0,
    updates: 0,
  };
  let chart: IChartApi | null = null;
  let candles: ISeriesApi<'Candlestick'> | null = null;
  let volumes: ISeriesApi<'Histogram'> | null = null;
  for (let r = 0; r < input.setDataRuns; r++) {
    chart?.remove();
    ({ chart, candles, volumes } = newChart(container));
    await nextFrame();
    await nextFrame();
    const t0 = performance.now();
    candles.setData(data.candles);
    volumes.setData(data.volumes);
    if (input.fitContent) chart.timeScale().fitContent();
    const t1 = performance.now();
    await nextFrame();
    const t2 = performance.now();
    result.setData.push(t1 - t0);
    result.setDataToFrame.push(t2 - t0);
  }
  await nextFrame();
  const range = chart!.timeScale().getVisibleLogicalRange();
  result.visibleBars = range ? Math.round(range.to - range.from) : 0;

  const next = random(7);
  const last = data.candles.at(-1)!;
  let bar: CandlestickData<UTCTimestamp> = { ...last };
  let volume = 500;
  const started = performance.now();
  for (let i = 0; i < input.updates && performance.now() - started < input.maxUpdateMs; i++) {
    if (i % 5 === 4) {
      // A new bar every fifth update, the others move the last bar's close.
      bar = {
        time: (bar.time + STEP) as UTCTimestamp,
        open: bar.close,
        high: bar.close,
        low: bar.close,
        close: bar.close,
      };
      volume = 0;
      result.newBars++;
    }
    const close = bar.close + (next() - 0.5) * 0.0004;
    bar = { ...bar, close, high: Math.max(bar.high, close), low: Math.min(bar.low, close) };
    volume += Math.round(1 + next() * 20);
    const t0 = performance.now();
    candles!.update(bar);
    volumes!.update({ time: bar.time, value: volume, color: close >= bar.open ? '#26a69a80' : '#ef535080' });
    const t1 = performance.now();
    const frameStart = await nextFrame();
    const t2 = performance.now();
    result.updateSync.push(t1 - t0);
    result.updateToFrame.push(t2 - t0);
    result.frame.push(t2 - Math.max(frameStart, t1));
    result.updates++;
  }
  chart?.remove();
  return result;
}

const bench: TChartBench = { run };
(window as unknown as { chartBench: TChartBench }).chartBench = bench;

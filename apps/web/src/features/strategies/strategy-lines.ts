import type { TStrategySpecRequest, TWorstCase } from '@broker/contracts/strategy-routes';
import type { TTranslate } from '@broker/i18n/translator';
import type { TLegendItem, TLevelLine, TLineKind } from './LevelsChart';
import type { TStrategy } from './strategy-api';
import { fromPoints, toPoints } from './strategy-form';

/**
 * The lines a bot draws over its symbol's candles (LevelsChart), and their legend: in the create form
 * from the inputs, the server's levels and the worst case; on a bot's page from what it runs. Pure:
 * prices stay the strings they came as; only a martingale's first take-profit is computed here, exactly
 * on integers, as the engine does (docs/strategies.md).
 */

export interface TChartPlan {
  lines: TLevelLine[];
  legend: TLegendItem[];
}

type TFormat = (price: string) => string;

/** A percentage ("0.5") of a price moved up or down, rounded away from the price (up: ceiling). */
export function movedBy(price: string, percent: string, digits: number, up: boolean): string {
  const points = toPoints(price, digits);
  const bp = toPoints(percent, 2);
  const scaled = points * (10_000n + (up ? bp : -bp));
  const whole = scaled / 10_000n;
  const rest = scaled % 10_000n;
  return fromPoints(up && rest !== 0n ? whole + 1n : whole, digits);
}

function add(
  plan: TChartPlan,
  kind: TLineKind,
  price: string | null | undefined,
  title: string,
  label = title,
) {
  if (!price) return;
  plan.lines.push({ id: `${kind}-${plan.lines.length}`, kind, price, title });
  plan.legend.push({ kind, label, value: price });
}

/** A grid's levels: the edges labelled, the ones between as thin lines, in the legend as one entry. */
function gridLevels(plan: TChartPlan, levels: readonly string[], t: TTranslate, format: TFormat) {
  const first = levels[0];
  const last = levels[levels.length - 1];
  if (!first || !last) return;
  levels.forEach((price, i) => {
    const edge = i === 0 || i === levels.length - 1;
    plan.lines.push({
      id: `level-${i}`,
      kind: edge ? 'edge' : 'level',
      price,
      title: edge ? t(i === 0 ? 'strategy.chart.lower' : 'strategy.chart.upper') : '',
    });
  });
  plan.legend.push({
    kind: 'edge',
    label: t('strategy.chart.levels', { count: levels.length }),
    value: `${format(first)} – ${format(last)}`,
  });
}

/** A martingale's first order and adds: entry, "Add 1", "Add 2" ... */
function martingaleLevels(plan: TChartPlan, levels: readonly string[], t: TTranslate, format: TFormat) {
  const [first, ...adds] = levels;
  if (!first) return;
  plan.lines.push({ id: 'entry', kind: 'entry', price: first, title: t('strategy.chart.entry') });
  plan.legend.push({ kind: 'entry', label: t('strategy.chart.entry'), value: format(first) });
  adds.forEach((price, i) => {
    plan.lines.push({ id: `add-${i + 1}`, kind: 'add', price, title: t('strategy.chart.add', { n: i + 1 }) });
  });
  const lastAdd = adds[adds.length - 1];
  if (lastAdd)
    plan.legend.push({
      kind: 'add',
      label: t('strategy.chart.adds', { count: adds.length }),
      value: `${format(adds[0] as string)} – ${format(lastAdd)}`,
    });
}

function finish(plan: TChartPlan, format: TFormat): TChartPlan {
  // Single lines' legend values in the reader's format (the grouped ones are formatted already).
  for (const item of plan.legend) if (/^\d+(\.\d+)?$/.test(item.value)) item.value = format(item.value);
  return plan;
}

/**
 * The create form's chart: the levels the server answered (or the range's edges while it has not),
 * the trigger, the bot's take-profit and stop-loss prices, and the worst case's margin call and stop-out.
 */
export function previewPlan({
  spec,
  levels,
  worstCase,
  digits,
  t,
  format,
}: {
  spec: TStrategySpecRequest | null;
  levels: readonly string[] | null;
  worstCase: TWorstCase | null;
  digits: number;
  t: TTranslate;
  format: TFormat;
}): TChartPlan {
  const plan: TChartPlan = { lines: [], legend: [] };
  if (!spec) return plan;
  if (spec.kind === 'grid') {
    const p = spec.params;
    gridLevels(plan, levels && levels.length > 1 ? levels : [p.lowerPrice, p.upperPrice], t, format);
    add(plan, 'trigger', p.triggerPrice, t('strategy.chart.trigger'));
    add(plan, 'takeProfit', p.takeProfitPrice, t('strategy.chart.takeProfit'));
    add(plan, 'stopLoss', p.stopLossPrice, t('strategy.chart.stopLoss'));
  } else {
    const p = spec.params;
    if (levels && levels.length > 0) {
      martingaleLevels(plan, levels, t, format);
      const first = levels[0] as string;
      // The first round's take-profit, from its first order (it moves with the average as adds fill).
      add(
        plan,
        'takeProfit',
        movedBy(first, p.takeProfitPercent, digits, p.direction === 'long'),
        t('strategy.chart.takeProfit'),
      );
      if (p.stopLossPercent)
        add(
          plan,
          'stopLoss',
          movedBy(first, p.stopLossPercent, digits, p.direction !== 'long'),
          t('strategy.chart.stopLoss'),
        );
    }
    add(plan, 'trigger', p.triggerPrice, t('strategy.chart.trigger'));
  }
  add(plan, 'marginCall', worstCase?.marginCallPrice, t('strategy.chart.marginCall'));
  add(plan, 'stopOut', worstCase?.stopOutPrice, t('strategy.chart.stopOut'));
  return finish(plan, format);
}

/** A bot's chart: its levels (a martingale's open round with its average and take-profit) and its exits. */
export function botPlan(strategy: TStrategy, t: TTranslate, format: TFormat, digits: number): TChartPlan {
  const plan: TChartPlan = { lines: [], legend: [] };
  const spec = strategy.params;
  const working = strategy.state !== 'stopped_closed';
  if (spec.kind === 'grid') {
    const p = spec.params;
    gridLevels(plan, strategy.levels.length > 1 ? strategy.levels : [p.lowerPrice, p.upperPrice], t, format);
    if (strategy.state === 'waiting') add(plan, 'trigger', p.triggerPrice, t('strategy.chart.trigger'));
    add(plan, 'takeProfit', p.takeProfitPrice, t('strategy.chart.takeProfit'));
    add(plan, 'stopLoss', p.stopLossPrice, t('strategy.chart.stopLoss'));
  } else {
    const p = spec.params;
    if (working) martingaleLevels(plan, strategy.levels, t, format);
    const round = strategy.round;
    if (working && round?.averagePrice && round.adds > 0)
      add(plan, 'average', round.averagePrice, t('strategy.chart.average'));
    if (working) add(plan, 'takeProfit', round?.takeProfit, t('strategy.chart.takeProfit'));
    const first = strategy.levels[0];
    if (working && first && p.stopLossPercent)
      add(
        plan,
        'stopLoss',
        movedBy(first, p.stopLossPercent, digits, p.direction !== 'long'),
        t('strategy.chart.stopLoss'),
      );
    if (strategy.state === 'waiting') add(plan, 'trigger', p.triggerPrice, t('strategy.chart.trigger'));
  }
  return finish(plan, format);
}

import type { TRouteOutput } from '@broker/contracts/routes';
import { useMemo } from 'react';
import { useI18n } from '../../i18n';
import { CLOSE_REASON_LABELS } from '../../lib/close-reasons';
import { exactDecimalFormat } from '../../lib/exact-decimal';

export type TAdminBot = TRouteOutput<'adminstrategies'>['items'][number];
export type TBotState = TAdminBot['state'];
export type TBotKind = TAdminBot['kind'];
export type TBotLogEntry = TRouteOutput<'adminstrategydetail'>['log'][number];

/** The state segments, `working` first (the default: waiting, running, stopped with positions open). */
export const STATE_FILTERS = [
  'working',
  'waiting',
  'running',
  'stopped_open',
  'stopped_closed',
  'all',
] as const;
export type TStateFilter = (typeof STATE_FILTERS)[number];
export const KINDS = ['grid', 'martingale'] as const satisfies readonly TBotKind[];

/** Translation keys (literal, so the catalog test sees them) of the values the bot pages show. */
export const FILTER_LABELS: Record<TStateFilter, string> = {
  working: 'admin.strategies.filter.working',
  waiting: 'admin.strategies.state.waiting',
  running: 'admin.strategies.state.running',
  stopped_open: 'admin.strategies.state.stopped_open',
  stopped_closed: 'admin.strategies.state.stopped_closed',
  all: 'admin.strategies.filter.all',
};

export const STATE_TONES: Record<TBotState, string> = {
  waiting: 'kit-pill-warn',
  running: 'kit-pill-up',
  stopped_open: 'kit-pill-down',
  stopped_closed: '',
};

export const KIND_LABELS: Record<TBotKind, string> = {
  grid: 'admin.strategies.kind.grid',
  martingale: 'admin.strategies.kind.martingale',
};

export const DIRECTION_LABELS: Record<string, string> = {
  long: 'admin.strategies.direction.long',
  short: 'admin.strategies.direction.short',
  neutral: 'admin.strategies.direction.neutral',
};

export const SPACING_LABELS: Record<string, string> = {
  arithmetic: 'admin.strategies.spacing.arithmetic',
  geometric: 'admin.strategies.spacing.geometric',
};
export const OUT_OF_RANGE_LABELS: Record<string, string> = {
  keep: 'admin.strategies.outOfRange.keep',
  stop: 'admin.strategies.outOfRange.stop',
};
export const CYCLE_LABELS: Record<string, string> = {
  repeat: 'admin.strategies.cycle.repeat',
  stop: 'admin.strategies.cycle.stop',
};

/** Why a bot stopped (docs/strategies.md, "States and close reasons"). */
export const STOP_REASON_LABELS: Record<string, string> = {
  client: 'admin.strategies.stopReason.client',
  broker: 'admin.strategies.stopReason.broker',
  take_profit: 'admin.strategies.stopReason.take_profit',
  stop_loss: 'admin.strategies.stopReason.stop_loss',
  stop_out: 'admin.strategies.stopReason.stop_out',
  symbol_disabled: 'admin.strategies.stopReason.symbol_disabled',
  out_of_range: 'admin.strategies.stopReason.out_of_range',
  cycle_done: 'admin.strategies.stopReason.cycle_done',
  account_closed: 'admin.strategies.stopReason.account_closed',
};

/** What a bot's log says it did (docs/strategies.md, "Events"); an action not listed shows as written. */
export const LOG_ACTION_LABELS: Record<string, string> = {
  started: 'admin.strategies.log.started',
  waiting: 'admin.strategies.log.waiting',
  triggered: 'admin.strategies.log.triggered',
  order_placed: 'admin.strategies.log.order_placed',
  order_refused: 'admin.strategies.log.order_refused',
  order_cancelled: 'admin.strategies.log.order_cancelled',
  filled: 'admin.strategies.log.filled',
  position_closed: 'admin.strategies.log.position_closed',
  round_started: 'admin.strategies.log.round_started',
  add_placed: 'admin.strategies.log.add_placed',
  added: 'admin.strategies.log.added',
  take_profit_moved: 'admin.strategies.log.take_profit_moved',
  round_closed: 'admin.strategies.log.round_closed',
  trailed: 'admin.strategies.log.trailed',
  stopped: 'admin.strategies.log.stopped',
};

/**
 * A log entry's detail in words where the catalog has them: why it stopped, why a position closed,
 * the kind it started as, the round a martingale's round is, the side its trigger waits on. Null: show
 * the detail as sent (an order refusal's or cancellation's code).
 */
export function logDetail(
  entry: Pick<TBotLogEntry, 'action' | 'detail'>,
): { key: string; values?: Record<string, string> } | null {
  const { action, detail } = entry;
  if (detail === null) return null;
  const key =
    action === 'stopped'
      ? STOP_REASON_LABELS[detail]
      : action === 'position_closed'
        ? CLOSE_REASON_LABELS[Number(detail)]
        : action === 'started'
          ? KIND_LABELS[detail as TBotKind]
          : action === 'waiting'
            ? TRIGGER_SIDE_LABELS[detail]
            : undefined;
  if (key) return { key };
  if ((action === 'round_started' || action === 'round_closed') && /^\d+$/.test(detail))
    return { key: 'admin.strategies.log.round', values: { round: detail } };
  return null;
}

/** A waiting bot's trigger: the bid must rise to it or fall to it. */
const TRIGGER_SIDE_LABELS: Record<string, string> = {
  above: 'admin.strategies.log.triggerAbove',
  below: 'admin.strategies.log.triggerBelow',
};

/**
 * The counts of the state segments from the server's (a state no bot is in may be left out: it
 * counts 0).
 */
export function stateCounts(counts: Record<string, number> | undefined): Record<string, number> | null {
  if (!counts) return null;
  return Object.fromEntries(STATE_FILTERS.map((state) => [state, counts[state] ?? 0]));
}

/** The contract's rule for a staff stop's reason (STRATEGY_STOP_REASON_MAX): required, 60 characters at most. */
export const STOP_REASON_MAX = 60;
export function stopReasonProblem(reason: string): 'required' | 'tooLong' | null {
  const text = reason.trim();
  if (text === '') return 'required';
  return text.length > STOP_REASON_MAX ? 'tooLong' : null;
}

/**
 * What stopping can do to a bot in its state, for a staff member holding `strategies.stop`: a working
 * bot stops closing its positions or keeping them; one stopped keeping them can still have them
 * closed; a stopped and closed bot has nothing left to stop.
 */
export type TStopChoice = 'close' | 'keep';
export function stopChoices(state: TBotState, can: (permission: string) => boolean): TStopChoice[] {
  if (!can('strategies.stop')) return [];
  if (state === 'waiting' || state === 'running') return ['close', 'keep'];
  return state === 'stopped_open' ? ['close'] : [];
}

/**
 * A bot's parameters as label and value pairs, in the order the create form asks for them; unset
 * optional ones are left out. `price` formats a price, `percent` a percentage.
 */
export function paramFacts(
  spec: TAdminBot['params'],
  words: {
    t: (key: string) => string;
    price: (value: string) => string;
    percent: (value: string) => string;
    lots: (value: string) => string;
    count: (value: number) => string;
  },
): [string, string][] {
  const { t, price, percent, lots, count } = words;
  const facts: [string, string | null | undefined][] =
    spec.kind === 'grid'
      ? [
          [
            'admin.strategies.param.range',
            `${price(spec.params.lowerPrice)} – ${price(spec.params.upperPrice)}`,
          ],
          ['admin.strategies.param.grids', count(spec.params.grids)],
          ['admin.strategies.param.spacing', t(SPACING_LABELS[spec.params.spacing] ?? spec.params.spacing)],
          ['admin.strategies.param.volumePerGrid', lots(spec.params.volumePerGrid)],
          [
            'admin.strategies.param.triggerPrice',
            spec.params.triggerPrice && price(spec.params.triggerPrice),
          ],
          [
            'admin.strategies.param.takeProfitPrice',
            spec.params.takeProfitPrice && price(spec.params.takeProfitPrice),
          ],
          [
            'admin.strategies.param.stopLossPrice',
            spec.params.stopLossPrice && price(spec.params.stopLossPrice),
          ],
          [
            'admin.strategies.param.takeProfitPercent',
            spec.params.takeProfitPercent && percent(spec.params.takeProfitPercent),
          ],
          [
            'admin.strategies.param.stopLossPercent',
            spec.params.stopLossPercent && percent(spec.params.stopLossPercent),
          ],
          [
            'admin.strategies.param.trailingUp',
            spec.params.trailingUp === undefined
              ? null
              : t(spec.params.trailingUp ? 'admin.strategies.yes' : 'admin.strategies.no'),
          ],
          [
            'admin.strategies.param.outOfRange',
            spec.params.outOfRange &&
              t(OUT_OF_RANGE_LABELS[spec.params.outOfRange] ?? spec.params.outOfRange),
          ],
        ]
      : [
          ['admin.strategies.param.firstVolume', lots(spec.params.firstVolume)],
          ['admin.strategies.param.stepPercent', percent(spec.params.stepPercent)],
          ['admin.strategies.param.multiplier', `× ${spec.params.multiplier}`],
          ['admin.strategies.param.maxAdds', count(spec.params.maxAdds)],
          ['admin.strategies.param.roundTakeProfit', percent(spec.params.takeProfitPercent)],
          [
            'admin.strategies.param.roundStopLoss',
            spec.params.stopLossPercent && percent(spec.params.stopLossPercent),
          ],
          [
            'admin.strategies.param.cycle',
            spec.params.cycle && t(CYCLE_LABELS[spec.params.cycle] ?? spec.params.cycle),
          ],
          [
            'admin.strategies.param.triggerPrice',
            spec.params.triggerPrice && price(spec.params.triggerPrice),
          ],
        ];
  return facts.flatMap(([key, value]) => (value ? [[t(key), value] as [string, string]] : []));
}

/** Sign of a decimal string: the tone of a figure (up for gains, down for losses). */
export function tone(text: string): string | undefined {
  if (/^-/.test(text) && /[1-9]/.test(text)) return 'kit-down';
  if (/[1-9]/.test(text)) return 'kit-up';
  return undefined;
}

/** Money, lots, prices, percentages, counts and dates in the current language; decimals kept exact. */
export function useBotFormat() {
  const { intl } = useI18n();
  return useMemo(() => {
    const asNumber = (text: string) => text as unknown as number;
    const plain = new Intl.NumberFormat(intl, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const signed = new Intl.NumberFormat(intl, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      signDisplay: 'exceptZero',
    });
    const whole = new Intl.NumberFormat(intl);
    const dateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'short' });
    const shortDateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'short', timeStyle: 'short' });
    const logTime = new Intl.DateTimeFormat(intl, { dateStyle: 'short', timeStyle: 'medium' });
    const exact = exactDecimalFormat(intl);
    return {
      /** Money with 2 decimals (the server sends 2). */
      amount: (value: string) => plain.format(asNumber(value)),
      signedAmount: (value: string) => signed.format(asNumber(value)),
      money: (value: string, currency: string) => `${plain.format(asNumber(value))} ${currency}`,
      signedMoney: (value: string, currency: string) => `${signed.format(asNumber(value))} ${currency}`,
      lots: (value: string) => plain.format(asNumber(value)),
      /** Every digit the server sent (a price in its symbol's digits, a multiplier). */
      price: exact,
      percent: (value: string) => `${exact(value)} %`,
      count: (value: number) => whole.format(value),
      dateTime: (value: string) => dateTime.format(new Date(value)),
      shortDateTime: (value: string) => shortDateTime.format(new Date(value)),
      logTime: (value: string) => logTime.format(new Date(value)),
    };
  }, [intl]);
}

export type TBotFormat = ReturnType<typeof useBotFormat>;

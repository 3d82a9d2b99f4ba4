import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { CloseOrKeep } from '../../components/CloseOrKeep';
import { ConfirmActions, Dialog } from '../../components/Dialog';
import { Figure, Signed } from '../../components/Figure';
import { Skeleton } from '../../components/LoadStates';
import { StatusBadge } from '../../components/StatusBadge';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { fromMinor, minorOf, moneyText, newIntentKey } from '../../lib/money';
import { percentText } from '../../lib/percent-text';
import { shownData, type TAsk, type TStrategy } from './strategy-api';
import { priceSlot, type TProblem } from './strategy-form';

/** How long a bot has run: days, hours and minutes through Intl's unit formats ("2 d 3 h"). */
export function runtimeText(intl: string, since: string | null, now: number): string {
  if (!since) return '—';
  const start = new Date(since).getTime();
  if (Number.isNaN(start)) return '—';
  const minutes = Math.max(0, Math.floor((now - start) / 60_000));
  const unit = (value: number, name: 'day' | 'hour' | 'minute') =>
    new Intl.NumberFormat(intl, { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(value);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${unit(days, 'day')} ${unit(hours, 'hour')}`;
  if (hours > 0) return `${unit(hours, 'hour')} ${unit(minutes % 60, 'minute')}`;
  return unit(minutes % 60, 'minute');
}

/** A field problem's text. */
export const problemText = (
  t: (key: string, values?: Record<string, string | number>) => string,
  problem?: TProblem,
) => (problem ? t(`strategy.problem.${problem.key}`, problem.values ?? {}) : null);

/**
 * A bot's whole result: its equity less its investment (grid profit, unrealised profit and fees
 * together), and that as a share of the investment in percent points ("12.34"), exactly in minor units.
 */
export function totalProfit(strategy: Pick<TStrategy, 'equity' | 'investment'>): {
  profit: string;
  returnPercent: string | null;
} {
  const investment = minorOf(strategy.investment);
  const profit = minorOf(strategy.equity) - investment;
  if (investment <= 0n) return { profit: fromMinor(profit), returnPercent: null };
  // basis points of the investment, rounded half away from zero, as "12.34"
  const bp = (profit * 20_000n + (profit < 0n ? -investment : investment)) / (2n * investment);
  return { profit: fromMinor(profit), returnPercent: fromMinor(bp) };
}

const STATE_TONE = {
  waiting: 'waiting',
  running: 'good',
  stopped_open: 'warning',
  stopped_closed: 'stopped',
} as const;

/** The bot's state (spec 4's four names) with an icon and a tone. */
export function StateBadge({ state }: { state: TStrategy['state'] }) {
  const { t } = useI18n();
  return (
    <StatusBadge tone={STATE_TONE[state]} testId="strategy-state" state={state}>
      {t(`strategy.state.${state}`)}
    </StatusBadge>
  );
}

/** Whether the bot still works (it may be stopped), and whether it holds positions it was stopped with. */
export const isWorking = (strategy: TStrategy) =>
  strategy.state === 'running' || strategy.state === 'waiting';

/**
 * A set of radio choices shown as a segmented switch, with its legend over it or, for a switch whose
 * meaning its place says (a period over a chart), read by screen readers only.
 */
export function Choice<T extends string | number>({
  legend,
  value,
  options,
  onChange,
  testId,
  legendHidden = false,
}: {
  legend: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange(value: T): void;
  testId?: string;
  legendHidden?: boolean;
}) {
  const name = useId();
  return (
    <fieldset className="sb-choice" data-testid={testId}>
      <legend className={legendHidden ? 'sr-only' : 'field-label'}>{legend}</legend>
      <div className="sb-segments">
        {options.map((option) => (
          <label key={option.value} className="sb-segment">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A compact segmented switch whose legend only screen readers read. */
export function Segments<T extends string | number>(props: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange(value: T): void;
  testId?: string;
}) {
  return (
    <Choice
      legend={props.label}
      value={props.value}
      options={props.options}
      onChange={props.onChange}
      legendHidden
      {...(props.testId ? { testId: props.testId } : {})}
    />
  );
}

/**
 * Stops a bot: closing its positions (reason 6) or keeping them, with one idempotency key per choice
 * kept for the retries of a lost answer; then shows what came back. A bot stopped with its positions
 * kept only offers to close them (reason 6), which gives the money back.
 */
export function StopDialog({
  strategy,
  onClose,
  onDone,
}: {
  strategy: TStrategy;
  onClose(): void;
  onDone(): void;
}) {
  const { t, lang, intl } = useI18n();
  const kept = strategy.state === 'stopped_open';
  const [closePositions, setClosePositions] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ returned: string; strategy: TStrategy } | null>(null);
  const attempt = useRef<{ intent: boolean; key: string } | null>(null);

  const stop = async () => {
    const close = kept || closePositions;
    if (attempt.current?.intent !== close) attempt.current = { intent: close, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'strategystop',
      { strategy_id: strategy.strategy_id, closePositions: close, idempotencyKey: attempt.current.key },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      attempt.current = null;
      setResult({ returned: answer.Data.returned, strategy: answer.Data.strategy });
      return;
    }
    // A refusal is final for this key; a lost answer (code 0) is retried with the same key.
    if (answer.code !== 0) attempt.current = null;
    setError(failureText(answer, t));
  };

  if (result)
    return (
      <Dialog
        title={t('strategy.stop.doneTitle')}
        onClose={onDone}
        testId="stop-dialog"
        footer={
          <button type="button" className="btn btn-primary" onClick={onDone} data-testid="stop-ok">
            {t('common.ok')}
          </button>
        }
      >
        <dl className="ui-figures sb-figures-2" data-testid="stop-result">
          <Figure label={t('strategy.field.state')}>
            <StateBadge state={result.strategy.state} />
          </Figure>
          <Figure label={t('strategy.stop.returned')} testId="stop-returned">
            {moneyText(intl, result.returned, result.strategy.currency)}
          </Figure>
          <Figure label={t('strategy.field.realized')}>
            <Signed value={result.strategy.realizedProfit}>
              {moneyText(intl, result.strategy.realizedProfit, result.strategy.currency, true)}
            </Signed>
          </Figure>
          <Figure label={t('strategy.field.positions')}>
            {new Intl.NumberFormat(intl).format(result.strategy.openPositions)}
          </Figure>
        </dl>
        <p className="ui-hint">
          {t(result.strategy.openPositions > 0 ? 'strategy.stop.doneKept' : 'strategy.stop.doneClosed')}
        </p>
      </Dialog>
    );

  return (
    <Dialog
      title={t(kept ? 'strategy.closeKept.title' : 'strategy.stop.title', { id: strategy.strategy_id })}
      onClose={onClose}
      busy={busy}
      testId="stop-dialog"
      footer={
        <ConfirmActions
          cancel={t('strategy.action.cancel')}
          confirm={t(kept ? 'strategy.closeKept.confirm' : 'strategy.stop.confirm')}
          onCancel={onClose}
          onConfirm={() => void stop()}
          busy={busy}
          danger
          testId="stop-confirm"
        />
      }
    >
      {kept ? (
        <p className="sb-muted">{t('strategy.closeKept.text', { count: strategy.openPositions })}</p>
      ) : (
        <>
          <p className="sb-muted">{t('strategy.stop.text')}</p>
          <CloseOrKeep
            legend={t('strategy.stop.positions')}
            name="sb-stop"
            closePositions={closePositions}
            onChange={setClosePositions}
            close={{ title: t('strategy.stop.close'), hint: t('strategy.stop.closeHint') }}
            keep={{ title: t('strategy.stop.keep'), hint: t('strategy.stop.keepHint') }}
          />
        </>
      )}
      {error && (
        <div className="alert alert-error" role="alert" data-testid="stop-error">
          {error}
        </div>
      )}
    </Dialog>
  );
}

/** A numbered step's heading in the create form. */
export function StepTitle({ id, step, children }: { id: string; step: number; children: ReactNode }) {
  return (
    <h2 id={id} className="sb-step">
      <span className="sb-step-number" aria-hidden="true">
        {step}
      </span>
      {children}
    </h2>
  );
}

/**
 * A card answering for the form's inputs (the worst case, the backtest): what to do while there is
 * nothing to ask, the failure in words, placeholders on the first answer's way, then the answer (dimmed
 * while the next one comes).
 */
export function AskPanel<T>({
  id,
  step,
  title,
  aside,
  state,
  idle,
  className,
  testId,
  children,
}: {
  id: string;
  step: number;
  title: string;
  aside?: ReactNode;
  state: TAsk<T>;
  idle: string;
  className: string;
  testId: string;
  children(data: T): ReactNode;
}) {
  const data = shownData(state);
  return (
    <section
      className={`card ui-section sb-panel ${className}`}
      aria-labelledby={id}
      aria-busy={state.status === 'loading'}
      data-testid={testId}
      data-state={state.status}
    >
      <div className="sb-panel-head">
        <StepTitle id={id} step={step}>
          {title}
        </StepTitle>
        {aside}
      </div>
      {state.status === 'idle' && <p className="sb-muted">{idle}</p>}
      {state.status === 'failed' && (
        <p className="sb-danger" role="alert" data-testid={`${testId}-error`}>
          {state.message}
        </p>
      )}
      {state.status === 'loading' && !data && <Skeleton rows={2} height={44} />}
      {data && (
        <div className="sb-panel-body" data-stale={state.status === 'loading' ? 'true' : undefined}>
          {children(data)}
        </div>
      )}
    </section>
  );
}

/** The button that stops a working bot, or closes what a stopped one kept; nothing for a closed bot. */
export function StopButton({ strategy, onStop }: { strategy: TStrategy; onStop(): void }) {
  const { t } = useI18n();
  const kept = strategy.state === 'stopped_open';
  if (!isWorking(strategy) && !kept) return null;
  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm sb-danger"
      onClick={onStop}
      data-testid={kept ? 'strategy-close-kept' : 'strategy-stop'}
    >
      {t(kept ? 'strategy.action.closeKept' : 'strategy.action.stop')}
    </button>
  );
}

/**
 * The levels as a compact ladder, highest on top, with today's price marked between the two levels
 * it lies between. Positions come from exact comparisons of the strings; nothing is computed.
 */
export function LevelsLadder({
  levels,
  price,
  testId = 'levels',
}: {
  levels: readonly string[];
  price: string | null;
  testId?: string;
}) {
  const { t, intl } = useI18n();
  if (levels.length === 0) return <p className="sb-muted sb-small">{t('strategy.levels.none')}</p>;
  const slot = price ? priceSlot(levels, price) : -1;
  // Long lists keep both ends and the levels around today's price.
  const keep = new Set<number>();
  const shown = levels.length <= 14;
  levels.forEach((_, i) => {
    if (shown || i < 3 || i >= levels.length - 3 || Math.abs(i - slot) <= 3) keep.add(i);
  });
  const rows: ReactNode[] = [];
  const marker = (
    <li key="price" className="sb-ladder-price" data-testid={`${testId}-price`}>
      <span>{t('strategy.levels.price')}</span>
      <span className="num">{price ? formatDecimal(intl, price) : ''}</span>
    </li>
  );
  for (let i = levels.length - 1; i >= 0; i--) {
    if (slot === i + 1) rows.push(marker);
    if (keep.has(i)) {
      rows.push(
        <li key={i} className="sb-ladder-level">
          <span className="sb-muted">{t('strategy.levels.level', { n: i + 1 })}</span>
          <span className="num">{formatDecimal(intl, levels[i] as string)}</span>
        </li>,
      );
    } else if (keep.has(i + 1)) {
      rows.push(
        <li key={`gap-${i}`} className="sb-ladder-gap" aria-hidden="true">
          ⋯
        </li>,
      );
    }
  }
  if (slot === 0) rows.push(marker);
  return (
    <div className="sb-ladder-wrap">
      <p className="sb-muted sb-small">{t('strategy.levels.count', { count: levels.length })}</p>
      <ol className="sb-ladder" data-testid={testId} aria-label={t('strategy.levels.title')}>
        {rows}
      </ol>
    </div>
  );
}

/** A bot's parameters as labelled rows, in the reader's language. */
export function ParamsList({ strategy }: { strategy: TStrategy }) {
  const { t, intl } = useI18n();
  const spec = strategy.params;
  const price = (value: string | null | undefined) => (value ? formatDecimal(intl, value) : '—');
  const percent = (value: string | null | undefined) => (value ? percentText(intl, value) : '—');
  const lots = (value: string) => `${formatDecimal(intl, value, 2)} ${t('strategy.unit.lots')}`;
  const rows: [string, string][] =
    spec.kind === 'grid'
      ? [
          [t('strategy.field.direction'), t(`strategy.direction.${spec.params.direction}`)],
          [t('strategy.field.range'), `${price(spec.params.lowerPrice)} – ${price(spec.params.upperPrice)}`],
          [t('strategy.field.grids'), new Intl.NumberFormat(intl).format(spec.params.grids)],
          [t('strategy.field.spacing'), t(`strategy.spacing.${spec.params.spacing}`)],
          [t('strategy.field.volumePerGrid'), lots(spec.params.volumePerGrid)],
          [t('strategy.field.trigger'), price(spec.params.triggerPrice)],
          [
            t('strategy.field.takeProfit'),
            spec.params.takeProfitPrice
              ? price(spec.params.takeProfitPrice)
              : percent(spec.params.takeProfitPercent),
          ],
          [
            t('strategy.field.stopLoss'),
            spec.params.stopLossPrice
              ? price(spec.params.stopLossPrice)
              : percent(spec.params.stopLossPercent),
          ],
          [t('strategy.field.trailingUp'), t(spec.params.trailingUp ? 'strategy.yes' : 'strategy.no')],
          [t('strategy.field.outOfRange'), t(`strategy.outOfRange.${spec.params.outOfRange ?? 'keep'}`)],
        ]
      : [
          [t('strategy.field.direction'), t(`strategy.direction.${spec.params.direction}`)],
          [t('strategy.field.firstVolume'), lots(spec.params.firstVolume)],
          [t('strategy.field.step'), percent(spec.params.stepPercent)],
          [t('strategy.field.multiplier'), `${formatDecimal(intl, spec.params.multiplier)}×`],
          [t('strategy.field.maxAdds'), new Intl.NumberFormat(intl).format(spec.params.maxAdds)],
          [t('strategy.field.takeProfit'), percent(spec.params.takeProfitPercent)],
          [t('strategy.field.stopLoss'), percent(spec.params.stopLossPercent)],
          [t('strategy.field.cycle'), t(`strategy.cycle.${spec.params.cycle ?? 'repeat'}`)],
          [t('strategy.field.trigger'), price(spec.params.triggerPrice)],
        ];
  return (
    <dl className="ui-figures sb-params" data-testid="strategy-params">
      {rows.map(([label, value]) => (
        <Figure key={label} label={label}>
          {value}
        </Figure>
      ))}
    </dl>
  );
}

/**
 * A bot's figures: its whole profit and return first, then the grid profit, unrealised profit,
 * investment, equity, trades, what it holds, margin and runtime.
 */
export function StrategyFigures({ strategy, now }: { strategy: TStrategy; now: number }) {
  const { t, intl } = useI18n();
  const count = (value: number) => new Intl.NumberFormat(intl).format(value);
  const money = (value: string, sign = false) => moneyText(intl, value, strategy.currency, sign);
  const total = totalProfit(strategy);
  return (
    <div className="sb-bot-figures">
      <div className="sb-total">
        <span className="sb-total-label">{t('strategy.field.total')}</span>
        <span className="sb-total-value">
          <Signed value={total.profit} testId="strategy-total">
            {money(total.profit, true)}
          </Signed>
        </span>
        {total.returnPercent !== null && (
          <span className="sb-total-return">
            <Signed value={total.returnPercent} testId="strategy-return">
              {percentText(intl, total.returnPercent, { sign: true })}
            </Signed>
          </span>
        )}
      </div>
      <dl className="ui-figures sb-figures-bot">
        <Figure label={t('strategy.field.realized')}>
          <Signed value={strategy.realizedProfit} testId="strategy-realized">
            {money(strategy.realizedProfit, true)}
          </Signed>
        </Figure>
        <Figure label={t('strategy.field.unrealized')}>
          <Signed value={strategy.unrealizedProfit} testId="strategy-unrealized">
            {money(strategy.unrealizedProfit, true)}
          </Signed>
        </Figure>
        <Figure label={t('strategy.field.investment')} testId="strategy-investment">
          {money(strategy.investment)}
        </Figure>
        <Figure label={t('strategy.field.margin')} testId="strategy-margin">
          {money(strategy.margin)}
        </Figure>
        <Figure label={t('strategy.field.trades')} testId="strategy-trades">
          {count(strategy.closedTrades)}
        </Figure>
        <Figure label={t('strategy.field.holding')} testId="strategy-holding">
          {t('strategy.holding', { positions: strategy.openPositions, orders: strategy.openOrders })}
        </Figure>
        {strategy.round && (
          <Figure label={t('strategy.field.round')} testId="strategy-round">
            {t('strategy.round.value', { number: strategy.round.number, adds: strategy.round.adds })}
          </Figure>
        )}
        {isWorking(strategy) && (
          <Figure label={t('strategy.field.runtime')} testId="strategy-runtime">
            {runtimeText(intl, strategy.startedAt ?? strategy.createdAt, now)}
          </Figure>
        )}
      </dl>
    </div>
  );
}

/** The clock a runtime is measured against, moving once a minute. */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

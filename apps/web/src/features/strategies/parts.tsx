import { type ReactNode, useEffect, useRef, useState } from 'react';
import { CloseOrKeep } from '../../components/CloseOrKeep';
import { Dialog } from '../../components/Dialog';
import { Figure, Signed } from '../../components/Figure';
import { StatusBadge } from '../../components/StatusBadge';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { moneyText, newIntentKey } from '../../lib/money';
import type { TStrategy } from './strategy-api';
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

/** A set of radio choices shown as a segmented switch. */
export function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  testId,
}: {
  legend: string;
  name: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange(value: T): void;
  testId?: string;
}) {
  return (
    <fieldset className="sb-choice" data-testid={testId}>
      <legend className="field-label">{legend}</legend>
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

/**
 * Stops a bot: closing its positions (reason 6) or keeping them, with one idempotency key per choice
 * kept for the retries of a lost answer; then shows what came back.
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
  const [closePositions, setClosePositions] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ returned: string; strategy: TStrategy } | null>(null);
  const attempt = useRef<{ intent: boolean; key: string } | null>(null);

  const stop = async () => {
    if (attempt.current?.intent !== closePositions)
      attempt.current = { intent: closePositions, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'strategystop',
      { strategy_id: strategy.strategy_id, closePositions, idempotencyKey: attempt.current.key },
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
        <dl className="ui-figures" data-testid="stop-result">
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
      title={t('strategy.stop.title', { id: strategy.strategy_id })}
      onClose={onClose}
      busy={busy}
      testId="stop-dialog"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            {t('strategy.action.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary ui-btn-danger"
            onClick={() => void stop()}
            disabled={busy}
            data-testid="stop-confirm"
          >
            {busy && <span className="spinner ui-spinner" />}
            {t('strategy.stop.confirm')}
          </button>
        </>
      }
    >
      <p className="sb-muted">{t('strategy.stop.text')}</p>
      <CloseOrKeep
        legend={t('strategy.stop.positions')}
        name="sb-stop"
        closePositions={closePositions}
        onChange={setClosePositions}
        close={{ title: t('strategy.stop.close'), hint: t('strategy.stop.closeHint') }}
        keep={{ title: t('strategy.stop.keep'), hint: t('strategy.stop.keepHint') }}
      />
      {error && (
        <div className="alert alert-error" role="alert" data-testid="stop-error">
          {error}
        </div>
      )}
    </Dialog>
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
  const percent = (value: string | null | undefined) =>
    value
      ? new Intl.NumberFormat(intl, { style: 'percent', maximumFractionDigits: 2 }).format(
          `${value}E-2` as `${number}`,
        )
      : '—';
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
    <dl className="ui-figures" data-testid="strategy-params">
      {rows.map(([label, value]) => (
        <Figure key={label} label={label}>
          {value}
        </Figure>
      ))}
    </dl>
  );
}

/** A bot's figures: investment, equity, profits, trades, what it holds, margin, runtime. */
export function StrategyFigures({ strategy, now }: { strategy: TStrategy; now: number }) {
  const { t, intl } = useI18n();
  const count = (value: number) => new Intl.NumberFormat(intl).format(value);
  const money = (value: string, sign = false) => moneyText(intl, value, strategy.currency, sign);
  return (
    <dl className="ui-figures sb-figures-bot">
      <Figure label={t('strategy.field.investment')} testId="strategy-investment">
        {money(strategy.investment)}
      </Figure>
      <Figure label={t('strategy.field.equity')} testId="strategy-equity">
        {money(strategy.equity)}
      </Figure>
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
      <Figure label={t('strategy.field.trades')} testId="strategy-trades">
        {count(strategy.closedTrades)}
      </Figure>
      <Figure label={t('strategy.field.holding')} testId="strategy-holding">
        {t('strategy.holding', { positions: strategy.openPositions, orders: strategy.openOrders })}
      </Figure>
      <Figure label={t('strategy.field.margin')} testId="strategy-margin">
        {money(strategy.margin)}
      </Figure>
      <Figure label={t('strategy.field.runtime')} testId="strategy-runtime">
        {runtimeText(intl, strategy.startedAt ?? strategy.createdAt, now)}
      </Figure>
    </dl>
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

import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal } from '../../lib/market-format';
import { formatAmount, newIntentKey } from '../../lib/money';
import type { TStrategy } from './strategy-api';
import { priceSlot, type TProblem } from './strategy-form';

/** Money with its currency; `sign` shows + on a gain. */
export const moneyText = (intl: string, value: string, currency: string, sign = false) =>
  formatAmount(intl, value, currency, { sign });

/** A moment from the server as a date and time in the reader's language. */
export function dateTimeText(intl: string, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

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

/** A figure whose colour follows its sign, with the sign written out for who cannot see colour. */
export function Signed({ value, children, testId }: { value: string; children: ReactNode; testId?: string }) {
  return (
    <span className={`num sb-signed ${changeClass(value)}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** A term and its value in a figures grid (a labelled row on a phone). */
export function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="sb-figure">
      <dt>{label}</dt>
      <dd className="num" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const STATE_TONE = {
  waiting: 'waiting',
  running: 'good',
  stopped_open: 'warning',
  stopped_closed: 'stopped',
} as const;
const STATE_ICON = { waiting: 'clock', good: 'check', warning: 'alert', stopped: 'close' } as const;

/** The bot's state (spec 4's four names) with an icon and a tone. */
export function StateBadge({ state }: { state: TStrategy['state'] }) {
  const { t } = useI18n();
  const tone = STATE_TONE[state];
  return (
    <span className="sb-state" data-tone={tone} data-testid="strategy-state" data-state={state}>
      <Icon name={STATE_ICON[tone]} size={14} />
      {t(`strategy.state.${state}`)}
    </span>
  );
}

/** The inline failure of a read with a retry button. */
export function LoadError({
  message,
  onRetry,
  testId,
}: {
  message: string;
  onRetry(): void;
  testId?: string;
}) {
  const { t } = useI18n();
  return (
    <div className="card sb-inline-error" role="alert" data-testid={testId}>
      <Icon name="alert" size={18} />
      <span>{message}</span>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** Placeholder blocks while a page's first read runs. */
export function Skeleton({
  rows = 3,
  height = 64,
  testId,
}: {
  rows?: number;
  height?: number;
  testId?: string;
}) {
  return (
    <div className="sb-skeleton" aria-busy="true" data-testid={testId}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ height }} />
      ))}
    </div>
  );
}

/** A text field with its label, hint and problem (announced and tied to the input). */
export function TextField({
  label,
  value,
  onChange,
  hint,
  problem,
  suffix,
  inputMode = 'decimal',
  name,
  testId,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  hint?: string | null;
  problem?: string | null;
  suffix?: string;
  inputMode?: 'decimal' | 'numeric' | 'text';
  name: string;
  testId?: string;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field sb-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="sb-input-wrap">
        <input
          id={id}
          name={name}
          className="input"
          value={value}
          inputMode={inputMode}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={described || undefined}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
        />
        {suffix && (
          <span className="sb-suffix" aria-hidden="true">
            {suffix}
          </span>
        )}
      </div>
      {hint && (
        <span className="sb-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {problem && (
        <span className="field-error" id={`${id}-error`} data-testid={testId ? `${testId}-error` : undefined}>
          {problem}
        </span>
      )}
    </div>
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

/** A modal dialog (native: focus trapped and returned, Escape closes unless an action runs). */
export function Dialog({
  title,
  children,
  footer,
  busy = false,
  onClose,
  testId,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  busy?: boolean;
  onClose(): void;
  testId: string;
}) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="sb-dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <div className="sb-dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={onClose}
          disabled={busy}
          aria-label={t('common.close')}
        >
          <Icon name="close" size={18} />
        </button>
      </div>
      <div className="sb-dialog-body">{children}</div>
      {footer && <div className="sb-dialog-actions">{footer}</div>}
    </dialog>
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
        <dl className="sb-figures" data-testid="stop-result">
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
        <p className="sb-hint">
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
            className="btn btn-primary sb-btn-danger"
            onClick={() => void stop()}
            disabled={busy}
            data-testid="stop-confirm"
          >
            {busy && <span className="spinner sb-spinner" />}
            {t('strategy.stop.confirm')}
          </button>
        </>
      }
    >
      <p className="sb-muted">{t('strategy.stop.text')}</p>
      <fieldset className="sb-fieldset">
        <legend className="sr-only">{t('strategy.stop.positions')}</legend>
        <label className="sb-radio">
          <input
            type="radio"
            name="sb-stop"
            checked={closePositions}
            onChange={() => setClosePositions(true)}
            data-testid="stop-close"
          />
          <span>
            <strong>{t('strategy.stop.close')}</strong>
            <span className="sb-hint">{t('strategy.stop.closeHint')}</span>
          </span>
        </label>
        <label className="sb-radio">
          <input
            type="radio"
            name="sb-stop"
            checked={!closePositions}
            onChange={() => setClosePositions(false)}
            data-testid="stop-keep"
          />
          <span>
            <strong>{t('strategy.stop.keep')}</strong>
            <span className="sb-hint">{t('strategy.stop.keepHint')}</span>
          </span>
        </label>
      </fieldset>
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
    <dl className="sb-figures" data-testid="strategy-params">
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
    <dl className="sb-figures sb-figures-bot">
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

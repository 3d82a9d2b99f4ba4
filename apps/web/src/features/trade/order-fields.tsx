import { MAX_TRAILING_POINTS } from '@broker/domain/trading/orders';
import { type ReactNode, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { numberFormat } from '../../lib/intl-cache';
import { formatDecimal } from '../../lib/market-format';
import { PriceInput, useNumbers, useStopMessage } from './fields';
import {
  pointsText,
  pricePoints,
  type TOrderKind,
  type TSide,
  type TStop,
  trailedStopPrice,
  trailingDistance,
} from './ticket-rules';

/** A price field's text, its change and what is wrong with it (else a hint). */
export interface TPriceField {
  value: string;
  onChange(value: string): void;
  error: string | null;
  hint?: ReactNode;
  /** Set for a field holding a price: it then shows how the text was understood. */
  digits?: number;
}

/**
 * The take-profit and stop-loss of a dialog, typed as prices (empty for none) and checked against
 * `reference` for the side of `side`. `take_profit` and `stop_loss` are what to send: a price, null
 * for none, undefined while the text is not a price.
 */
export function useStopPrices({
  initial,
  side,
  reference,
  digits,
}: {
  initial: { take_profit: string | null; stop_loss: string | null };
  side: TSide;
  reference: bigint | null;
  digits: number;
}) {
  const stopMessage = useStopMessage();
  const numbers = useNumbers();
  const [takeProfit, setTakeProfit] = useState(() => numbers.input(initial.take_profit ?? ''));
  const [stopLoss, setStopLoss] = useState(() => numbers.input(initial.stop_loss ?? ''));
  /** A typed price as the wire's string with the symbol's digits; null for none (empty). */
  const priceOrNull = (text: string): string | null | undefined => {
    if (text.trim() === '') return null;
    const value = numbers.read(text);
    const points = value === null ? null : pricePoints(value, digits);
    return points === null ? undefined : pointsText(points, digits);
  };
  const level = (text: string, onChange: (value: string) => void, stop: TStop) => {
    const price = priceOrNull(text);
    const error =
      numbers.ambiguity(text) ??
      stopMessage({
        side,
        stop,
        price: price ? pricePoints(price, digits) : null,
        typed: text.trim() !== '',
        reference,
        digits,
      });
    return { price, field: { value: text, onChange, error, digits } };
  };
  const tp = level(takeProfit, setTakeProfit, 'takeProfit');
  const sl = level(stopLoss, setStopLoss, 'stopLoss');
  return {
    takeProfit: tp.field,
    stopLoss: sl.field,
    take_profit: tp.price,
    stop_loss: sl.price,
    invalid: tp.price === undefined || sl.price === undefined || Boolean(tp.field.error || sl.field.error),
  };
}

/** The take-profit and stop-loss inputs (`<testId>-tp`, `<testId>-sl`), each with a clear button. */
export function StopInputs({
  testId,
  takeProfit,
  stopLoss,
}: {
  testId: string;
  takeProfit: TPriceField;
  stopLoss: TPriceField;
}) {
  const { t } = useI18n();
  const stops = [
    { key: 'tp', label: t('trade.ticket.takeProfit'), field: takeProfit },
    { key: 'sl', label: t('trade.ticket.stopLoss'), field: stopLoss },
  ];
  return stops.map(({ key, label, field }) => (
    <PriceInput
      key={key}
      label={label}
      value={field.value}
      onChange={field.onChange}
      placeholder={t('trade.stops.none')}
      error={field.error}
      hint={field.hint}
      digits={field.digits}
      testId={`${testId}-${key}`}
      onClear={() => field.onChange('')}
    />
  ));
}

/**
 * A pending order's price inputs (`<testId>-price`, `<testId>-limit`): its price (the stop price of
 * a stop-limit) and, for a stop-limit, the limit price.
 */
export function PendingPriceInputs({
  testId,
  kind,
  price,
  limitPrice,
}: {
  testId: string;
  kind: Exclude<TOrderKind, 'market'>;
  price: TPriceField;
  limitPrice: TPriceField;
}) {
  const { t } = useI18n();
  return (
    <>
      <PriceInput
        label={t(kind === 'stop_limit' ? 'trade.ticket.stopPrice' : 'trade.ticket.price')}
        value={price.value}
        onChange={price.onChange}
        error={price.error}
        hint={price.hint}
        digits={price.digits}
        testId={`${testId}-price`}
      />
      {kind === 'stop_limit' && (
        <PriceInput
          label={t('trade.ticket.limitPrice')}
          value={limitPrice.value}
          onChange={limitPrice.onChange}
          error={limitPrice.error}
          hint={limitPrice.hint}
          digits={limitPrice.digits}
          testId={`${testId}-limit`}
        />
      )}
    </>
  );
}

/**
 * A trailing stop distance typed in whole points (empty or 0 for none), checked against the symbol's
 * stops level and the engine's maximum, with the stop-loss it would set at the current quote as its
 * hint. `trailing_stop` is what to send: the points, null for none, undefined while not valid.
 */
export function useTrailingStop({
  initial,
  side,
  bid,
  ask,
  digits,
  stopsLevel,
}: {
  initial: number | null;
  side: TSide;
  bid: bigint | null;
  ask: bigint | null;
  digits: number;
  stopsLevel: number | undefined;
}) {
  const { t, intl } = useI18n();
  const numbers = useNumbers();
  const [text, setText] = useState(() => (initial ? numbers.input(String(initial)) : ''));
  const typed = text.trim() !== '';
  const points = trailingDistance(typed ? numbers.read(text) : null, typed, stopsLevel);
  const whole = (value: number | bigint) => numberFormat(intl).format(value);
  const error =
    numbers.ambiguity(text) ??
    (points === undefined
      ? t('trade.trailing.range', {
          min: whole(Math.max(1, stopsLevel ?? 0)),
          max: whole(MAX_TRAILING_POINTS),
        })
      : null);
  const hint =
    points && bid !== null && ask !== null
      ? t('trade.trailing.hint', {
          points: whole(points),
          price: formatDecimal(intl, pointsText(trailedStopPrice(side, bid, ask, points), digits), digits),
        })
      : null;
  return {
    field: { value: text, onChange: setText, error, hint } satisfies TPriceField,
    trailing_stop: points === undefined ? undefined : points === null ? null : Number(points),
    invalid: points === undefined || error !== null,
    reset: () => setText(''),
  };
}

/** The trailing stop input (`<testId>-trailing`), in points, with a clear button. */
export function TrailingInput({ testId, field }: { testId: string; field: TPriceField }) {
  const { t } = useI18n();
  return (
    <PriceInput
      label={t('trade.trailing.label')}
      value={field.value}
      onChange={field.onChange}
      placeholder={t('trade.trailing.none')}
      error={field.error}
      hint={field.hint}
      testId={`${testId}-trailing`}
      onClear={() => field.onChange('')}
    />
  );
}

import { type ReactNode, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { PriceInput, useNumbers, useStopMessage } from './fields';
import { pointsText, pricePoints, type TOrderKind, type TSide, type TStop } from './ticket-rules';

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

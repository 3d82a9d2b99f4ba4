import { type ReactNode, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal } from '../../lib/market-format';
import type { TQuote } from '../../lib/market-stream';
import { type TPendingOrder, type TPosition, useTrading } from '../../lib/trading/store';
import { Dialog } from './Dialog';
import { toUnits } from './decimal';
import { Figure, useNumbers, useVolumeMessage, VolumeStepper } from './fields';
import { orderTypeKey, useToasts } from './notifications';
import {
  PendingPriceInputs,
  StopInputs,
  TrailingInput,
  useStopPrices,
  useTrailingStop,
} from './order-fields';
import {
  LOT_DECIMALS,
  lotsText,
  partProfit,
  pendingProblem,
  pointsText,
  pricePoints,
  remainingVolume,
  type TOrderKind,
  type TSide,
  type TVolumeSpec,
  volumeProblem,
} from './ticket-rules';
import type { TActionResult } from './useTradeActions';
import { useSubmitLock, useTradeActions } from './useTradeActions';

/** A dialog's action: sent once per click however fast the clicks come (see useSubmitLock). */
function useSubmit() {
  const lock = useSubmitLock();
  const [error, setError] = useState<string | null>(null);
  const run = async <T,>(action: () => Promise<TActionResult<T>>, done: (data: T) => void) => {
    const result = await lock.run(() => {
      setError(null);
      return action();
    });
    if (!result) return;
    if (result.ok) done(result.data);
    else setError(result.message);
  };
  return { busy: lock.busy, locked: lock.locked, error, run };
}

/** The position as the account's last refresh has it (profit moves), else as it was opened with. */
function useLivePosition(position: TPosition): TPosition {
  const { positions } = useTrading();
  return positions.find((p) => p.order_id === position.order_id) ?? position;
}

function closingPrice(position: TPosition, quote: TQuote | undefined): string {
  if (!quote) return position.current_price;
  return position.side === 'buy' ? quote.bid : quote.ask;
}

/** "Buy 0.10 BTCUSDT · #123": a position's or an order's side (or type), volume, symbol and ticket. */
function TicketTitle({
  side,
  label,
  volume,
  symbol,
  ticket,
}: {
  side: TSide;
  label: string;
  volume: string;
  symbol: string;
  ticket: number;
}) {
  const { intl } = useI18n();
  return (
    <>
      <span className={`tr-side-tag tr-side-${side}`}>{label}</span>{' '}
      <span className="num">{formatDecimal(intl, volume)}</span> {symbol} · #{ticket}
    </>
  );
}

/**
 * A dialog that runs one action: Cancel and the confirm button in the footer (a spinner while the
 * action runs), and the action's error under `children`.
 */
function ActionDialog({
  title,
  subtitle,
  testId,
  submit,
  onClose,
  confirm,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  testId: string;
  submit: { busy: boolean; locked?: boolean; error: string | null };
  onClose(): void;
  confirm: {
    label: ReactNode;
    className: string;
    disabled?: boolean;
    onClick(): void;
    testId: string;
    autofocus?: boolean;
  };
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Dialog
      title={title}
      subtitle={subtitle}
      onClose={onClose}
      busy={submit.busy}
      testId={testId}
      footer={
        <>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClose} disabled={submit.busy}>
            {t('trade.action.cancel')}
          </button>
          <button
            type="button"
            className={confirm.className}
            disabled={submit.busy || submit.locked || confirm.disabled}
            onClick={confirm.onClick}
            data-testid={confirm.testId}
            data-autofocus={confirm.autofocus || undefined}
          >
            {submit.busy ? <span className="spinner tr-spinner" /> : confirm.label}
          </button>
        </>
      }
    >
      {children}
      {submit.error && (
        <p className="alert alert-error" role="alert" data-testid="dialog-error">
          {submit.error}
        </p>
      )}
    </Dialog>
  );
}

/**
 * An action on a position: its side, volume, symbol and ticket under the title, then its open price,
 * the price it would close at now (under `currentLabel`) and its profit above `children`.
 */
function PositionDialog({
  position: opened,
  quote,
  currentLabel,
  part,
  children,
  ...dialog
}: Omit<Parameters<typeof ActionDialog>[0], 'subtitle'> & {
  position: TPosition;
  quote: TQuote | undefined;
  currentLabel: string;
  /** Lots being closed when less than the whole position: the profit shown is theirs. */
  part?: string | null;
}) {
  const { t, intl } = useI18n();
  const position = useLivePosition(opened);
  const price = (value: string) => formatDecimal(intl, value, position.digits);
  const partial = part ? partProfit(position.profit, position.volume, part) : null;
  const profit = partial ?? position.profit;
  return (
    <ActionDialog
      {...dialog}
      subtitle={
        <TicketTitle
          side={position.side}
          label={t(`trade.side.${position.side}`)}
          volume={position.volume}
          symbol={position.symbol}
          ticket={position.order_id}
        />
      }
    >
      <dl className="tr-dialog-figures">
        <Figure label={t('trade.col.openPrice')}>{price(position.open_price)}</Figure>
        <Figure label={currentLabel}>{price(closingPrice(position, quote))}</Figure>
        <Figure
          label={
            partial !== null && part
              ? t('trade.close.partProfit', { volume: formatDecimal(intl, part) })
              : t('trade.col.profit')
          }
          tone={changeClass(profit)}
          testId="dialog-profit"
          value={profit}
        >
          {formatDecimal(intl, profit, 2, { sign: true })}
        </Figure>
      </dl>
      {children}
    </ActionDialog>
  );
}

/** Sets, moves or removes a position's take-profit, stop-loss and trailing stop. */
export function PositionStopsDialog({
  position: opened,
  quote,
  stopsLevel,
  onClose,
}: {
  position: TPosition;
  quote: TQuote | undefined;
  /** The symbol's stops level in points: the least trailing distance. */
  stopsLevel: number | undefined;
  onClose(): void;
}) {
  const { t } = useI18n();
  const position = useLivePosition(opened);
  const actions = useTradeActions();
  const { push } = useToasts();
  const submit = useSubmit();
  const stops = useStopPrices({
    initial: position,
    side: position.side,
    reference: pricePoints(closingPrice(position, quote), position.digits),
    digits: position.digits,
  });
  const trailing = useTrailingStop({
    initial: position.trailing_stop,
    side: position.side,
    bid: quote ? pricePoints(quote.bid, position.digits) : null,
    ask: quote ? pricePoints(quote.ask, position.digits) : null,
    digits: position.digits,
    stopsLevel,
  });
  // A trailing stop may move the stop-loss while the dialog is open: left as it was, the field
  // stands for the live level, so saving another change never pulls the stop-loss back.
  const [openedStopLoss] = useState(position.stop_loss ?? null);
  const stopLoss = stops.stop_loss === openedStopLoss ? (position.stop_loss ?? null) : stops.stop_loss;
  const unchanged =
    stops.take_profit === (position.take_profit ?? null) &&
    stopLoss === (position.stop_loss ?? null) &&
    trailing.trailing_stop === (position.trailing_stop ?? null);

  const save = () =>
    submit.run(
      () =>
        actions.modifyPosition({
          order_id: position.order_id,
          take_profit: stops.take_profit ?? null,
          stop_loss: stopLoss ?? null,
          trailing_stop: trailing.trailing_stop ?? null,
        }),
      () => {
        push({
          tone: 'success',
          kind: 'modified',
          title: t('trade.stops.saved'),
          text: `#${position.order_id}`,
        });
        onClose();
      },
    );

  return (
    <PositionDialog
      title={t('trade.stops.title')}
      testId="stops-dialog"
      position={position}
      quote={quote}
      currentLabel={t('trade.col.currentPrice')}
      submit={submit}
      onClose={onClose}
      confirm={{
        label: t('trade.action.save'),
        className: 'btn btn-primary btn-sm',
        disabled: stops.invalid || trailing.invalid || unchanged,
        onClick: save,
        testId: 'stops-save',
      }}
    >
      <StopInputs testId="stops" takeProfit={stops.takeProfit} stopLoss={stops.stopLoss} />
      <TrailingInput testId="stops" field={trailing.field} />
    </PositionDialog>
  );
}

/** Closes a position at the market, fully or in part. */
export function ClosePositionDialog({
  position,
  quote,
  spec,
  onClose,
}: {
  position: TPosition;
  quote: TQuote | undefined;
  spec: TVolumeSpec | undefined;
  onClose(): void;
}) {
  const { t, intl } = useI18n();
  const actions = useTradeActions();
  const volumeMessage = useVolumeMessage();
  const numbers = useNumbers();
  const [volume, setVolume] = useState(() => numbers.input(position.volume));
  const submit = useSubmit();
  const grid: TVolumeSpec = {
    minVolume: spec?.minVolume ?? '0.01',
    volumeStep: spec?.volumeStep ?? '0.01',
    maxVolume: position.volume,
  };
  const volumeValue = numbers.read(volume);
  const rest = remainingVolume(position.volume, volumeValue);
  const restProblem = rest !== null && toUnits(rest, LOT_DECIMALS) !== 0n ? volumeProblem(rest, grid) : null;
  const problem = volumeProblem(volumeValue, grid) ?? (restProblem ? 'step' : null);
  const lots = lotsText(volumeValue);
  const full = lots !== null && toUnits(lots, LOT_DECIMALS) === toUnits(position.volume, LOT_DECIMALS);

  const close = () =>
    submit.run(
      () =>
        actions.closePosition({
          order_id: position.order_id,
          ...(full || !lots ? {} : { volume: lots }),
        }),
      () => onClose(),
    );

  return (
    <PositionDialog
      title={t('trade.close.title')}
      testId="close-dialog"
      position={position}
      quote={quote}
      currentLabel={t('trade.close.at')}
      part={!full && !problem ? lots : null}
      submit={submit}
      onClose={onClose}
      confirm={{
        label: full
          ? t('trade.close.full')
          : t('trade.close.partial', { volume: lots ? formatDecimal(intl, lots) : '' }),
        className: 'btn btn-sm tr-btn-danger',
        disabled: problem !== null,
        onClick: close,
        testId: 'close-confirm',
      }}
    >
      <VolumeStepper
        value={volume}
        onChange={setVolume}
        spec={grid}
        label={t('trade.close.volume')}
        error={
          restProblem
            ? t('trade.close.restInvalid', { min: formatDecimal(intl, grid.minVolume) })
            : volumeMessage(volumeProblem(volumeValue, grid), grid, volume)
        }
        testId="close-volume"
        showLimits={false}
      />
      {!full && rest && !problem && (
        <p className="tr-hint num">{t('trade.close.remaining', { volume: formatDecimal(intl, rest) })}</p>
      )}
    </PositionDialog>
  );
}

const kindOfType = (type: TPendingOrder['type']): Exclude<TOrderKind, 'market'> =>
  type.endsWith('stop_limit') ? 'stop_limit' : type.endsWith('limit') ? 'limit' : 'stop';

/** Moves a pending order's price (and limit price), take-profit and stop-loss. */
export function OrderModifyDialog({
  order,
  quote,
  onClose,
}: {
  order: TPendingOrder;
  quote: TQuote | undefined;
  onClose(): void;
}) {
  const { t, intl } = useI18n();
  const actions = useTradeActions();
  const { push } = useToasts();
  const side = order.type.startsWith('buy') ? 'buy' : 'sell';
  const kind = kindOfType(order.type);
  const digits = order.digits;
  const numbers = useNumbers();
  const [price, setPrice] = useState(() => numbers.input(order.price));
  const [limitPrice, setLimitPrice] = useState(() => numbers.input(order.limit_price ?? ''));
  const submit = useSubmit();

  const typedPoints = (text: string): bigint | null => {
    const value = numbers.read(text);
    return value === null ? null : pricePoints(value, digits);
  };
  const pricePts = typedPoints(price);
  const limitPts = kind === 'stop_limit' ? typedPoints(limitPrice) : null;
  const bid = quote ? pricePoints(quote.bid, digits) : null;
  const ask = quote ? pricePoints(quote.ask, digits) : null;
  let priceError: string | null = null;
  if (pricePts === null) priceError = numbers.ambiguity(price) ?? t('trade.price.format');
  else if (kind === 'stop_limit' && limitPts === null) priceError = null;
  else if (bid !== null && ask !== null && !(kind === 'stop_limit' && order.activated)) {
    const problem = pendingProblem({ side, kind, price: pricePts, limitPrice: limitPts, bid, ask });
    if (problem === 'side') priceError = t(`trade.priceSide.${order.type}`);
  }
  const limitError =
    kind !== 'stop_limit'
      ? null
      : limitPts === null
        ? (numbers.ambiguity(limitPrice) ?? t('trade.price.format'))
        : pricePts !== null && (side === 'buy' ? limitPts > pricePts : limitPts < pricePts)
          ? t(`trade.limitSide.${side}`)
          : null;
  const stops = useStopPrices({
    initial: order,
    side,
    reference: kind === 'stop_limit' ? limitPts : pricePts,
    digits,
  });
  const invalid = Boolean(priceError || limitError) || stops.invalid;

  const save = () => {
    if (pricePts === null) return;
    return submit.run(
      () =>
        actions.modifyOrder({
          order_id: order.order_id,
          price: pointsText(pricePts, digits),
          limit_price: limitPts === null ? null : pointsText(limitPts, digits),
          take_profit: stops.take_profit ?? null,
          stop_loss: stops.stop_loss ?? null,
        }),
      () => {
        push({
          tone: 'success',
          kind: 'modified',
          title: t('trade.order.saved'),
          text: `#${order.order_id}`,
        });
        onClose();
      },
    );
  };

  const market = quote ? formatDecimal(intl, side === 'buy' ? quote.ask : quote.bid, digits) : '—';
  return (
    <ActionDialog
      title={t('trade.order.modifyTitle')}
      subtitle={
        <TicketTitle
          side={side}
          label={t(orderTypeKey(order.type))}
          volume={order.volume}
          symbol={order.symbol}
          ticket={order.order_id}
        />
      }
      testId="order-dialog"
      submit={submit}
      onClose={onClose}
      confirm={{
        label: t('trade.action.save'),
        className: 'btn btn-primary btn-sm',
        disabled: invalid,
        onClick: save,
        testId: 'order-save',
      }}
    >
      <PendingPriceInputs
        testId="order"
        kind={kind}
        price={{
          value: price,
          onChange: setPrice,
          error: priceError,
          hint: t('trade.ticket.market', { price: market }),
          digits,
        }}
        limitPrice={{ value: limitPrice, onChange: setLimitPrice, error: limitError, digits }}
      />
      <StopInputs testId="order" takeProfit={stops.takeProfit} stopLoss={stops.stopLoss} />
    </ActionDialog>
  );
}

/** Asks before an action that cannot be undone (close all, a dragged level, a demo reset). */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  danger = false,
  onConfirm,
  onClose,
  testId = 'confirm-dialog',
}: {
  title: string;
  text: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm(): Promise<TActionResult<unknown>>;
  onClose(): void;
  testId?: string;
}) {
  const submit = useSubmit();
  return (
    <ActionDialog
      title={title}
      testId={testId}
      submit={submit}
      onClose={onClose}
      confirm={{
        label: confirmLabel,
        className: `btn btn-sm ${danger ? 'tr-btn-danger' : 'btn-primary'}`,
        onClick: () => submit.run(onConfirm, () => onClose()),
        testId: 'confirm-ok',
        autofocus: true,
      }}
    >
      <div className="tr-confirm-text">{text}</div>
    </ActionDialog>
  );
}

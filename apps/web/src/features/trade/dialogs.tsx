import { type ReactNode, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal } from '../../lib/market-format';
import type { TQuote } from '../../lib/market-stream';
import type { TPendingOrder, TPosition } from '../../lib/trading/store';
import { Dialog } from './Dialog';
import { toUnits } from './decimal';
import { Figure, PriceInput, useStopMessage, useVolumeMessage, VolumeStepper } from './fields';
import { orderTypeKey, useToasts } from './notifications';
import {
  LOT_DECIMALS,
  lotsText,
  pendingProblem,
  pointsText,
  pricePoints,
  remainingVolume,
  type TOrderKind,
  type TVolumeSpec,
  volumeProblem,
} from './ticket-rules';
import type { TActionResult } from './useTradeActions';
import { useTradeActions } from './useTradeActions';

function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async <T,>(action: () => Promise<TActionResult<T>>, done: (data: T) => void) => {
    setBusy(true);
    setError(null);
    const result = await action();
    setBusy(false);
    if (result.ok) done(result.data);
    else setError(result.message);
  };
  return { busy, error, run };
}

/** A price typed in a dialog as the wire's string with the symbol's digits; '' means none. */
function priceOrNull(text: string, digits: number): string | null | undefined {
  if (text.trim() === '') return null;
  const points = pricePoints(text, digits);
  return points === null ? undefined : pointsText(points, digits);
}

function closingPrice(position: TPosition, quote: TQuote | undefined): string {
  if (!quote) return position.current_price;
  return position.side === 'buy' ? quote.bid : quote.ask;
}

export function PositionTitle({ position }: { position: TPosition }) {
  const { t, intl } = useI18n();
  return (
    <>
      <span className={`tr-side-tag tr-side-${position.side}`}>{t(`trade.side.${position.side}`)}</span>{' '}
      <span className="num">{formatDecimal(intl, position.volume)}</span> {position.symbol} · #
      {position.order_id}
    </>
  );
}

/** Sets, moves or removes a position's take-profit and stop-loss. */
export function PositionStopsDialog({
  position,
  quote,
  onClose,
}: {
  position: TPosition;
  quote: TQuote | undefined;
  onClose(): void;
}) {
  const { t, intl } = useI18n();
  const actions = useTradeActions();
  const { push } = useToasts();
  const stopMessage = useStopMessage();
  const [takeProfit, setTakeProfit] = useState(position.take_profit ?? '');
  const [stopLoss, setStopLoss] = useState(position.stop_loss ?? '');
  const submit = useSubmit();
  const digits = position.digits;
  const current = closingPrice(position, quote);
  const reference = pricePoints(current, digits);
  const tp = priceOrNull(takeProfit, digits);
  const sl = priceOrNull(stopLoss, digits);
  const tpError = stopMessage({
    side: position.side,
    stop: 'takeProfit',
    price: tp ? pricePoints(tp, digits) : null,
    typed: takeProfit.trim() !== '',
    reference,
    digits,
  });
  const slError = stopMessage({
    side: position.side,
    stop: 'stopLoss',
    price: sl ? pricePoints(sl, digits) : null,
    typed: stopLoss.trim() !== '',
    reference,
    digits,
  });
  const unchanged = tp === (position.take_profit ?? null) && sl === (position.stop_loss ?? null);
  const invalid = tp === undefined || sl === undefined || Boolean(tpError || slError);
  const price = (v: string) => formatDecimal(intl, v, digits);

  const save = () =>
    submit.run(
      () =>
        actions.modifyPosition({
          order_id: position.order_id,
          take_profit: tp ?? null,
          stop_loss: sl ?? null,
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
    <Dialog
      title={t('trade.stops.title')}
      subtitle={<PositionTitle position={position} />}
      onClose={onClose}
      busy={submit.busy}
      testId="stops-dialog"
      footer={
        <>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClose} disabled={submit.busy}>
            {t('trade.action.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={submit.busy || invalid || unchanged}
            onClick={save}
            data-testid="stops-save"
          >
            {submit.busy ? <span className="spinner tr-spinner" /> : t('trade.action.save')}
          </button>
        </>
      }
    >
      <dl className="tr-dialog-figures">
        <Figure label={t('trade.col.openPrice')}>{price(position.open_price)}</Figure>
        <Figure label={t('trade.col.currentPrice')}>{price(current)}</Figure>
        <Figure label={t('trade.col.profit')} tone={changeClass(position.profit)}>
          {formatDecimal(intl, position.profit, 2, { sign: true })}
        </Figure>
      </dl>
      <PriceInput
        label={t('trade.ticket.takeProfit')}
        value={takeProfit}
        onChange={setTakeProfit}
        placeholder={t('trade.stops.none')}
        error={tpError}
        testId="stops-tp"
        onClear={() => setTakeProfit('')}
      />
      <PriceInput
        label={t('trade.ticket.stopLoss')}
        value={stopLoss}
        onChange={setStopLoss}
        placeholder={t('trade.stops.none')}
        error={slError}
        testId="stops-sl"
        onClear={() => setStopLoss('')}
      />
      {submit.error && (
        <p className="alert alert-error" role="alert" data-testid="dialog-error">
          {submit.error}
        </p>
      )}
    </Dialog>
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
  const [volume, setVolume] = useState(position.volume);
  const submit = useSubmit();
  const grid: TVolumeSpec = {
    minVolume: spec?.minVolume ?? '0.01',
    volumeStep: spec?.volumeStep ?? '0.01',
    maxVolume: position.volume,
  };
  const rest = remainingVolume(position.volume, volume);
  const restProblem = rest !== null && toUnits(rest, LOT_DECIMALS) !== 0n ? volumeProblem(rest, grid) : null;
  const problem = volumeProblem(volume, grid) ?? (restProblem ? 'step' : null);
  const lots = lotsText(volume);
  const full = lots !== null && toUnits(lots, LOT_DECIMALS) === toUnits(position.volume, LOT_DECIMALS);
  const current = closingPrice(position, quote);

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
    <Dialog
      title={t('trade.close.title')}
      subtitle={<PositionTitle position={position} />}
      onClose={onClose}
      busy={submit.busy}
      testId="close-dialog"
      footer={
        <>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClose} disabled={submit.busy}>
            {t('trade.action.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-sm tr-btn-danger"
            disabled={submit.busy || problem !== null}
            onClick={close}
            data-testid="close-confirm"
          >
            {submit.busy ? (
              <span className="spinner tr-spinner" />
            ) : full ? (
              t('trade.close.full')
            ) : (
              t('trade.close.partial', { volume: lots ? formatDecimal(intl, lots) : '' })
            )}
          </button>
        </>
      }
    >
      <dl className="tr-dialog-figures">
        <Figure label={t('trade.col.openPrice')}>
          {formatDecimal(intl, position.open_price, position.digits)}
        </Figure>
        <Figure label={t('trade.close.at')}>{formatDecimal(intl, current, position.digits)}</Figure>
        <Figure label={t('trade.col.profit')} tone={changeClass(position.profit)}>
          {formatDecimal(intl, position.profit, 2, { sign: true })}
        </Figure>
      </dl>
      <VolumeStepper
        value={volume}
        onChange={setVolume}
        spec={grid}
        label={t('trade.close.volume')}
        error={
          restProblem
            ? t('trade.close.restInvalid', { min: formatDecimal(intl, grid.minVolume) })
            : volumeMessage(volumeProblem(volume, grid), grid)
        }
        testId="close-volume"
        showLimits={false}
      />
      {!full && rest && !problem && (
        <p className="tr-hint num">{t('trade.close.remaining', { volume: formatDecimal(intl, rest) })}</p>
      )}
      {submit.error && (
        <p className="alert alert-error" role="alert" data-testid="dialog-error">
          {submit.error}
        </p>
      )}
    </Dialog>
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
  const stopMessage = useStopMessage();
  const side = order.type.startsWith('buy') ? 'buy' : 'sell';
  const kind = kindOfType(order.type);
  const digits = order.digits;
  const [price, setPrice] = useState(order.price);
  const [limitPrice, setLimitPrice] = useState(order.limit_price ?? '');
  const [takeProfit, setTakeProfit] = useState(order.take_profit ?? '');
  const [stopLoss, setStopLoss] = useState(order.stop_loss ?? '');
  const submit = useSubmit();

  const pricePts = pricePoints(price, digits);
  const limitPts = kind === 'stop_limit' ? pricePoints(limitPrice, digits) : null;
  const bid = quote ? pricePoints(quote.bid, digits) : null;
  const ask = quote ? pricePoints(quote.ask, digits) : null;
  let priceError: string | null = null;
  if (pricePts === null) priceError = t('trade.price.format');
  else if (kind === 'stop_limit' && limitPts === null) priceError = null;
  else if (bid !== null && ask !== null && !(kind === 'stop_limit' && order.activated)) {
    const problem = pendingProblem({ side, kind, price: pricePts, limitPrice: limitPts, bid, ask });
    if (problem === 'side') priceError = t(`trade.priceSide.${order.type}`);
  }
  const limitError =
    kind !== 'stop_limit'
      ? null
      : limitPts === null
        ? t('trade.price.format')
        : pricePts !== null && (side === 'buy' ? limitPts > pricePts : limitPts < pricePts)
          ? t(`trade.limitSide.${side}`)
          : null;
  const entry = kind === 'stop_limit' ? limitPts : pricePts;
  const tp = priceOrNull(takeProfit, digits);
  const sl = priceOrNull(stopLoss, digits);
  const tpError = stopMessage({
    side,
    stop: 'takeProfit',
    price: tp ? pricePoints(tp, digits) : null,
    typed: takeProfit.trim() !== '',
    reference: entry,
    digits,
  });
  const slError = stopMessage({
    side,
    stop: 'stopLoss',
    price: sl ? pricePoints(sl, digits) : null,
    typed: stopLoss.trim() !== '',
    reference: entry,
    digits,
  });
  const invalid =
    Boolean(priceError || limitError || tpError || slError) || tp === undefined || sl === undefined;

  const save = () => {
    if (pricePts === null) return;
    return submit.run(
      () =>
        actions.modifyOrder({
          order_id: order.order_id,
          price: pointsText(pricePts, digits),
          limit_price: limitPts === null ? null : pointsText(limitPts, digits),
          take_profit: tp ?? null,
          stop_loss: sl ?? null,
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
    <Dialog
      title={t('trade.order.modifyTitle')}
      subtitle={
        <>
          <span className={`tr-side-tag tr-side-${side}`}>{t(orderTypeKey(order.type))}</span>{' '}
          <span className="num">{formatDecimal(intl, order.volume)}</span> {order.symbol} · #{order.order_id}
        </>
      }
      onClose={onClose}
      busy={submit.busy}
      testId="order-dialog"
      footer={
        <>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClose} disabled={submit.busy}>
            {t('trade.action.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={submit.busy || invalid}
            onClick={save}
            data-testid="order-save"
          >
            {submit.busy ? <span className="spinner tr-spinner" /> : t('trade.action.save')}
          </button>
        </>
      }
    >
      <PriceInput
        label={t(kind === 'stop_limit' ? 'trade.ticket.stopPrice' : 'trade.ticket.price')}
        value={price}
        onChange={setPrice}
        error={priceError}
        hint={t('trade.ticket.market', { price: market })}
        testId="order-price"
      />
      {kind === 'stop_limit' && (
        <PriceInput
          label={t('trade.ticket.limitPrice')}
          value={limitPrice}
          onChange={setLimitPrice}
          error={limitError}
          testId="order-limit"
        />
      )}
      <PriceInput
        label={t('trade.ticket.takeProfit')}
        value={takeProfit}
        onChange={setTakeProfit}
        placeholder={t('trade.stops.none')}
        error={tpError}
        testId="order-tp"
        onClear={() => setTakeProfit('')}
      />
      <PriceInput
        label={t('trade.ticket.stopLoss')}
        value={stopLoss}
        onChange={setStopLoss}
        placeholder={t('trade.stops.none')}
        error={slError}
        testId="order-sl"
        onClear={() => setStopLoss('')}
      />
      {submit.error && (
        <p className="alert alert-error" role="alert" data-testid="dialog-error">
          {submit.error}
        </p>
      )}
    </Dialog>
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
  const { t } = useI18n();
  const submit = useSubmit();
  return (
    <Dialog
      title={title}
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
            className={`btn btn-sm ${danger ? 'tr-btn-danger' : 'btn-primary'}`}
            disabled={submit.busy}
            onClick={() => submit.run(onConfirm, () => onClose())}
            data-testid="confirm-ok"
            data-autofocus
          >
            {submit.busy ? <span className="spinner tr-spinner" /> : confirmLabel}
          </button>
        </>
      }
    >
      <div className="tr-confirm-text">{text}</div>
      {submit.error && (
        <p className="alert alert-error" role="alert" data-testid="dialog-error">
          {submit.error}
        </p>
      )}
    </Dialog>
  );
}

import { type FormEvent, useEffect, useState } from 'react';
import { callRoute } from '../../lib/api';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import type { TQuote } from '../../lib/market-stream';
import { useTrading } from '../../lib/trading/store';
import { toUnits } from './decimal';
import { Figure, useNumbers, useStopMessage, useVolumeMessage, VolumeStepper } from './fields';
import { PendingPriceInputs, StopInputs, TrailingInput, useTrailingStop } from './order-fields';
import {
  distancePoints,
  entryPoints,
  lotsText,
  ORDER_KINDS,
  pendingProblem,
  pendingType,
  pointsText,
  pricePoints,
  stopFromDistance,
  stopsReference,
  type TOrderKind,
  type TSide,
  type TStop,
  volumeProblem,
} from './ticket-rules';
import { useSubmitLock, useTradeActions } from './useTradeActions';
import type { TSymbolSpec } from './useTradeData';

type TStopMode = 'price' | 'points';
type TResult =
  | { kind: 'done'; ticket: number; as: 'position' | 'order'; side: TSide; volume: string; symbol: string }
  | { kind: 'failed'; message: string };

interface TPreview {
  key: string;
  margin: string;
  commission: string;
  currency: string;
}

const PREVIEW_DEBOUNCE_MS = 300;
const PREVIEW_REFRESH_MS = 5000;
/** A refusal under the ticket is about one attempt: it goes after this long. */
const ERROR_SHOWN_MS = 10_000;

/**
 * Where a new pending order's price starts: one spread beyond the market on the side where that
 * order type is allowed (a buy limit under the bid, a buy stop over the ask, ...).
 */
function pendingStart(
  side: TSide,
  kind: TOrderKind,
  bid: string,
  ask: string,
  digits: number,
): string | null {
  const b = pricePoints(bid, digits);
  const a = pricePoints(ask, digits);
  if (b === null || a === null) return null;
  const spread = a - b > 0n ? a - b : 1n;
  const below = kind === 'limit' ? side === 'buy' : side === 'sell';
  const start = below ? b - spread : a + spread;
  return start > 0n ? pointsText(start, digits) : null;
}

/** "Buy", "Buy limit", "Sell stop limit": the submit button's order name. */
function orderName(t: (key: string) => string, side: TSide, kind: TOrderKind) {
  return kind === 'market' ? t(`trade.side.${side}`) : t(`trade.orderType.${pendingType(side, kind)}`);
}

/**
 * The order ticket: market, limit, stop and stop-limit orders with volume on the symbol's grid,
 * take-profit and stop-loss as prices or distances in points, the margin and commission the order
 * needs (from the server) beside the usable margin, and the ticket number of the result.
 */
export function OrderTicket({
  symbol,
  spec,
  quote,
  preset,
}: {
  symbol: string;
  spec: TSymbolSpec | undefined;
  quote: TQuote | undefined;
  /** A side chosen elsewhere (the phone's Buy and Sell bar), applied when `nonce` changes. */
  preset: { side: TSide; nonce: number } | null;
}) {
  const { t, lang, intl } = useI18n();
  const { state, info, positions } = useTrading();
  const actions = useTradeActions();
  const volumeMessage = useVolumeMessage();
  const stopMessage = useStopMessage(spec?.stopsLevel);
  // Inputs are read and shown in the page language's number format ("0,01" in German).
  const numbers = useNumbers();
  // One submission per intent: clicks while sending, and just after the result, are ignored.
  const lock = useSubmitLock();
  const accountId = state.accountId;
  const digits = spec?.digits ?? quote?.digits ?? 2;

  const [side, setSide] = useState<TSide>('buy');
  const [kind, setKind] = useState<TOrderKind>('market');
  const [volume, setVolume] = useState(() => numbers.input(spec?.minVolume ?? '0.01'));
  const [price, setPrice] = useState('');
  const [limitPrice, setLimitPrice] = useState('');
  const [stopMode, setStopMode] = useState<TStopMode>('price');
  const [takeProfit, setTakeProfit] = useState('');
  const [stopLoss, setStopLoss] = useState('');
  const [result, setResult] = useState<TResult | null>(null);
  const [preview, setPreview] = useState<TPreview | null>(null);
  const [previewFailed, setPreviewFailed] = useState(false);
  // A trailing stop follows an open position: market orders only (as in MT5).
  const trailing = useTrailingStop({
    initial: null,
    side,
    bid: quote ? pricePoints(quote.bid, digits) : null,
    ask: quote ? pricePoints(quote.ask, digits) : null,
    digits,
    stopsLevel: spec?.stopsLevel,
  });

  useEffect(() => {
    if (!preset) return;
    setSide(preset.side);
    setPrice('');
    setLimitPrice('');
    setResult(null);
  }, [preset]);

  // Another symbol: its own minimum volume and prices; the levels of the last one mean nothing here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new symbol resets the form
  useEffect(() => {
    if (spec && volumeProblem(numbers.read(volume), spec) !== null) setVolume(numbers.input(spec.minVolume));
    setPrice('');
    setLimitPrice('');
    setTakeProfit('');
    setStopLoss('');
    trailing.reset();
    setResult(null);
  }, [symbol, spec?.minVolume]);

  // A pending order starts one spread away from the market on its own side, then the trader moves it.
  const bidText = quote?.bid;
  const askText = quote?.ask;
  useEffect(() => {
    if (kind === 'market' || price !== '' || !bidText || !askText) return;
    const start = pendingStart(side, kind, bidText, askText, digits);
    if (!start) return;
    setPrice(numbers.input(start));
    if (kind === 'stop_limit') setLimitPrice(numbers.input(start));
  }, [kind, side, price, bidText, askText, digits, numbers]);

  // A refusal is about the values it was given: any change to them clears it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the values are the trigger, not read
  useEffect(() => {
    setResult((shown) => (shown?.kind === 'failed' ? null : shown));
  }, [volume, price, limitPrice, takeProfit, stopLoss, stopMode, trailing.field.value]);

  // ... and it does not stay for ever.
  useEffect(() => {
    if (result?.kind !== 'failed') return;
    const timer = setTimeout(() => setResult(null), ERROR_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [result]);

  const chooseOrder = (next: { side?: TSide; kind?: TOrderKind }) => {
    if (next.side) setSide(next.side);
    if (next.kind) setKind(next.kind);
    // A price chosen for another side or order type would be on the wrong side of the market.
    setPrice('');
    setLimitPrice('');
    setResult(null);
  };

  const bid = quote ? pricePoints(quote.bid, digits) : null;
  const ask = quote ? pricePoints(quote.ask, digits) : null;
  const trailingInvalid = kind === 'market' && trailing.invalid;
  /** A typed price as integer points; null when it is not a price of this symbol. */
  const typedPoints = (text: string): bigint | null => {
    const value = numbers.read(text);
    return value === null ? null : pricePoints(value, digits);
  };
  const pricePts = kind === 'market' ? null : typedPoints(price);
  const limitPts = kind === 'stop_limit' ? typedPoints(limitPrice) : null;
  const entry = entryPoints({ side, kind, bid, ask, price: pricePts, limitPrice: limitPts });
  const reference = stopsReference({ side, kind, bid, ask, entry });

  const stopPoints = (text: string, stop: TStop): bigint | null => {
    if (text.trim() === '') return null;
    if (stopMode === 'price') return typedPoints(text);
    const distance = distancePoints(numbers.read(text));
    return distance === null || entry === null ? null : stopFromDistance(side, stop, entry, distance);
  };
  const tpPts = stopPoints(takeProfit, 'takeProfit');
  const slPts = stopPoints(stopLoss, 'stopLoss');
  const stopError = (text: string, stop: TStop, points: bigint | null) =>
    numbers.ambiguity(text) ??
    (stopMode === 'points' && text.trim() !== '' && distancePoints(numbers.read(text)) === null
      ? t('trade.stops.pointsFormat')
      : stopMessage({ side, stop, price: points, typed: text.trim() !== '', reference, digits }));
  const tpError = stopError(takeProfit, 'takeProfit', tpPts);
  const slError = stopError(stopLoss, 'stopLoss', slPts);

  const volumeValue = numbers.read(volume);
  const volumeError = spec ? volumeMessage(volumeProblem(volumeValue, spec), spec, volume) : null;
  const lots = lotsText(volumeValue);
  let priceError: string | null = null;
  let limitError: string | null = null;
  if (kind !== 'market') {
    const missing = (text: string) =>
      text.trim() === '' ? t('trade.price.required') : (numbers.ambiguity(text) ?? t('trade.price.format'));
    if (pricePts === null) priceError = missing(price);
    if (kind === 'stop_limit') {
      if (limitPts === null) limitError = missing(limitPrice);
      else if (pricePts !== null && (side === 'buy' ? limitPts > pricePts : limitPts < pricePts))
        limitError = t(`trade.limitSide.${side}`);
    }
    if (!priceError && pricePts !== null && bid !== null && ask !== null) {
      const problem = pendingProblem({ side, kind, price: pricePts, limitPrice: limitPts, bid, ask });
      if (problem === 'side') priceError = t(`trade.priceSide.${pendingType(side, kind)}`);
    }
  }

  const closed = quote?.status === 'closed' || spec?.open === false;
  const restrictions = info?.restrictions;
  let blocked: string | null = null;
  if (!spec?.enabled && spec) blocked = t('errors.-3003');
  else if (spec?.closeOnly) blocked = t('trade.ticket.closeOnly');
  else if (side === 'sell' && spec && !spec.shortAllowed) blocked = t('errors.-3002');
  else if (restrictions?.noOpen) blocked = t('errors.-3008');
  else if (closed) blocked = t('trade.ticket.marketClosed');
  else if (!quote) blocked = t('trade.ticket.noPrice');

  const invalid =
    Boolean(volumeError || priceError || limitError || tpError || slError) ||
    lots === null ||
    trailingInvalid;
  const canSend = !invalid && !blocked && !lock.locked && accountId > 0;

  // Margin and commission of this order, from the server, as the trader edits it.
  const previewKey = lots && accountId ? `${accountId}|${symbol}|${side}|${lots}` : '';
  useEffect(() => {
    if (!previewKey || !lots) {
      setPreview(null);
      return;
    }
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout>;
    const load = async () => {
      const answer = await callRoute(
        'ordermargin',
        { account_id: accountId, symbol, side, volume: lots },
        lang,
      );
      if (cancelled) return;
      if (answer.succeed && answer.Data) {
        setPreview({
          key: previewKey,
          margin: answer.Data.margin,
          commission: answer.Data.commission,
          currency: answer.Data.currency,
        });
        setPreviewFailed(false);
      } else setPreviewFailed(true);
      timer = setTimeout(load, PREVIEW_REFRESH_MS);
    };
    timer = setTimeout(load, PREVIEW_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [previewKey, accountId, symbol, side, lots, lang]);

  const currentPreview = preview?.key === previewKey ? preview : null;
  const currency = info?.currency ?? currentPreview?.currency ?? '';
  const money = (value: string) => `${formatDecimal(intl, value, 2)} ${currency}`;
  /** A figure of the preview; a dash without one, a placeholder while it loads. */
  const previewed = (figure: 'margin' | 'commission') =>
    currentPreview ? (
      money(currentPreview[figure])
    ) : previewFailed || !lots ? (
      '—'
    ) : (
      <span className="skeleton tr-sk-num" />
    );
  const usable = info?.freeMargin ?? null;
  // Exact comparison in cents: does the order need more than the usable margin?
  const short =
    currentPreview && usable
      ? (toUnits(currentPreview.margin, 2) ?? 0n) + (toUnits(currentPreview.commission, 2) ?? 0n) >
        (toUnits(usable, 2) ?? 0n)
      : false;

  const sideStopHint = (points: bigint | null, text: string) => {
    if (points === null || text.trim() === '') return null;
    if (stopMode === 'points') return `≈ ${formatDecimal(intl, pointsText(points, digits), digits)}`;
    if (entry === null) return null;
    const distance = points > entry ? points - entry : entry - points;
    return t('trade.stops.distance', { points: distance.toString() });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSend || !lots) return;
    const sendPrice = (points: bigint | null) => (points === null ? null : pointsText(points, digits));
    // The lock ignores a second click while this one is sent and just after its result shows; the
    // same values keep their idempotency key until the server has answered.
    const answer = await lock.run(() => {
      setResult(null);
      return actions.send({
        symbol,
        side,
        type: kind,
        volume: lots,
        price: kind === 'market' ? null : sendPrice(pricePts),
        limit_price: kind === 'stop_limit' ? sendPrice(limitPts) : null,
        take_profit: sendPrice(tpPts),
        stop_loss: sendPrice(slPts),
        ...(kind === 'market' && trailing.trailing_stop ? { trailing_stop: trailing.trailing_stop } : {}),
      });
    });
    if (!answer) return;
    setResult(
      answer.ok
        ? { kind: 'done', ticket: answer.data.ticket, as: answer.data.kind, side, volume: lots, symbol }
        : { kind: 'failed', message: answer.message },
    );
  };

  // The fill price of a new position, once the refresh brings it.
  const filled = result?.kind === 'done' ? positions.find((p) => p.order_id === result.ticket) : undefined;
  const name = orderName(t, side, kind);
  const spread = quote ? quote.spread : null;

  return (
    <form className="tr-ticket" onSubmit={submit} noValidate data-testid="order-ticket" data-symbol={symbol}>
      <div className="tr-ticket-head">
        <strong>{symbol}</strong>
        {spec && <span>{spec.name}</span>}
      </div>
      <div className="tr-sides" role="radiogroup" aria-label={t('trade.ticket.side')}>
        {(['sell', 'buy'] as const).map((s) => (
          <button
            key={s}
            type="button"
            role="radio"
            aria-checked={side === s}
            className={`tr-side-btn tr-side-btn-${s}${side === s ? ' active' : ''}`}
            onClick={() => s !== side && chooseOrder({ side: s })}
            data-testid={`ticket-side-${s}`}
          >
            <span className="tr-side-label">{t(`trade.side.${s}`)}</span>
            <span className="tr-side-price num">
              {quote ? formatDecimal(intl, s === 'buy' ? quote.ask : quote.bid, digits) : '—'}
            </span>
          </button>
        ))}
        {spread !== null && (
          <span className="tr-spread num" title={t('markets.col.spread')}>
            {spread}
          </span>
        )}
      </div>

      <div className="tr-kinds" role="tablist" aria-label={t('trade.ticket.type')}>
        {ORDER_KINDS.map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={kind === k}
            className={`tr-kind${kind === k ? ' active' : ''}`}
            onClick={() => k !== kind && chooseOrder({ kind: k })}
            data-testid={`ticket-kind-${k}`}
          >
            {t(`trade.kind.${k}`)}
          </button>
        ))}
      </div>

      {spec ? (
        <VolumeStepper
          value={volume}
          onChange={(v) => {
            setVolume(v);
            setResult(null);
          }}
          spec={spec}
          label={t('trade.ticket.volume')}
          error={volumeError}
          testId="ticket-volume"
        />
      ) : (
        <div className="skeleton tr-sk-field" />
      )}

      {kind !== 'market' && (
        <PendingPriceInputs
          testId="ticket"
          kind={kind}
          price={{ value: price, onChange: setPrice, error: priceError, digits }}
          limitPrice={{ value: limitPrice, onChange: setLimitPrice, error: limitError, digits }}
        />
      )}

      <div className="tr-stops-head">
        <span className="tr-label">{t('trade.ticket.stops')}</span>
        <div className="tr-toggle" role="radiogroup" aria-label={t('trade.ticket.stopMode')}>
          {(['price', 'points'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              role="radio"
              aria-checked={stopMode === mode}
              className={stopMode === mode ? 'active' : ''}
              onClick={() => {
                setStopMode(mode);
                setTakeProfit('');
                setStopLoss('');
              }}
              data-testid={`ticket-stopmode-${mode}`}
            >
              {t(`trade.stops.mode.${mode}`)}
            </button>
          ))}
        </div>
      </div>
      <div className="tr-stops">
        <StopInputs
          testId="ticket"
          takeProfit={{
            value: takeProfit,
            onChange: setTakeProfit,
            error: tpError,
            hint: sideStopHint(tpPts, takeProfit),
            digits: stopMode === 'price' ? digits : undefined,
          }}
          stopLoss={{
            value: stopLoss,
            onChange: setStopLoss,
            error: slError,
            hint: sideStopHint(slPts, stopLoss),
            digits: stopMode === 'price' ? digits : undefined,
          }}
        />
        {kind === 'market' && (
          <div className="tr-stops-wide">
            <TrailingInput testId="ticket" field={trailing.field} />
          </div>
        )}
      </div>

      <dl className="tr-summary" data-testid="ticket-summary">
        <Figure label={t('trade.ticket.margin')} testId="ticket-margin" value={currentPreview?.margin ?? ''}>
          {previewed('margin')}
        </Figure>
        <Figure label={t('trade.ticket.commission')} testId="ticket-commission">
          {previewed('commission')}
        </Figure>
        <Figure label={t('trade.account.freeMargin')} tone={short ? 'fall' : ''}>
          {usable ? money(usable) : '—'}
        </Figure>
      </dl>
      {kind !== 'market' && <p className="tr-note">{t('trade.ticket.pendingMargin')}</p>}
      {short && !blocked && (
        <p className="tr-warn" role="status">
          {t('errors.-2001')}
        </p>
      )}
      {info?.margin_call && !blocked && (
        <p className="tr-warn" role="status">
          {t('errors.-2002')}
        </p>
      )}
      {blocked && (
        <p className="tr-warn" role="status" data-testid="ticket-blocked">
          {blocked}
        </p>
      )}

      <button
        type="submit"
        className={`btn btn-block tr-submit tr-submit-${side}`}
        disabled={!canSend}
        data-testid="ticket-submit"
        // Long languages ("Kaufen 0,01 BTCUSDT zum Marktpreis") wrap to a second line, never cut off.
      >
        {lock.busy ? (
          <span className="spinner tr-spinner" />
        ) : (
          <span>
            {t(kind === 'market' ? 'trade.ticket.submitMarket' : 'trade.ticket.submitPending', {
              order: name,
              volume: lots ? formatDecimal(intl, lots) : '—',
              symbol,
            })}
          </span>
        )}
      </button>

      <div aria-live="polite" className="tr-result-slot">
        {result?.kind === 'done' && (
          <div
            className="tr-result tr-result-ok"
            data-testid="ticket-result"
            data-ticket={result.ticket}
            data-kind={result.as}
          >
            <strong>
              {t(result.as === 'position' ? 'trade.result.position' : 'trade.result.order', {
                ticket: result.ticket,
              })}
            </strong>
            <span className="num">
              {t(`trade.side.${result.side}`)} {formatDecimal(intl, result.volume)} {result.symbol}
              {filled &&
                ` · ${t('trade.result.at', { price: formatDecimal(intl, filled.open_price, filled.digits) })}`}
            </span>
          </div>
        )}
        {result?.kind === 'failed' && (
          <div className="tr-result tr-result-error" role="alert" data-testid="ticket-error">
            {result.message}
          </div>
        )}
      </div>
    </form>
  );
}

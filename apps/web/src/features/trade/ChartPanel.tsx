import type { TKlineColor } from '@broker/domain/kline-color';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { ChartOverlay, TimeframeButtons } from '../../components/ChartParts';
import { FlashPrice } from '../../components/FlashPrice';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal, formatPercent } from '../../lib/market-format';
import { type TNamedQuote, type TTimeframe, useCandles } from '../../lib/market-stream';
import { type TPendingOrder, type TPosition, useTrading } from '../../lib/trading/store';
import { ConnectionBadge } from './connection';
import { DrawingToolbar } from './DrawingLayer';
import { ConfirmDialog } from './dialogs';
import { useNumbers, useStopMessage, useVolumeMessage } from './fields';
import { IndicatorMenu } from './IndicatorMenu';
import { readIndicators, saveIndicators, type TIndicator } from './indicators';
import { orderTypeKey, useToasts, workingType } from './notifications';
import { type TChartLine, type TChartMarker, TradeChart } from './TradeChart';
import {
  averageOpenPrice,
  lotsText,
  pendingProblem,
  pointsText,
  pricePoints,
  stepVolume,
  type TSide,
  volumeProblem,
} from './ticket-rules';
import { useAlerts } from './useAlerts';
import { useChartDrawings } from './useChartDrawings';
import type { TActionResult } from './useTradeActions';
import { useSubmitLock, useTradeActions } from './useTradeActions';
import { type TSymbolSpec, type TTradeSettings, useDeals } from './useTradeData';

export { TIMEFRAMES } from '../../lib/candle-chart';

interface TDragRequest {
  title: string;
  text: string;
  run(): Promise<TActionResult<unknown>>;
  resolve(): void;
}

const sideOfOrder = (order: TPendingOrder): TSide => (order.type.startsWith('buy') ? 'buy' : 'sell');

/** The lines of the trader's positions and orders on one symbol, as the display settings ask. */
export function useChartLines(
  symbol: string,
  digits: number,
  positions: readonly TPosition[],
  orders: readonly TPendingOrder[],
  display: TTradeSettings['display'],
  ask: string | undefined,
  restrictions: { noTakeProfit: boolean; noStopLoss: boolean } | undefined,
): TChartLine[] {
  const { t, intl } = useI18n();
  return useMemo(() => {
    const lines: TChartLine[] = [];
    const lots = (v: string) => formatDecimal(intl, v);
    const mine = positions.filter((p) => p.symbol === symbol);
    if (display.currentOrder) {
      for (const p of mine) {
        lines.push({
          id: `pos:${p.order_id}:entry`,
          price: p.open_price,
          tone: p.side,
          title: `#${p.order_id} ${t(`trade.side.${p.side}`)} ${lots(p.volume)}`,
          draggable: false,
        });
        if (p.take_profit)
          lines.push({
            id: `pos:${p.order_id}:tp`,
            price: p.take_profit,
            tone: 'takeProfit',
            title: `${t('trade.ticket.takeProfit')} #${p.order_id}`,
            draggable: !restrictions?.noTakeProfit,
          });
        if (p.stop_loss)
          lines.push({
            id: `pos:${p.order_id}:sl`,
            price: p.stop_loss,
            tone: 'stopLoss',
            // a trailing stop's stop-loss moves with the price: its line says so
            title: `${t(p.trailing_stop ? 'trade.trailing.line' : 'trade.ticket.stopLoss')} #${p.order_id}`,
            draggable: !restrictions?.noStopLoss,
          });
      }
      for (const o of orders.filter((x) => x.symbol === symbol)) {
        lines.push({
          id: `ord:${o.order_id}:price`,
          price: o.price,
          tone: 'pending',
          title: `#${o.order_id} ${t(orderTypeKey(workingType(o)))} ${lots(o.volume)}`,
          // An activated stop-limit works at its limit price: that line moves, the stop no longer matters.
          draggable: !o.activated,
        });
        if (o.limit_price)
          lines.push({
            id: `ord:${o.order_id}:limit`,
            price: o.limit_price,
            tone: 'pending',
            title: `${t('trade.ticket.limitPrice')} #${o.order_id}`,
            draggable: o.activated,
          });
        if (o.take_profit)
          lines.push({
            id: `ord:${o.order_id}:tp`,
            price: o.take_profit,
            tone: 'takeProfit',
            title: `${t('trade.ticket.takeProfit')} #${o.order_id}`,
            draggable: true,
          });
        if (o.stop_loss)
          lines.push({
            id: `ord:${o.order_id}:sl`,
            price: o.stop_loss,
            tone: 'stopLoss',
            title: `${t('trade.ticket.stopLoss')} #${o.order_id}`,
            draggable: true,
          });
      }
    }
    if (display.positionCost) {
      for (const side of ['buy', 'sell'] as const) {
        const group = mine.filter((p) => p.side === side);
        if (group.length < 2) continue;
        const average = averageOpenPrice(group, digits);
        if (average)
          lines.push({
            id: `avg:${side}`,
            price: average,
            tone: 'average',
            title: t(`trade.chart.average.${side}`),
            draggable: false,
          });
      }
    }
    if (ask) lines.push({ id: 'ask', price: ask, tone: 'ask', title: '', draggable: false });
    return lines;
  }, [symbol, digits, positions, orders, display, ask, restrictions, t, intl]);
}

/**
 * The centre of the terminal: the symbol's live header, timeframes and the chart with the trader's
 * levels (dragging a take-profit, stop-loss or pending price asks to confirm the change), closed
 * trades on their bars and, when the trader wants it, the quick order panel over the chart.
 */
export function ChartPanel({
  symbol,
  quote,
  spec,
  timeframe,
  onTimeframe,
  klineColor,
  settings,
  historyVersion,
  quickTrade = true,
  tools,
  pane,
}: {
  symbol: string;
  quote: TNamedQuote | undefined;
  spec: TSymbolSpec | undefined;
  timeframe: TTimeframe;
  onTimeframe(tf: TTimeframe): void;
  klineColor: TKlineColor;
  settings: TTradeSettings;
  historyVersion: number;
  /** The quick order panel; phones have their own buy and sell bar instead. */
  quickTrade?: boolean;
  /** More controls beside the timeframes (the one-click switch and the shortcuts list). */
  tools?: React.ReactNode;
  /**
   * One pane of several (ChartLayout): a one-line header, its name for assistive technology, whether it
   * is the active pane, and where the active pane puts its timeframes, indicators, alert and drawing
   * tools (the layout's shared toolbar); the other panes show none.
   */
  pane?: {
    label: string;
    active: boolean;
    onActivate(): void;
    toolbar: HTMLElement | null;
    drawbar: HTMLElement | null;
  };
}) {
  const { t, lang, intl } = useI18n();
  const { state, info, positions, orders } = useTrading();
  const actions = useTradeActions();
  const { push } = useToasts();
  const stopMessage = useStopMessage(spec?.stopsLevel);
  const candles = useCandles(symbol, timeframe, lang);
  const digits = candles.digits ?? spec?.digits ?? quote?.digits ?? 2;
  const [drag, setDrag] = useState<TDragRequest | null>(null);
  // The symbol's indicators, as this browser saved them (read after hydration: the server has none).
  const [indicators, setIndicators] = useState<TIndicator[]>([]);
  useEffect(() => setIndicators(readIndicators(symbol)), [symbol]);
  const changeIndicators = useCallback(
    (next: TIndicator[]) => {
      setIndicators(next);
      saveIndicators(symbol, next);
    },
    [symbol],
  );
  const drawingState = useChartDrawings(symbol);
  // A pane that stops being active drops its drawing tool: its toolbar is gone, so nothing could end it.
  const { setTool } = drawingState;
  const inactive = pane !== undefined && !pane.active;
  useEffect(() => {
    if (inactive) setTool(null);
  }, [inactive, setTool]);
  const lines = useChartLines(
    symbol,
    digits,
    positions,
    orders,
    settings.display,
    quote?.ask,
    info?.restrictions,
  );

  // The trader's active alerts on this symbol: dashed lines in the brand colour, titled "Alert" (no
  // emoji: the product ships no emoji font, and the chart draws its titles on a canvas).
  const alerts = useAlerts();
  const chartLines = useMemo<TChartLine[]>(
    () => [
      ...lines,
      ...alerts.items
        .filter((alert) => alert.symbol === symbol && alert.state === 'active')
        .map((alert) => ({
          id: `alert:${alert.id}`,
          price: alert.triggerPrice,
          tone: 'alert' as const,
          title: t('trade.alert.line'),
          draggable: false,
        })),
    ],
    [lines, alerts.items, symbol, t],
  );

  const deals = useDeals(state.accountId, lang, {
    symbol,
    size: 100,
    version: historyVersion,
    enabled: settings.display.historyOrder,
  });
  const markers = useMemo<TChartMarker[]>(
    () =>
      settings.display.historyOrder
        ? deals.items.flatMap((d) => [
            { time: d.open_time, side: d.side, kind: 'open' as const, text: '' },
            { time: d.close_time, side: d.side, kind: 'close' as const, text: '' },
          ])
        : [],
    [deals.items, settings.display.historyOrder],
  );

  const onDragEnd = useCallback(
    (line: TChartLine, price: string): Promise<void> =>
      new Promise<void>((resolve) => {
        const [source, idText, field] = line.id.split(':');
        const id = Number(idText);
        const points = pricePoints(price, digits);
        const text = formatDecimal(intl, price, digits);
        const refuse = (message: string) => {
          push({ tone: 'error', kind: 'refused', title: t('trade.drag.refused'), text: message });
          resolve();
        };
        if (points === null) return resolve();
        if (source === 'pos') {
          const position = positions.find((p) => p.order_id === id);
          if (!position) return resolve();
          const stop = field === 'tp' ? 'takeProfit' : 'stopLoss';
          const closing = pricePoints(
            position.side === 'buy' ? (quote?.bid ?? '') : (quote?.ask ?? ''),
            digits,
          );
          const problem = stopMessage({
            side: position.side,
            stop,
            price: points,
            typed: true,
            reference: closing,
            digits,
          });
          if (problem) return refuse(problem);
          setDrag({
            title: t(stop === 'takeProfit' ? 'trade.drag.tpTitle' : 'trade.drag.slTitle'),
            text: t('trade.drag.positionText', {
              ticket: id,
              symbol,
              from: formatDecimal(intl, line.price, digits),
              price: text,
            }),
            run: () =>
              actions.modifyPosition({
                order_id: id,
                take_profit: stop === 'takeProfit' ? pointsText(points, digits) : position.take_profit,
                stop_loss: stop === 'stopLoss' ? pointsText(points, digits) : position.stop_loss,
              }),
            resolve,
          });
          return;
        }
        const order = orders.find((o) => o.order_id === id);
        if (!order) return resolve();
        const side = sideOfOrder(order);
        const kind = order.type.endsWith('stop_limit')
          ? 'stop_limit'
          : order.type.endsWith('limit')
            ? 'limit'
            : 'stop';
        const next = {
          price: field === 'price' ? pointsText(points, digits) : order.price,
          limit_price: field === 'limit' ? pointsText(points, digits) : order.limit_price,
          take_profit: field === 'tp' ? pointsText(points, digits) : order.take_profit,
          stop_loss: field === 'sl' ? pointsText(points, digits) : order.stop_loss,
        };
        if (field === 'limit') {
          // An activated stop-limit is a limit order at this price.
          const bid = pricePoints(quote?.bid ?? '', digits);
          const ask = pricePoints(quote?.ask ?? '', digits);
          if (
            bid !== null &&
            ask !== null &&
            pendingProblem({ side, kind: 'limit', price: points, limitPrice: null, bid, ask })
          )
            return refuse(t(`trade.priceSide.${side}_limit`));
        } else if (field === 'price') {
          const bid = pricePoints(quote?.bid ?? '', digits);
          const ask = pricePoints(quote?.ask ?? '', digits);
          if (bid !== null && ask !== null && !(kind === 'stop_limit' && order.activated)) {
            const limit = order.limit_price ? pricePoints(order.limit_price, digits) : null;
            const problem = pendingProblem({ side, kind, price: points, limitPrice: limit, bid, ask });
            if (problem === 'side') return refuse(t(`trade.priceSide.${order.type}`));
            if (problem === 'limit') return refuse(t(`trade.limitSide.${side}`));
          }
        } else {
          const entry = pricePoints(order.limit_price ?? order.price, digits);
          const stop = field === 'tp' ? 'takeProfit' : 'stopLoss';
          const problem = stopMessage({ side, stop, price: points, typed: true, reference: entry, digits });
          if (problem) return refuse(problem);
        }
        setDrag({
          title: t(
            field === 'tp'
              ? 'trade.drag.tpTitle'
              : field === 'sl'
                ? 'trade.drag.slTitle'
                : 'trade.drag.priceTitle',
          ),
          text: t('trade.drag.orderText', {
            ticket: id,
            symbol,
            from: formatDecimal(intl, line.price, digits),
            price: text,
          }),
          run: () => actions.modifyOrder({ order_id: id, ...next }),
          resolve,
        });
      }),
    [digits, intl, positions, orders, quote?.bid, quote?.ask, symbol, actions, push, t, stopMessage],
  );

  const closeDrag = () => {
    drag?.resolve();
    setDrag(null);
  };

  const trend = quote ? changeClass(quote.change) : '';
  const price = (v: string) => formatDecimal(intl, v, quote?.digits ?? digits);

  const paneTools = (
    <>
      <TimeframeButtons scope="tr" timeframe={timeframe} onTimeframe={onTimeframe} />
      <IndicatorMenu indicators={indicators} onChange={changeIndicators} />
      <button
        type="button"
        className="tr-tf tr-alert-add"
        onClick={() => alerts.openDialog({ symbol, digits, bid: quote?.bid ?? null })}
        aria-label={t('trade.alert.add')}
        title={t('trade.alert.add')}
        data-testid="alert-add"
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path
            d="M6 16V11a6 6 0 0112 0v5l2 2H4zm4 4a2 2 0 004 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </button>
    </>
  );

  return (
    <section
      className={`tr-chart-panel${pane ? ' tr-pane-panel' : ''}`}
      aria-label={pane?.label ?? t('markets.chart.title')}
      aria-current={pane?.active ? 'true' : undefined}
      data-testid="chart-panel"
      data-symbol={symbol}
      data-timeframe={timeframe}
    >
      <header className="tr-chart-head">
        <div className="tr-chart-symbol">
          {pane ? (
            <h2 className="tr-pane-title">
              <button type="button" onClick={pane.onActivate} data-testid="chart-symbol">
                {symbol}
                <span className="tr-pane-tf">{timeframe}</span>
              </button>
            </h2>
          ) : (
            <h1 data-testid="chart-symbol">{symbol}</h1>
          )}
          {quote ? (
            <>
              <span className="tr-chart-name">{quote.name}</span>
              <FlashPrice value={quote.bid} text={price(quote.bid)} tone className="tr-chart-price" />
              <span className={`tr-chart-change num ${trend}`}>
                {formatPercent(intl, quote.changePercent)}
              </span>
              {quote.status === 'closed' && (
                <span className="tr-badge-closed">{t('markets.status.closed')}</span>
              )}
            </>
          ) : (
            <span className="skeleton tr-sk-num" />
          )}
        </div>
        {!pane && (
          <div className="tr-chart-tools">
            {paneTools}
            {tools}
            <ConnectionBadge />
          </div>
        )}
      </header>
      {!pane && <DrawingToolbar state={drawingState} />}
      {pane?.active && pane.toolbar && createPortal(paneTools, pane.toolbar)}
      {pane?.active && pane.drawbar && createPortal(<DrawingToolbar state={drawingState} />, pane.drawbar)}
      <div className="tr-chart-body">
        <TradeChart
          candles={candles.candles}
          loading={candles.status === 'loading'}
          digits={digits}
          timeframe={timeframe}
          klineColor={klineColor}
          lines={chartLines}
          markers={markers}
          indicators={indicators}
          drawings={drawingState}
          onNeedOlder={candles.loadOlder}
          onDragEnd={onDragEnd}
          onPriceMenu={(price) => alerts.openDialog({ symbol, digits, bid: quote?.bid ?? null, price })}
        />
        {quickTrade && settings.display.floatLayer && state.accountId > 0 && (
          <QuickTrade symbol={symbol} quote={quote} spec={spec} digits={digits} />
        )}
        <ChartOverlay scope="tr" candles={candles} />
      </div>
      {drag && (
        <ConfirmDialog
          title={drag.title}
          text={drag.text}
          confirmLabel={t('trade.action.confirm')}
          onConfirm={drag.run}
          onClose={closeDrag}
          testId="drag-dialog"
        />
      )}
    </section>
  );
}

const ARM_MS = 3000;
/** A confirm click counts only this long after the arming click: a double click never trades. */
const CONFIRM_DELAY_MS = 400;

/**
 * The quick order panel over the chart: sell at the bid or buy at the ask with one volume. The first
 * click arms the button, the second (after 0.4 s, within 3 s) sends, so a stray or double click
 * never trades.
 */
function QuickTrade({
  symbol,
  quote,
  spec,
  digits,
}: {
  symbol: string;
  quote: TNamedQuote | undefined;
  spec: TSymbolSpec | undefined;
  digits: number;
}) {
  const { t, intl } = useI18n();
  const actions = useTradeActions();
  const { push } = useToasts();
  const volumeMessage = useVolumeMessage();
  const numbers = useNumbers();
  const lock = useSubmitLock();
  const [volume, setVolume] = useState(() => numbers.input(spec?.minVolume ?? '0.01'));
  const [armed, setArmed] = useState<TSide | null>(null);
  const armedAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (spec) setVolume(numbers.input(spec.minVolume));
    setArmed(null);
  }, [spec, numbers]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const volumeValue = numbers.read(volume);
  const problem = spec ? volumeProblem(volumeValue, spec) : 'format';
  const lots = lotsText(volumeValue);
  const closed =
    !quote || quote.status === 'closed' || spec?.open === false || !spec?.enabled || spec.closeOnly;

  const press = async (side: TSide) => {
    if (problem || !lots || closed) return;
    if (armed !== side) {
      setArmed(side);
      armedAt.current = Date.now();
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setArmed(null), ARM_MS);
      return;
    }
    if (Date.now() - armedAt.current < CONFIRM_DELAY_MS) return;
    const answer = await lock.run(() => {
      setArmed(null);
      return actions.send({ symbol, side, type: 'market', volume: lots });
    });
    if (answer && !answer.ok)
      push({ tone: 'error', kind: 'refused', title: t('trade.quick.failed'), text: answer.message });
  };

  return (
    <div className="tr-quick" data-testid="quick-trade">
      {(['sell', 'buy'] as const).map((side) => (
        <button
          key={side}
          type="button"
          className={`tr-quick-btn tr-quick-${side}${armed === side ? ' armed' : ''}`}
          disabled={Boolean(problem) || closed || lock.locked}
          onClick={() => press(side)}
          data-testid={`quick-${side}`}
          style={{ order: side === 'sell' ? 0 : 2 }}
        >
          <span className="tr-quick-label">
            {armed === side ? t('trade.quick.confirm') : t(`trade.side.${side}`)}
          </span>
          <span className="num">
            {quote ? formatDecimal(intl, side === 'buy' ? quote.ask : quote.bid, digits) : '—'}
          </span>
        </button>
      ))}
      <div className="tr-quick-volume" style={{ order: 1 }}>
        <button
          type="button"
          aria-label={t('trade.volume.less')}
          onClick={() => spec && setVolume(numbers.input(stepVolume(volumeValue, spec, -1)))}
        >
          −
        </button>
        <input
          className="num"
          inputMode="decimal"
          value={volume}
          onChange={(e) => setVolume(e.target.value)}
          aria-label={t('trade.ticket.volume')}
          aria-invalid={problem ? true : undefined}
          title={spec ? (volumeMessage(problem, spec, volume) ?? undefined) : undefined}
          data-testid="quick-volume"
        />
        <button
          type="button"
          aria-label={t('trade.volume.more')}
          onClick={() => spec && setVolume(numbers.input(stepVolume(volumeValue, spec, 1)))}
        >
          +
        </button>
      </div>
    </div>
  );
}

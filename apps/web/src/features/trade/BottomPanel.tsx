import { holdTime } from '@broker/domain/market/time-labels';
import { type ReactNode, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { FlashPrice } from '../../components/FlashPrice';
import { Icon } from '../../components/Icon';
import { TRADE_TIME, useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal } from '../../lib/market-format';
import type { TQuote } from '../../lib/market-stream';
import { type TPendingOrder, type TPosition, useTrading } from '../../lib/trading/store';
import { AlertsPanel } from './AlertsPanel';
import { ClosePositionDialog, ConfirmDialog, OrderModifyDialog, PositionStopsDialog } from './dialogs';
import { orderTypeKey, useToasts, workingType } from './notifications';
import { useAlerts } from './useAlerts';
import { type TBotBook, useBots } from './useBots';
import { useTradeActions } from './useTradeActions';
import { type TDeal, type TSymbolSpec, useDeals } from './useTradeData';

export type TBottomTab = 'positions' | 'orders' | 'bots' | 'alerts' | 'history';

type TDialog =
  | { kind: 'stops'; position: TPosition }
  | { kind: 'close'; position: TPosition }
  | { kind: 'order'; order: TPendingOrder }
  | { kind: 'closeAll'; symbol?: string; count: number };

const noSubscribe = () => () => undefined;

/**
 * Trade times are in the reader's zone, which the server does not know: a server-rendered terminal
 * leaves them blank, and they appear in the render that follows hydration.
 */
function useTimeFormat() {
  const { formatDate } = useI18n();
  const inBrowser = useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
  return (ms: number) => (inBrowser ? formatDate(ms, TRADE_TIME) : '');
}

function Money({ value, testId }: { value: string; testId?: string }) {
  const { intl } = useI18n();
  return (
    <span className={`num ${changeClass(value)}`} data-testid={testId} data-value={value}>
      {formatDecimal(intl, value, 2, { sign: true })}
    </span>
  );
}

function Price({ value, digits }: { value: string | null; digits: number }) {
  const { intl } = useI18n();
  return <span className="num">{value ? formatDecimal(intl, value, digits) : '—'}</span>;
}

/**
 * The terminal's lower half: open positions (live profit, levels, close and partial close, close all),
 * pending orders (modify, cancel), the positions and orders of the account's bots (marked with their
 * strategy, read-only: a working bot manages them) and the newest closed deals with their close reasons.
 */
export function BottomPanel({
  tab,
  onTab,
  symbol,
  quotes,
  specs,
  historyVersion,
  layout,
}: {
  tab: TBottomTab;
  onTab(tab: TBottomTab): void;
  /** The chart's symbol, for "close all of this symbol". */
  symbol: string;
  quotes: Readonly<Record<string, TQuote>>;
  specs: ReadonlyMap<string, TSymbolSpec>;
  historyVersion: number;
  layout: TLayout;
}) {
  const { t, lang } = useI18n();
  const { state, info, positions, orders } = useTrading();
  const [dialog, setDialog] = useState<TDialog | null>(null);
  const actions = useTradeActions();
  const ofSymbol = positions.filter((p) => p.symbol === symbol).length;
  const currency = info?.currency ?? '';
  const bots = useBots(state.accountId, tab === 'bots', lang);
  const alertCount = useAlerts().active;

  const tabs: { key: TBottomTab; label: string; count?: number }[] = [
    { key: 'positions', label: t('trade.tab.positions'), count: positions.length },
    { key: 'orders', label: t('trade.tab.orders'), count: orders.length },
    // only for an account that has bots (or while the tab is open, so that it does not vanish under the click)
    ...(bots.books.length > 0 || tab === 'bots'
      ? [{ key: 'bots' as const, label: t('trade.tab.bots'), count: bots.books.length }]
      : []),
    { key: 'alerts', label: t('trade.tab.alerts'), count: alertCount },
    { key: 'history', label: t('trade.tab.history') },
  ];

  return (
    <section className={`tr-bottom tr-bottom-${layout}`} data-testid="bottom-panel">
      <div className="tr-bottom-bar">
        <div className="tr-bottom-tabs" role="tablist" aria-label={t('trade.tab.label')}>
          {tabs.map((item) => (
            <button
              key={item.key}
              type="button"
              role="tab"
              aria-selected={tab === item.key}
              className={`tr-bottom-tab${tab === item.key ? ' active' : ''}`}
              onClick={() => onTab(item.key)}
              data-testid={`tab-${item.key}`}
            >
              {item.label}
              {item.count !== undefined && item.count > 0 && (
                <span className="tr-count num">{item.count}</span>
              )}
            </button>
          ))}
        </div>
        {tab === 'positions' && positions.length > 0 && (
          <div className="tr-bottom-actions">
            {info && (
              <span className="tr-total">
                {t('trade.account.floating')} <Money value={info.floating_profit} testId="floating-total" />{' '}
                <span className="tr-currency">{currency}</span>
              </span>
            )}
            {ofSymbol > 0 && ofSymbol < positions.length && (
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => setDialog({ kind: 'closeAll', symbol, count: ofSymbol })}
                data-testid="close-symbol"
              >
                {t('trade.closeAll.symbol', { symbol })}
              </button>
            )}
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setDialog({ kind: 'closeAll', count: positions.length })}
              data-testid="close-all"
            >
              {t('trade.closeAll.button')}
            </button>
          </div>
        )}
        {tab === 'history' && (
          <Link className="tr-link" to={paths.personalCenter(lang, 'history')} data-testid="full-history">
            {t('trade.history.full')}
            <Icon name="chevronRight" size={14} />
          </Link>
        )}
      </div>
      <div className="tr-bottom-body" role="tabpanel">
        {tab === 'positions' && (
          <PositionsView
            positions={positions}
            layout={layout}
            onEdit={(position) => setDialog({ kind: 'stops', position })}
            onClose={(position) => setDialog({ kind: 'close', position })}
            restricted={info?.restrictions.noClose ?? false}
          />
        )}
        {tab === 'orders' && (
          <OrdersView
            orders={orders}
            quotes={quotes}
            layout={layout}
            onModify={(order) => setDialog({ kind: 'order', order })}
          />
        )}
        {tab === 'bots' && <BotsView load={bots} quotes={quotes} layout={layout} />}
        {tab === 'alerts' && <AlertsPanel layout={layout} quotes={quotes} />}
        {tab === 'history' && (
          <HistoryView accountId={state.accountId} version={historyVersion} layout={layout} />
        )}
      </div>
      {dialog?.kind === 'stops' && (
        <PositionStopsDialog
          position={dialog.position}
          quote={quotes[dialog.position.symbol]}
          stopsLevel={specs.get(dialog.position.symbol)?.stopsLevel}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'close' && (
        <ClosePositionDialog
          position={positions.find((p) => p.order_id === dialog.position.order_id) ?? dialog.position}
          quote={quotes[dialog.position.symbol]}
          spec={specs.get(dialog.position.symbol)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'order' && (
        <OrderModifyDialog
          order={dialog.order}
          quote={quotes[dialog.order.symbol]}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'closeAll' && (
        <ConfirmDialog
          title={
            dialog.symbol ? t('trade.closeAll.symbol', { symbol: dialog.symbol }) : t('trade.closeAll.title')
          }
          text={
            <>
              <p>{t('trade.closeAll.text', { count: dialog.count })}</p>
              {info && (
                <p className="num">
                  {t('trade.account.floating')} <Money value={info.floating_profit} /> {currency}
                </p>
              )}
            </>
          }
          confirmLabel={t('trade.closeAll.confirm', { count: dialog.count })}
          danger
          onConfirm={() => actions.closeAll(dialog.symbol ? { symbol: dialog.symbol } : {})}
          onClose={() => setDialog(null)}
        />
      )}
    </section>
  );
}

function EmptyRows({ icon, title, text }: { icon: string; title: string; text?: string }) {
  return (
    <div className="tr-empty" data-testid="bottom-empty">
      <Icon name={icon} size={22} />
      <p>{title}</p>
      {text && <p className="tr-empty-sub">{text}</p>}
    </div>
  );
}

type TLayout = 'table' | 'cards';
type TDataAttributes = Record<`data-${string}`, string | number>;

/**
 * A figure of an item: a table column (its header and cells; `num` ones right-aligned) or a card
 * field. `className` and `testId` go on the cell.
 */
interface TField<T> {
  label: string;
  num?: boolean;
  className?: string;
  testId?: string;
  cell(item: T): ReactNode;
}

/** A table cell's class: `tr-num` first for figures, then the column's own. */
function cellClass({ num, className }: { num?: boolean; className?: string }): string | undefined {
  if (!num) return className;
  return className ? `tr-num ${className}` : 'tr-num';
}

/**
 * The last column (the profit, or the market price of an order) stays in view beside the actions
 * when a narrow screen or a long language makes the table scroll sideways.
 */
function stickyClass(className: string | undefined, index: number, count: number): string | undefined {
  if (index !== count - 1) return className;
  return className ? `${className} tr-sticky-end` : 'tr-sticky-end';
}

/** Columns of figures: right-aligned. */
function figures<T>(fields: TField<T>[]): TField<T>[] {
  return fields.map((field) => ({ ...field, num: true }));
}

/** One item as a card: its head (symbol, side or type, volume and `aside`), its `fields`, its foot. */
interface TCard<T> {
  symbol: string;
  tag: ReactNode;
  volume: string;
  aside: ReactNode;
  fields: TField<T>[];
  ticket: number;
  time: number;
}

/**
 * Items as a table (wide screens) or as cards (phones). `testId` and `data` mark both a row and a
 * card, `rowData` a row only; `buttons` are an item's actions (in a last, unlabelled column).
 */
function Rows<T>({
  items,
  layout,
  itemKey,
  testId,
  data,
  rowData,
  columns,
  card,
  buttons,
}: {
  items: readonly T[];
  layout: TLayout;
  itemKey(item: T): number;
  testId: string;
  data(item: T): TDataAttributes;
  rowData?(item: T): TDataAttributes;
  columns: TField<T>[];
  card(item: T): TCard<T>;
  buttons?(item: T): ReactNode;
}) {
  const { t, intl } = useI18n();
  const time = useTimeFormat();
  if (layout === 'cards') {
    return (
      <ul className="tr-cards">
        {items.map((item) => {
          const c = card(item);
          return (
            <li key={itemKey(item)} className="tr-card" data-testid={testId} {...data(item)}>
              <div className="tr-card-head">
                <span>
                  <strong>{c.symbol}</strong> {c.tag}{' '}
                  <span className="num">{formatDecimal(intl, c.volume)}</span>
                </span>
                {c.aside}
              </div>
              <dl className="tr-card-grid">
                {c.fields.map((field, i) => (
                  <div key={i}>
                    <dt>{field.label}</dt>
                    <dd className={field.className} data-testid={field.testId}>
                      {field.cell(item)}
                    </dd>
                  </div>
                ))}
              </dl>
              <div className="tr-card-foot">
                <span className="tr-muted num">
                  #{c.ticket} · {time(c.time)}
                </span>
                {buttons && <span className="tr-card-buttons">{buttons(item)}</span>}
              </div>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <table className={`tr-table${buttons ? ' has-actions' : ''}`}>
      <thead>
        <tr>
          {columns.map((column, i) => (
            <th
              key={i}
              scope="col"
              className={stickyClass(cellClass({ num: column.num }), i, columns.length)}
            >
              {column.label}
            </th>
          ))}
          {buttons && (
            <th scope="col" className="tr-actions-col">
              <span className="tr-sr-only">{t('trade.col.actions')}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={itemKey(item)} data-testid={testId} {...data(item)} {...rowData?.(item)}>
            {columns.map((column, i) => (
              <td
                key={i}
                className={stickyClass(cellClass(column), i, columns.length)}
                data-testid={column.testId}
              >
                {column.cell(item)}
              </td>
            ))}
            {buttons && (
              <td className="tr-actions">
                <div className="tr-actions-inner">{buttons(item)}</div>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The first columns of the positions and the orders: symbol, ticket, time, side or type, volume. */
function useLeadColumns<
  T extends { symbol: string; order_id: number; volume: string; strategy_id: number | null },
>(time: (item: T) => number, tag: (item: T) => ReactNode): TField<T>[] {
  const { t, intl } = useI18n();
  const format = useTimeFormat();
  return [
    { label: t('markets.col.symbol'), className: 'tr-strong', cell: (x) => x.symbol },
    { label: t('trade.col.ticket'), className: 'num tr-muted', cell: (x) => x.order_id },
    { label: t('trade.col.time'), className: 'num tr-muted', cell: (x) => format(time(x)) },
    {
      label: t('trade.col.type'),
      cell: (x) => (
        <>
          {tag(x)}
          <BotTag strategyId={x.strategy_id} />
        </>
      ),
    },
    { label: t('trade.col.volume'), num: true, className: 'num', cell: (x) => formatDecimal(intl, x.volume) },
  ];
}

/** Marks a bot's position or order (spec 3 strategy order) with its strategy's number. */
function BotTag({ strategyId }: { strategyId: number | null }) {
  const { t } = useI18n();
  if (strategyId === null) return null;
  return (
    <span className="tr-bot-tag" data-testid="bot-tag">
      {t('trade.bot.tag', { id: strategyId })}
    </span>
  );
}

function SideTag({ side, children }: { side: 'buy' | 'sell'; children: ReactNode }) {
  return <span className={`tr-side-tag tr-side-${side}`}>{children}</span>;
}

/** A pencil: change the item's levels or price. */
function EditGlyph() {
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M12 20h9" />
      <path d="M16.5 3.5a2.12 2.12 0 0 1 3 3L7 19l-4 1 1-4Z" />
    </svg>
  );
}

/**
 * An item's action: its word on cards; in the table an icon (a pencil to modify, a cross to close
 * or delete) named by `title`, so the actions column stays narrow in every language.
 */
function RowButton({
  close = false,
  icon,
  label,
  busy = false,
  title,
  ...button
}: {
  close?: boolean;
  /** Show the icon only (the table), not the word (cards). */
  icon: boolean;
  label: string;
  busy?: boolean;
  onClick(): void;
  disabled?: boolean;
  title: string;
  'data-testid': string;
}) {
  const className = `tr-row-btn${close ? ' tr-row-btn-close' : ''}${icon ? ' tr-row-btn-icon' : ''}`;
  return (
    <button
      type="button"
      className={className}
      title={title}
      aria-label={icon ? title : undefined}
      {...button}
    >
      {busy ? (
        <span className="spinner tr-spinner" />
      ) : icon ? (
        close ? (
          <Icon name="close" size={14} />
        ) : (
          <EditGlyph />
        )
      ) : (
        label
      )}
    </button>
  );
}

function PositionsView({
  positions,
  layout,
  onEdit,
  onClose,
  restricted,
  readOnly = false,
}: {
  positions: readonly TPosition[];
  layout: TLayout;
  onEdit(position: TPosition): void;
  onClose(position: TPosition): void;
  restricted: boolean;
  /** A bot's positions: shown without actions. */
  readOnly?: boolean;
}) {
  const { t, intl, formatNumber } = useI18n();
  const side = (p: TPosition) => <SideTag side={p.side}>{t(`trade.side.${p.side}`)}</SideTag>;
  const lead = useLeadColumns<TPosition>((p) => p.open_time, side);
  if (positions.length === 0)
    return (
      <EmptyRows icon="chart" title={t('trade.empty.positions')} text={t('trade.empty.positionsText')} />
    );
  const field = {
    open: { label: t('trade.col.openPrice'), cell: (p) => <Price value={p.open_price} digits={p.digits} /> },
    current: {
      label: t('trade.col.currentPrice'),
      cell: (p) => (
        <FlashPrice value={p.current_price} text={formatDecimal(intl, p.current_price, p.digits)} />
      ),
    },
    takeProfit: {
      label: t('trade.ticket.takeProfit'),
      testId: 'position-tp',
      cell: (p) => <Price value={p.take_profit} digits={p.digits} />,
    },
    stopLoss: {
      label: t('trade.ticket.stopLoss'),
      testId: 'position-sl',
      cell: (p) => (
        <>
          <Price value={p.stop_loss} digits={p.digits} />
          {p.trailing_stop !== null && (
            <span
              className="tr-trail-tag"
              title={t('trade.trailing.markTitle', { points: formatNumber(p.trailing_stop) })}
              data-testid="position-trailing"
              data-value={p.trailing_stop}
            >
              {t('trade.trailing.mark')}
            </span>
          )}
        </>
      ),
    },
    swap: { label: t('trade.col.swap'), cell: (p) => <Money value={p.swap} /> },
    commission: { label: t('trade.col.commission'), cell: (p) => <Money value={p.commission} /> },
    profit: {
      label: t('trade.col.profit'),
      cell: (p) => <Money value={p.profit} testId="position-profit" />,
    },
  } satisfies Record<string, TField<TPosition>>;
  return (
    <Rows
      items={positions}
      layout={layout}
      itemKey={(p) => p.order_id}
      testId="position-row"
      data={(p) => ({ 'data-ticket': p.order_id })}
      rowData={(p) => ({ 'data-symbol': p.symbol })}
      columns={[
        ...lead,
        ...figures([
          field.open,
          field.current,
          field.stopLoss,
          field.takeProfit,
          field.swap,
          field.commission,
        ]),
        { ...field.profit, num: true, className: 'tr-strong' },
      ]}
      card={(p) => ({
        symbol: p.symbol,
        tag: (
          <>
            {side(p)}
            <BotTag strategyId={p.strategy_id} />
          </>
        ),
        volume: p.volume,
        aside: field.profit.cell(p),
        fields: [field.open, field.current, field.takeProfit, field.stopLoss, field.swap, field.commission],
        ticket: p.order_id,
        time: p.open_time,
      })}
      buttons={
        readOnly
          ? undefined
          : (p) => (
              <>
                <RowButton
                  icon={layout === 'table'}
                  label={t('trade.action.modify')}
                  title={t('trade.stops.title')}
                  onClick={() => onEdit(p)}
                  data-testid="position-edit"
                />
                <RowButton
                  close
                  icon={layout === 'table'}
                  label={t('trade.action.close')}
                  title={t('trade.close.title')}
                  onClick={() => onClose(p)}
                  disabled={restricted}
                  data-testid="position-close"
                />
              </>
            )
      }
    />
  );
}

function OrdersView({
  orders,
  quotes,
  layout,
  onModify,
  readOnly = false,
}: {
  orders: readonly TPendingOrder[];
  quotes: Readonly<Record<string, TQuote>>;
  layout: TLayout;
  onModify(order: TPendingOrder): void;
  /** A bot's orders: shown without actions. */
  readOnly?: boolean;
}) {
  const { t, intl } = useI18n();
  const actions = useTradeActions();
  const { push } = useToasts();
  const [cancelling, setCancelling] = useState<number | null>(null);
  const sideOf = (o: TPendingOrder) => (o.type.startsWith('buy') ? 'buy' : 'sell');
  const type = (o: TPendingOrder) => <SideTag side={sideOf(o)}>{t(orderTypeKey(workingType(o)))}</SideTag>;
  const lead = useLeadColumns<TPendingOrder>((o) => o.time, type);
  if (orders.length === 0)
    return <EmptyRows icon="clock" title={t('trade.empty.orders')} text={t('trade.empty.ordersText')} />;

  const cancel = async (order: TPendingOrder) => {
    setCancelling(order.order_id);
    const answer = await actions.cancelOrder({ order_id: order.order_id });
    setCancelling(null);
    if (!answer.ok)
      push({ tone: 'error', kind: 'refused', title: t('trade.order.cancelFailed'), text: answer.message });
  };
  const field = {
    market: {
      label: t('trade.col.market'),
      cell: (o) => {
        const quote = quotes[o.symbol];
        if (!quote) return <span className="num">—</span>;
        const value = sideOf(o) === 'buy' ? quote.ask : quote.bid;
        return <FlashPrice value={value} text={formatDecimal(intl, value, o.digits)} />;
      },
    },
    limitPrice: {
      label: t('trade.ticket.limitPrice'),
      cell: (o) => <Price value={o.limit_price} digits={o.digits} />,
    },
    takeProfit: {
      label: t('trade.ticket.takeProfit'),
      cell: (o) => <Price value={o.take_profit} digits={o.digits} />,
    },
    stopLoss: {
      label: t('trade.ticket.stopLoss'),
      cell: (o) => <Price value={o.stop_loss} digits={o.digits} />,
    },
  } satisfies Record<string, TField<TPendingOrder>>;
  const price = (o: TPendingOrder) => <Price value={o.price} digits={o.digits} />;
  return (
    <Rows
      items={orders}
      layout={layout}
      itemKey={(o) => o.order_id}
      testId="order-row"
      data={(o) => ({ 'data-ticket': o.order_id })}
      rowData={(o) => ({ 'data-symbol': o.symbol })}
      columns={[
        ...lead,
        ...figures([
          { label: t('trade.ticket.price'), testId: 'order-price-cell', cell: price },
          field.limitPrice,
          field.stopLoss,
          field.takeProfit,
          field.market,
        ]),
      ]}
      card={(o) => ({
        symbol: o.symbol,
        tag: (
          <>
            {type(o)}
            <BotTag strategyId={o.strategy_id} />
          </>
        ),
        volume: o.volume,
        aside: price(o),
        fields: [field.market, field.limitPrice, field.takeProfit, field.stopLoss],
        ticket: o.order_id,
        time: o.time,
      })}
      buttons={
        readOnly
          ? undefined
          : (o) => (
              <>
                <RowButton
                  icon={layout === 'table'}
                  label={t('trade.action.modify')}
                  title={t('trade.order.modifyTitle')}
                  onClick={() => onModify(o)}
                  data-testid="order-modify"
                />
                <RowButton
                  close
                  icon={layout === 'table'}
                  label={t('trade.action.cancelOrder')}
                  title={t('trade.action.cancelOrder')}
                  busy={cancelling === o.order_id}
                  onClick={() => cancel(o)}
                  disabled={cancelling === o.order_id}
                  data-testid="order-cancel"
                />
              </>
            )
      }
    />
  );
}

const NOTHING = () => undefined;

/**
 * The current account's bots, each with its strategy account's positions and orders. A working bot
 * manages them (the server refuses a trader's change with -5206), so they are read-only here; the
 * bot's page stops it or lets the trader take over what it kept.
 */
function BotsView({
  load,
  quotes,
  layout,
}: {
  load: { status: string; books: TBotBook[] };
  quotes: Readonly<Record<string, TQuote>>;
  layout: TLayout;
}) {
  const { t, lang, intl } = useI18n();
  if (load.books.length === 0) {
    if (load.status === 'loading')
      return (
        <div className="tr-empty">
          <span className="spinner" />
        </div>
      );
    if (load.status === 'error') return <EmptyRows icon="alert" title={t('errors.network')} />;
    return <EmptyRows icon="chart" title={t('trade.bot.empty')} />;
  }
  return (
    <div className="tr-bots" data-testid="bots-view">
      {load.books.map(({ bot, positions, orders, loaded }) => (
        <section
          key={bot.strategy_id}
          className="tr-bot"
          data-testid="bot-book"
          data-strategy={bot.strategy_id}
        >
          <header className="tr-bot-head">
            <span className="tr-bot-title">
              <strong>
                {t('trade.bot.title', { id: bot.strategy_id, kind: t(`strategy.kind.${bot.kind}`) })}
              </strong>
              <span className="tr-muted">
                {bot.symbol} · {t(`strategy.state.${bot.state}`)}
              </span>
            </span>
            <span className="tr-bot-figures">
              <span>
                {t('trade.bot.realized')} <Money value={bot.realizedProfit} />
              </span>
              <span>
                {t('trade.bot.floating')} <Money value={bot.unrealizedProfit} />
              </span>
              <span className="tr-muted num">
                {formatDecimal(intl, bot.equity, 2)} {bot.currency}
              </span>
              <Link className="tr-link" to={paths.strategy(lang, bot.strategy_id)} data-testid="bot-open">
                {t('trade.bot.open')}
                <Icon name="chevronRight" size={14} />
              </Link>
            </span>
          </header>
          {!loaded && (
            <div className="tr-empty">
              <span className="spinner" />
            </div>
          )}
          {positions.length > 0 && (
            <PositionsView
              positions={positions}
              layout={layout}
              onEdit={NOTHING}
              onClose={NOTHING}
              restricted
              readOnly
            />
          )}
          {orders.length > 0 && (
            <OrdersView orders={orders} quotes={quotes} layout={layout} onModify={NOTHING} readOnly />
          )}
        </section>
      ))}
    </div>
  );
}

function HoldTime({ seconds }: { seconds: number }) {
  const { formatNumber } = useI18n();
  const { value, unit } = holdTime(seconds);
  return <span className="num">{formatNumber(value, { style: 'unit', unit, unitDisplay: 'short' })}</span>;
}

function HistoryView({
  accountId,
  version,
  layout,
}: {
  accountId: number;
  version: number;
  layout: TLayout;
}) {
  const { t, lang, intl } = useI18n();
  const time = useTimeFormat();
  const deals = useDeals(accountId, lang, { version, enabled: true, size: 50 });
  if (deals.status === 'loading' && deals.items.length === 0)
    return (
      <div className="tr-empty">
        <span className="spinner" />
      </div>
    );
  if (deals.status === 'error')
    return (
      <div className="tr-empty">
        <p>{t('trade.history.error')}</p>
        <button type="button" className="btn btn-secondary btn-sm" onClick={deals.retry}>
          {t('common.retry')}
        </button>
      </div>
    );
  if (deals.items.length === 0)
    return <EmptyRows icon="history" title={t('pc.history.emptyTitle')} text={t('pc.history.emptyText')} />;
  const side = (d: TDeal) => <SideTag side={d.side}>{t(`trade.side.${d.side}`)}</SideTag>;
  const field = {
    open: {
      label: t('trade.col.openPrice'),
      className: 'num',
      cell: (d) => formatDecimal(intl, d.open_price),
    },
    close: {
      label: t('trade.col.closePrice'),
      className: 'num',
      cell: (d) => formatDecimal(intl, d.close_price),
    },
    hold: { label: t('trade.col.hold'), cell: (d) => <HoldTime seconds={d.hold_seconds} /> },
    swap: { label: t('trade.col.swap'), cell: (d) => <Money value={d.swap} /> },
    commission: { label: t('trade.col.commission'), cell: (d) => <Money value={d.commission} /> },
    profit: { label: t('trade.col.profit'), cell: (d) => <Money value={d.profit} /> },
    reason: {
      label: t('trade.col.reason'),
      cell: (d) => (
        <span
          className={`tr-reason tr-reason-${d.close_reason}`}
          data-testid="deal-reason"
          data-reason={d.close_reason}
        >
          {t(`trade.reason.${d.close_reason}`)}
        </span>
      ),
    },
  } satisfies Record<string, TField<TDeal>>;
  return (
    <Rows
      items={deals.items}
      layout={layout}
      itemKey={(d) => d.id}
      testId="deal-row"
      data={(d) => ({ 'data-position': d.position_id })}
      columns={[
        { label: t('trade.col.closeTime'), className: 'num tr-muted', cell: (d) => time(d.close_time) },
        { label: t('trade.col.ticket'), className: 'num tr-muted', cell: (d) => d.position_id },
        { label: t('markets.col.symbol'), className: 'tr-strong', cell: (d) => d.symbol },
        { label: t('trade.col.type'), cell: side },
        ...figures([
          { label: t('trade.col.volume'), className: 'num', cell: (d) => formatDecimal(intl, d.volume) },
          field.open,
          field.close,
          field.hold,
          field.swap,
          field.commission,
        ]),
        { ...field.profit, num: true, className: 'tr-strong' },
        field.reason,
      ]}
      card={(d) => ({
        symbol: d.symbol,
        tag: side(d),
        volume: d.volume,
        aside: field.profit.cell(d),
        fields: [field.open, field.close, field.reason, field.hold],
        ticket: d.position_id,
        time: d.close_time,
      })}
    />
  );
}

import { holdTime } from '@broker/domain/market/time-labels';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { FlashPrice } from '../../components/FlashPrice';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal } from '../../lib/market-format';
import type { TQuote } from '../../lib/market-stream';
import { type TPendingOrder, type TPosition, useTrading } from '../../lib/trading/store';
import { ClosePositionDialog, ConfirmDialog, OrderModifyDialog, PositionStopsDialog } from './dialogs';
import { orderTypeKey, useToasts, workingType } from './notifications';
import { useTradeActions } from './useTradeActions';
import { type TDeal, type TSymbolSpec, useDeals } from './useTradeData';

export type TBottomTab = 'positions' | 'orders' | 'history';

type TDialog =
  | { kind: 'stops'; position: TPosition }
  | { kind: 'close'; position: TPosition }
  | { kind: 'order'; order: TPendingOrder }
  | { kind: 'closeAll'; symbol?: string; count: number };

function useTimeFormat() {
  const { formatDate } = useI18n();
  return (ms: number) =>
    formatDate(ms, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
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
 * pending orders (modify, cancel) and the newest closed deals with their close reasons.
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
  layout: 'table' | 'cards';
}) {
  const { t, lang } = useI18n();
  const { state, info, positions, orders } = useTrading();
  const [dialog, setDialog] = useState<TDialog | null>(null);
  const actions = useTradeActions();
  const ofSymbol = positions.filter((p) => p.symbol === symbol).length;
  const currency = info?.currency ?? '';

  const tabs: { key: TBottomTab; label: string; count?: number }[] = [
    { key: 'positions', label: t('trade.tab.positions'), count: positions.length },
    { key: 'orders', label: t('trade.tab.orders'), count: orders.length },
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
        {tab === 'history' && (
          <HistoryView accountId={state.accountId} version={historyVersion} layout={layout} />
        )}
      </div>
      {dialog?.kind === 'stops' && (
        <PositionStopsDialog
          position={dialog.position}
          quote={quotes[dialog.position.symbol]}
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

function PositionsView({
  positions,
  layout,
  onEdit,
  onClose,
  restricted,
}: {
  positions: readonly TPosition[];
  layout: 'table' | 'cards';
  onEdit(position: TPosition): void;
  onClose(position: TPosition): void;
  restricted: boolean;
}) {
  const { t, intl } = useI18n();
  const time = useTimeFormat();
  if (positions.length === 0)
    return (
      <EmptyRows icon="chart" title={t('trade.empty.positions')} text={t('trade.empty.positionsText')} />
    );
  const side = (p: TPosition) => (
    <span className={`tr-side-tag tr-side-${p.side}`}>{t(`trade.side.${p.side}`)}</span>
  );
  const current = (p: TPosition) => (
    <FlashPrice value={p.current_price} text={formatDecimal(intl, p.current_price, p.digits)} />
  );
  const buttons = (p: TPosition) => (
    <>
      <button
        type="button"
        className="tr-row-btn"
        onClick={() => onEdit(p)}
        data-testid="position-edit"
        title={t('trade.stops.title')}
      >
        {t('trade.action.modify')}
      </button>
      <button
        type="button"
        className="tr-row-btn tr-row-btn-close"
        onClick={() => onClose(p)}
        disabled={restricted}
        data-testid="position-close"
        title={t('trade.close.title')}
      >
        {t('trade.action.close')}
      </button>
    </>
  );
  if (layout === 'cards') {
    return (
      <ul className="tr-cards">
        {positions.map((p) => (
          <li key={p.order_id} className="tr-card" data-testid="position-row" data-ticket={p.order_id}>
            <div className="tr-card-head">
              <span>
                <strong>{p.symbol}</strong> {side(p)}{' '}
                <span className="num">{formatDecimal(intl, p.volume)}</span>
              </span>
              <Money value={p.profit} testId="position-profit" />
            </div>
            <dl className="tr-card-grid">
              <div>
                <dt>{t('trade.col.openPrice')}</dt>
                <dd>
                  <Price value={p.open_price} digits={p.digits} />
                </dd>
              </div>
              <div>
                <dt>{t('trade.col.currentPrice')}</dt>
                <dd>{current(p)}</dd>
              </div>
              <div>
                <dt>{t('trade.ticket.takeProfit')}</dt>
                <dd data-testid="position-tp">
                  <Price value={p.take_profit} digits={p.digits} />
                </dd>
              </div>
              <div>
                <dt>{t('trade.ticket.stopLoss')}</dt>
                <dd data-testid="position-sl">
                  <Price value={p.stop_loss} digits={p.digits} />
                </dd>
              </div>
              <div>
                <dt>{t('trade.col.swap')}</dt>
                <dd>
                  <Money value={p.swap} />
                </dd>
              </div>
              <div>
                <dt>{t('trade.col.commission')}</dt>
                <dd>
                  <Money value={p.commission} />
                </dd>
              </div>
            </dl>
            <div className="tr-card-foot">
              <span className="tr-muted num">
                #{p.order_id} · {time(p.open_time)}
              </span>
              <span className="tr-card-buttons">{buttons(p)}</span>
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <table className="tr-table">
      <thead>
        <tr>
          <th scope="col">{t('markets.col.symbol')}</th>
          <th scope="col">{t('trade.col.ticket')}</th>
          <th scope="col">{t('trade.col.time')}</th>
          <th scope="col">{t('trade.col.type')}</th>
          <th scope="col" className="tr-num">
            {t('trade.col.volume')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.openPrice')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.currentPrice')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.ticket.stopLoss')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.ticket.takeProfit')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.swap')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.commission')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.profit')}
          </th>
          <th scope="col" className="tr-actions-col">
            <span className="tr-sr-only">{t('trade.col.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {positions.map((p) => (
          <tr key={p.order_id} data-testid="position-row" data-ticket={p.order_id} data-symbol={p.symbol}>
            <td className="tr-strong">{p.symbol}</td>
            <td className="num tr-muted">{p.order_id}</td>
            <td className="num tr-muted">{time(p.open_time)}</td>
            <td>{side(p)}</td>
            <td className="tr-num num">{formatDecimal(intl, p.volume)}</td>
            <td className="tr-num">
              <Price value={p.open_price} digits={p.digits} />
            </td>
            <td className="tr-num">{current(p)}</td>
            <td className="tr-num" data-testid="position-sl">
              <Price value={p.stop_loss} digits={p.digits} />
            </td>
            <td className="tr-num" data-testid="position-tp">
              <Price value={p.take_profit} digits={p.digits} />
            </td>
            <td className="tr-num">
              <Money value={p.swap} />
            </td>
            <td className="tr-num">
              <Money value={p.commission} />
            </td>
            <td className="tr-num tr-strong">
              <Money value={p.profit} testId="position-profit" />
            </td>
            <td className="tr-actions">
              <div className="tr-actions-inner">{buttons(p)}</div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function OrdersView({
  orders,
  quotes,
  layout,
  onModify,
}: {
  orders: readonly TPendingOrder[];
  quotes: Readonly<Record<string, TQuote>>;
  layout: 'table' | 'cards';
  onModify(order: TPendingOrder): void;
}) {
  const { t, intl } = useI18n();
  const time = useTimeFormat();
  const actions = useTradeActions();
  const { push } = useToasts();
  const [cancelling, setCancelling] = useState<number | null>(null);
  if (orders.length === 0)
    return <EmptyRows icon="clock" title={t('trade.empty.orders')} text={t('trade.empty.ordersText')} />;

  const cancel = async (order: TPendingOrder) => {
    setCancelling(order.order_id);
    const answer = await actions.cancelOrder({ order_id: order.order_id });
    setCancelling(null);
    if (!answer.ok)
      push({ tone: 'error', kind: 'refused', title: t('trade.order.cancelFailed'), text: answer.message });
  };
  const type = (o: TPendingOrder) => (
    <span className={`tr-side-tag tr-side-${o.type.startsWith('buy') ? 'buy' : 'sell'}`}>
      {t(orderTypeKey(workingType(o)))}
    </span>
  );
  const market = (o: TPendingOrder) => {
    const quote = quotes[o.symbol];
    if (!quote) return <span className="num">—</span>;
    const value = o.type.startsWith('buy') ? quote.ask : quote.bid;
    return <FlashPrice value={value} text={formatDecimal(intl, value, o.digits)} />;
  };
  const buttons = (o: TPendingOrder) => (
    <>
      <button type="button" className="tr-row-btn" onClick={() => onModify(o)} data-testid="order-modify">
        {t('trade.action.modify')}
      </button>
      <button
        type="button"
        className="tr-row-btn tr-row-btn-close"
        onClick={() => cancel(o)}
        disabled={cancelling === o.order_id}
        data-testid="order-cancel"
      >
        {cancelling === o.order_id ? <span className="spinner tr-spinner" /> : t('trade.action.cancelOrder')}
      </button>
    </>
  );
  if (layout === 'cards') {
    return (
      <ul className="tr-cards">
        {orders.map((o) => (
          <li key={o.order_id} className="tr-card" data-testid="order-row" data-ticket={o.order_id}>
            <div className="tr-card-head">
              <span>
                <strong>{o.symbol}</strong> {type(o)}{' '}
                <span className="num">{formatDecimal(intl, o.volume)}</span>
              </span>
              <Price value={o.price} digits={o.digits} />
            </div>
            <dl className="tr-card-grid">
              <div>
                <dt>{t('trade.col.market')}</dt>
                <dd>{market(o)}</dd>
              </div>
              <div>
                <dt>{t('trade.ticket.limitPrice')}</dt>
                <dd>
                  <Price value={o.limit_price} digits={o.digits} />
                </dd>
              </div>
              <div>
                <dt>{t('trade.ticket.takeProfit')}</dt>
                <dd>
                  <Price value={o.take_profit} digits={o.digits} />
                </dd>
              </div>
              <div>
                <dt>{t('trade.ticket.stopLoss')}</dt>
                <dd>
                  <Price value={o.stop_loss} digits={o.digits} />
                </dd>
              </div>
            </dl>
            <div className="tr-card-foot">
              <span className="tr-muted num">
                #{o.order_id} · {time(o.time)}
              </span>
              <span className="tr-card-buttons">{buttons(o)}</span>
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <table className="tr-table">
      <thead>
        <tr>
          <th scope="col">{t('markets.col.symbol')}</th>
          <th scope="col">{t('trade.col.ticket')}</th>
          <th scope="col">{t('trade.col.time')}</th>
          <th scope="col">{t('trade.col.type')}</th>
          <th scope="col" className="tr-num">
            {t('trade.col.volume')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.ticket.price')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.ticket.limitPrice')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.ticket.stopLoss')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.ticket.takeProfit')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.market')}
          </th>
          <th scope="col" className="tr-actions-col">
            <span className="tr-sr-only">{t('trade.col.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {orders.map((o) => (
          <tr key={o.order_id} data-testid="order-row" data-ticket={o.order_id} data-symbol={o.symbol}>
            <td className="tr-strong">{o.symbol}</td>
            <td className="num tr-muted">{o.order_id}</td>
            <td className="num tr-muted">{time(o.time)}</td>
            <td>{type(o)}</td>
            <td className="tr-num num">{formatDecimal(intl, o.volume)}</td>
            <td className="tr-num" data-testid="order-price-cell">
              <Price value={o.price} digits={o.digits} />
            </td>
            <td className="tr-num">
              <Price value={o.limit_price} digits={o.digits} />
            </td>
            <td className="tr-num">
              <Price value={o.stop_loss} digits={o.digits} />
            </td>
            <td className="tr-num">
              <Price value={o.take_profit} digits={o.digits} />
            </td>
            <td className="tr-num">{market(o)}</td>
            <td className="tr-actions">
              <div className="tr-actions-inner">{buttons(o)}</div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
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
  layout: 'table' | 'cards';
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
  const reason = (d: TDeal) => (
    <span
      className={`tr-reason tr-reason-${d.close_reason}`}
      data-testid="deal-reason"
      data-reason={d.close_reason}
    >
      {t(`trade.reason.${d.close_reason}`)}
    </span>
  );
  const side = (d: TDeal) => (
    <span className={`tr-side-tag tr-side-${d.side}`}>{t(`trade.side.${d.side}`)}</span>
  );
  if (layout === 'cards') {
    return (
      <ul className="tr-cards">
        {deals.items.map((d) => (
          <li key={d.id} className="tr-card" data-testid="deal-row" data-position={d.position_id}>
            <div className="tr-card-head">
              <span>
                <strong>{d.symbol}</strong> {side(d)}{' '}
                <span className="num">{formatDecimal(intl, d.volume)}</span>
              </span>
              <Money value={d.profit} />
            </div>
            <dl className="tr-card-grid">
              <div>
                <dt>{t('trade.col.openPrice')}</dt>
                <dd className="num">{formatDecimal(intl, d.open_price)}</dd>
              </div>
              <div>
                <dt>{t('trade.col.closePrice')}</dt>
                <dd className="num">{formatDecimal(intl, d.close_price)}</dd>
              </div>
              <div>
                <dt>{t('trade.col.reason')}</dt>
                <dd>{reason(d)}</dd>
              </div>
              <div>
                <dt>{t('trade.col.hold')}</dt>
                <dd>
                  <HoldTime seconds={d.hold_seconds} />
                </dd>
              </div>
            </dl>
            <div className="tr-card-foot">
              <span className="tr-muted num">
                #{d.position_id} · {time(d.close_time)}
              </span>
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <table className="tr-table">
      <thead>
        <tr>
          <th scope="col">{t('trade.col.closeTime')}</th>
          <th scope="col">{t('trade.col.ticket')}</th>
          <th scope="col">{t('markets.col.symbol')}</th>
          <th scope="col">{t('trade.col.type')}</th>
          <th scope="col" className="tr-num">
            {t('trade.col.volume')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.openPrice')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.closePrice')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.hold')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.swap')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.commission')}
          </th>
          <th scope="col" className="tr-num">
            {t('trade.col.profit')}
          </th>
          <th scope="col">{t('trade.col.reason')}</th>
        </tr>
      </thead>
      <tbody>
        {deals.items.map((d) => (
          <tr key={d.id} data-testid="deal-row" data-position={d.position_id}>
            <td className="num tr-muted">{time(d.close_time)}</td>
            <td className="num tr-muted">{d.position_id}</td>
            <td className="tr-strong">{d.symbol}</td>
            <td>{side(d)}</td>
            <td className="tr-num num">{formatDecimal(intl, d.volume)}</td>
            <td className="tr-num num">{formatDecimal(intl, d.open_price)}</td>
            <td className="tr-num num">{formatDecimal(intl, d.close_price)}</td>
            <td className="tr-num">
              <HoldTime seconds={d.hold_seconds} />
            </td>
            <td className="tr-num">
              <Money value={d.swap} />
            </td>
            <td className="tr-num">
              <Money value={d.commission} />
            </td>
            <td className="tr-num tr-strong">
              <Money value={d.profit} />
            </td>
            <td>{reason(d)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { type TPendingOrder, type TPosition, useTrading } from '../../lib/trading/store';
import { diffTrading, PlacedOrders, settingOf, type TSnapshot, type TTradeEvent } from './trade-events';
import type { TTradeSettings } from './useTradeData';

export type TToastTone = 'success' | 'info' | 'warning' | 'error';
export interface TToast {
  id: number;
  tone: TToastTone;
  title: string;
  text?: string;
  /** What the toast is about, for tests and screen readers (e.g. "closed"). */
  kind?: string;
}

interface TToastContext {
  push(toast: Omit<TToast, 'id'>, options?: { sound?: boolean }): void;
  /** Pending orders placed from this page, so a fill faster than a refresh is still told as one. */
  placed: PlacedOrders<TPendingOrder>;
}

const ToastContext = createContext<TToastContext | null>(null);
const TOAST_MS = 6000;
const MAX_TOASTS = 4;

let audio: AudioContext | null = null;

/** Browsers only let a page play sound after a gesture: the context is made on the first one. */
function unlockAudio() {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
  } catch {
    audio = null;
  }
}

/** A short two-tone beep made with Web Audio (no sound file): higher for opens, lower for closes. */
export function beep(tone: 'open' | 'close' = 'open') {
  try {
    if (!audio) unlockAudio();
    const context = audio;
    if (context?.state !== 'running') return;
    const start = context.currentTime;
    const notes = tone === 'open' ? [880, 1320] : [660, 440];
    notes.forEach((frequency, i) => {
      const at = start + i * 0.09;
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.12, at + 0.012);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.08);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.09);
    });
  } catch {
    // no audio output: the toast alone is enough
  }
}

/** Toasts of the terminal, bottom right on a desktop and at the top on a phone. */
export function ToastProvider({ children, ringsOpen }: { children: ReactNode; ringsOpen: boolean }) {
  const { t } = useI18n();
  const [toasts, setToasts] = useState<TToast[]>([]);
  const next = useRef(1);
  const ringsRef = useRef(ringsOpen);
  ringsRef.current = ringsOpen;

  useEffect(() => {
    window.addEventListener('pointerdown', unlockAudio, { once: true });
    window.addEventListener('keydown', unlockAudio, { once: true });
    return () => {
      window.removeEventListener('pointerdown', unlockAudio);
      window.removeEventListener('keydown', unlockAudio);
    };
  }, []);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((x) => x.id !== id)), []);

  const push = useCallback<TToastContext['push']>(
    (toast, options) => {
      const id = next.current++;
      setToasts((list) => [...list, { ...toast, id }].slice(-MAX_TOASTS));
      setTimeout(() => dismiss(id), TOAST_MS);
      if (options?.sound && ringsRef.current) beep(toast.kind === 'closed' ? 'close' : 'open');
    },
    [dismiss],
  );
  const [placed] = useState(() => new PlacedOrders<TPendingOrder>());
  const value = useMemo(() => ({ push, placed }), [push, placed]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <section className="tr-toasts" aria-live="polite" aria-label={t('trade.toast.region')}>
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`tr-toast tr-toast-${toast.tone}`}
            role={toast.tone === 'error' ? 'alert' : 'status'}
            data-testid="trade-toast"
            data-kind={toast.kind ?? ''}
          >
            <span className="tr-toast-icon" aria-hidden="true">
              <Icon
                name={toast.tone === 'success' ? 'check' : toast.tone === 'info' ? 'bolt' : 'alert'}
                size={16}
              />
            </span>
            <div className="tr-toast-body">
              <strong>{toast.title}</strong>
              {toast.text && <span>{toast.text}</span>}
            </div>
            <button
              type="button"
              className="tr-toast-close"
              aria-label={t('common.close')}
              onClick={() => dismiss(toast.id)}
            >
              <Icon name="close" size={14} />
            </button>
          </div>
        ))}
      </section>
    </ToastContext.Provider>
  );
}

export function useToasts(): TToastContext {
  const value = useContext(ToastContext);
  if (!value) throw new Error('useToasts outside ToastProvider');
  return value;
}

/** "Buy limit", "Sell stop limit": the translated name of a pending order type. */
export function orderTypeKey(type: string): string {
  return `trade.orderType.${type}`;
}

/** A stop-limit whose stop price was reached works as a plain limit order from then on. */
export function workingType(order: { type: string; activated: boolean }): string {
  return order.activated ? order.type.replace('_stop_limit', '_limit') : order.type;
}

/**
 * Watches the account between refreshes and tells the trader what happened, as their notification
 * settings ask: opened, closed (with the reason and profit from the deal history), and pending orders
 * placed, filled or cancelled. `onEvents` hears every event (the history reloads on closes).
 */
export function useTradeNotifications(
  settings: TTradeSettings,
  onEvents: (events: TTradeEvent<TPosition, TPendingOrder>[]) => void,
) {
  const { t, lang, intl } = useI18n();
  const { push, placed } = useToasts();
  const { state, info, positions, orders } = useTrading();
  const previous = useRef<TSnapshot<TPosition, TPendingOrder> | null>(null);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const onEventsRef = useRef(onEvents);
  onEventsRef.current = onEvents;
  const currency = info?.currency ?? '';

  useEffect(() => {
    // Figures of the current account only: after a switch the lists are empty until they load.
    if (!info || info.account_id !== state.accountId) return;
    const snapshot = { accountId: info.account_id, positions, orders };
    const events = diffTrading(previous.current, snapshot, placed);
    previous.current = snapshot;
    if (events.length === 0) return;
    onEventsRef.current(events);

    const side = (s: 'buy' | 'sell') => t(`trade.side.${s}`);
    const price = (value: string, digits: number) => formatDecimal(intl, value, digits);
    const closedIds: number[] = [];
    for (const event of events) {
      if (!settingsRef.current.notification[settingOf(event)]) continue;
      switch (event.kind) {
        case 'opened':
          push(
            {
              tone: 'success',
              kind: 'opened',
              title: t('trade.toast.opened'),
              text: t('trade.toast.positionText', {
                side: side(event.position.side),
                volume: event.position.volume,
                symbol: event.position.symbol,
                ticket: event.position.order_id,
                price: price(event.position.open_price, event.position.digits),
              }),
            },
            { sound: true },
          );
          break;
        case 'filled':
          push(
            {
              tone: 'success',
              kind: 'filled',
              title: t('trade.toast.filled'),
              text: t('trade.toast.positionText', {
                side: t(orderTypeKey(event.order.type)),
                volume: event.position.volume,
                symbol: event.position.symbol,
                ticket: event.position.order_id,
                price: price(event.position.open_price, event.position.digits),
              }),
            },
            { sound: true },
          );
          break;
        case 'placed':
          push(
            {
              tone: 'info',
              kind: 'placed',
              title: t('trade.toast.placed'),
              text: t('trade.toast.positionText', {
                side: t(orderTypeKey(event.order.type)),
                volume: event.order.volume,
                symbol: event.order.symbol,
                ticket: event.order.order_id,
                price: price(event.order.price, event.order.digits),
              }),
            },
            { sound: true },
          );
          break;
        case 'cancelled':
          push({
            tone: 'info',
            kind: 'cancelled',
            title: t('trade.toast.cancelled'),
            text: t('trade.toast.orderText', {
              type: t(orderTypeKey(event.order.type)),
              volume: event.order.volume,
              symbol: event.order.symbol,
              ticket: event.order.order_id,
            }),
          });
          break;
        case 'partlyClosed':
          push(
            {
              tone: 'info',
              kind: 'partlyClosed',
              title: t('trade.toast.partlyClosed'),
              text: t('trade.toast.partText', {
                closed: event.closedVolume,
                symbol: event.position.symbol,
                ticket: event.position.order_id,
                remaining: event.position.volume,
              }),
            },
            { sound: true },
          );
          break;
        case 'closed':
          closedIds.push(event.position.order_id);
          break;
      }
    }
    if (closedIds.length === 0) return;
    const closed = events.flatMap((e) =>
      e.kind === 'closed' && closedIds.includes(e.position.order_id) ? [e] : [],
    );
    // The reason and realised profit of a close are in the deal history.
    void callRoute('dealhistory', { account_id: snapshot.accountId, page: 1, size: 50 }, lang).then(
      (answer) => {
        const deals = answer.succeed && answer.Data ? answer.Data.items : [];
        for (const event of closed) {
          const deal = deals.find((d) => d.position_id === event.position.order_id);
          const base = t('trade.toast.positionText', {
            side: side(event.position.side),
            volume: event.position.volume,
            symbol: event.position.symbol,
            ticket: event.position.order_id,
            price: price(deal?.close_price ?? event.position.current_price, event.position.digits),
          });
          const details = deal
            ? ` · ${t(`trade.reason.${deal.close_reason}`)} · ${t('trade.toast.profit', {
                profit: formatDecimal(intl, deal.profit, 2, { sign: true }),
                currency,
              })}`
            : '';
          push(
            {
              tone: deal && deal.close_reason !== 1 && deal.close_reason !== 3 ? 'warning' : 'info',
              kind: 'closed',
              title: t('trade.toast.closed'),
              text: base + details,
            },
            { sound: true },
          );
        }
      },
    );
  }, [info, positions, orders, state.accountId, push, placed, t, intl, lang, currency]);
}

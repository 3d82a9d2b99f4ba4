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
import { marginLevelText } from '../../lib/margin-level';
import { formatDecimal } from '../../lib/market-format';
import type { TAccountEvent } from '../../lib/trading/account-stream';
import { type TPendingOrder, type TPosition, useTrading } from '../../lib/trading/store';
import {
  orderTypeKey,
  PlacedOrders,
  settingOf,
  type TNoteFormat,
  TradeNotifier,
  type TToastTone,
  type TTradeNote,
  toastOf,
} from './trade-events';
import type { TTradeSettings } from './useTradeData';

export type { TToastTone };
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
    // After the gesture's frame: making the context took 15-20 ms at 4x CPU inside the first tap's
    // event, before its paint. The page keeps its user activation, so the context may still start.
    let frame = 0;
    const unlockSoon = () => {
      frame = requestAnimationFrame(() => window.setTimeout(unlockAudio, 0));
    };
    window.addEventListener('pointerdown', unlockSoon, { once: true });
    window.addEventListener('keydown', unlockSoon, { once: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pointerdown', unlockSoon);
      window.removeEventListener('keydown', unlockSoon);
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
export { orderTypeKey };

/** A stop-limit whose stop price was reached works as a plain limit order from then on. */
export function workingType(order: { type: string; activated: boolean }): string {
  return order.activated ? order.type.replace('_stop_limit', '_limit') : order.type;
}

/**
 * Tells the trader what happened on the account, as their notification settings ask: positions
 * opened and closed (with the reason and profit), partly closed, and pending orders placed, filled or
 * cancelled; margin calls and stop-outs. The events the account stream pushes are told while it
 * delivers; while it is down, what changed between two refreshes is (`TradeNotifier`: never twice).
 * `onEvents` hears every note told (the history reloads on closes).
 */
export function useTradeNotifications(
  settings: TTradeSettings,
  onEvents: (events: readonly TTradeNote[]) => void,
) {
  const { t, lang, intl } = useI18n();
  const { push, placed } = useToasts();
  const { state, info, positions, orders, subscribeEvents, isStreamLive } = useTrading();
  const [notifier] = useState(() => new TradeNotifier<TPosition, TPendingOrder>(placed));
  /** Pushed events not yet told, with the account they came for. */
  const pushed = useRef<{ accountId: number; events: readonly TAccountEvent[] }[]>([]);
  const [pushes, setPushes] = useState(0);
  const dueTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const accountRef = useRef(state.accountId);
  accountRef.current = state.accountId;
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const onEventsRef = useRef(onEvents);
  onEventsRef.current = onEvents;
  const currency = info?.currency ?? '';
  const marginCall = info?.margin_call_level ?? '';
  const stopOut = info?.stop_out_level ?? '';

  // Events are told after a render: the snapshot the socket sent before them is then in the lists.
  useEffect(
    () =>
      subscribeEvents((events) => {
        pushed.current.push({ accountId: accountRef.current, events });
        setPushes((n) => n + 1);
      }),
    [subscribeEvents],
  );
  useEffect(
    () => () => {
      if (dueTimer.current) clearTimeout(dueTimer.current);
    },
    [],
  );

  useEffect(() => {
    // `pushes` runs this again when events arrive or a held note is due.
    void pushes;
    // Figures of the current account only: after a switch the lists are empty until they load.
    if (!info || info.account_id !== state.accountId) return;
    const accountId = info.account_id;
    const events = pushed.current.splice(0).flatMap((p) => (p.accountId === accountId ? p.events : []));
    const notes = notifier.update({ accountId, positions, orders }, isStreamLive(accountId), events);
    if (dueTimer.current) clearTimeout(dueTimer.current);
    dueTimer.current = null;
    const due = notifier.nextDue();
    if (due !== null)
      dueTimer.current = setTimeout(() => setPushes((n) => n + 1), Math.max(0, due - Date.now()) + 10);
    if (notes.length === 0) return;
    onEventsRef.current(notes);

    const format: TNoteFormat = {
      t,
      price: (value, digits) => formatDecimal(intl, value, digits),
      profit: (value) => formatDecimal(intl, value, 2, { sign: true }),
      percent: (value) => marginLevelText(intl, value),
      currency,
      levels: { marginCall, stopOut },
    };
    const show = (note: TTradeNote) => {
      const toast = toastOf(note, settingsRef.current.notification, format);
      if (!toast) return;
      const { sound, ...rest } = toast;
      push(rest, { sound });
    };
    const toLookUp: (TTradeNote & { kind: 'closed' })[] = [];
    for (const note of notes) {
      if (note.kind === 'closed' && !note.close) {
        if (settingsRef.current.notification[settingOf(note)]) toLookUp.push(note);
      } else show(note);
    }
    if (toLookUp.length === 0) return;
    // The reason and realised profit of a close seen in the lists are in the deal history.
    void callRoute('dealhistory', { account_id: accountId, page: 1, size: 50 }, lang).then((answer) => {
      const deals = answer.succeed && answer.Data ? answer.Data.items : [];
      for (const note of toLookUp) {
        const deal = deals.find((d) => d.position_id === note.ticket);
        show({
          ...note,
          close: deal ? { price: deal.close_price, reason: deal.close_reason, profit: deal.profit } : null,
        });
      }
    });
  }, [
    info,
    positions,
    orders,
    state.accountId,
    pushes,
    notifier,
    push,
    t,
    intl,
    lang,
    currency,
    marginCall,
    stopOut,
    isStreamLive,
  ]);
}

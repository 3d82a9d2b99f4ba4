import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import type { TQuote } from '../../lib/market-stream';
import { useTrading } from '../../lib/trading/store';
import { Dialog } from './Dialog';
import { ClosePositionDialog, ConfirmDialog } from './dialogs';
import { useToasts } from './notifications';
import type { TSide } from './ticket-rules';
import { useTradeActions } from './useTradeActions';
import type { TSymbolSpec } from './useTradeData';

const ONE_CLICK_KEY = 'trade.oneClick';

/** One-click trading, as this browser keeps it: off unless the trader turned it on knowingly. */
function useOneClick(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(false);
  useEffect(() => {
    try {
      setOn(window.localStorage.getItem(ONE_CLICK_KEY) === 'on');
    } catch {
      setOn(false);
    }
  }, []);
  const change = (next: boolean) => {
    setOn(next);
    try {
      if (next) window.localStorage.setItem(ONE_CLICK_KEY, 'on');
      else window.localStorage.removeItem(ONE_CLICK_KEY);
    } catch {
      // Storage refused: the choice lasts for this visit.
    }
  };
  return [on, change];
}

/** A key press meant for a field, not for the terminal. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  Boolean(target.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]'));

/**
 * The terminal's keyboard shortcuts (Shift+B buy, Shift+S sell, Shift+C close the newest position on
 * the symbol, ? this list) and the one-click trading switch. With one-click off a shortcut opens the
 * ticket (or the close dialog) filled in; with it on the order goes at once at the market price.
 */
export function TradeShortcuts({
  symbol,
  spec,
  quote,
  onTicket,
}: {
  symbol: string;
  spec: TSymbolSpec | undefined;
  quote: TQuote | undefined;
  /** Shows the order ticket with the side chosen. */
  onTicket(side: TSide): void;
}) {
  const { t } = useI18n();
  const { state, positions } = useTrading();
  const actions = useTradeActions();
  const { push } = useToasts();
  const [oneClick, setOneClick] = useOneClick();
  const [asking, setAsking] = useState(false);
  const [help, setHelp] = useState(false);
  const [closing, setClosing] = useState<number | null>(null);
  /** The shortcuts whose order is on its way: a held key sends once, yet Shift+C may close a
   * position whose opening answer has not come back yet (the stream can show it first). */
  const sending = useRef(new Set<'open' | 'close'>());

  const latest = useRef({ symbol, spec, positions, oneClick, accountId: state.accountId, onTicket });
  latest.current = { symbol, spec, positions, oneClick, accountId: state.accountId, onTicket };

  useEffect(() => {
    const send = async (kind: 'open' | 'close', run: () => Promise<{ ok: boolean; message?: string }>) => {
      if (sending.current.has(kind)) return;
      sending.current.add(kind);
      try {
        const answer = await run();
        if (!answer.ok)
          push({
            tone: 'error',
            kind: 'refused',
            title: t('trade.quick.failed'),
            text: answer.message ?? '',
          });
      } finally {
        sending.current.delete(kind);
      }
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const now = latest.current;
      if (event.key === '?') {
        event.preventDefault();
        setHelp(true);
        return;
      }
      if (!event.shiftKey || now.accountId <= 0) return;
      const key = event.key.toUpperCase();
      if (key === 'B' || key === 'S') {
        event.preventDefault();
        const side: TSide = key === 'B' ? 'buy' : 'sell';
        if (!now.oneClick) now.onTicket(side);
        else if (now.spec)
          void send('open', () =>
            actions.send({ symbol: now.symbol, side, type: 'market', volume: now.spec?.minVolume ?? '0.01' }),
          );
      } else if (key === 'C') {
        event.preventDefault();
        const newest = now.positions
          .filter((p) => p.symbol === now.symbol)
          .reduce<(typeof now.positions)[number] | null>(
            (best, p) => (!best || p.order_id > best.order_id ? p : best),
            null,
          );
        if (!newest) return;
        if (now.oneClick) void send('close', () => actions.closePosition({ order_id: newest.order_id }));
        else setClosing(newest.order_id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions, push, t]);

  const closingPosition = closing === null ? undefined : positions.find((p) => p.order_id === closing);

  return (
    <>
      <button
        type="button"
        className={`tr-oneclick${oneClick ? ' is-on' : ''}`}
        aria-pressed={oneClick}
        data-testid="one-click"
        onClick={() => (oneClick ? setOneClick(false) : setAsking(true))}
      >
        {t('trade.oneClick.label')}
        <span className="tr-oneclick-state">
          {oneClick ? t('trade.oneClick.on') : t('trade.oneClick.off')}
        </span>
      </button>
      <button
        type="button"
        className="tr-shortcuts-button"
        aria-label={t('trade.shortcuts.title')}
        title={t('trade.shortcuts.title')}
        aria-keyshortcuts="Shift+?"
        data-testid="shortcuts-button"
        onClick={() => setHelp(true)}
      >
        ?
      </button>
      {asking && (
        <ConfirmDialog
          title={t('trade.oneClick.confirmTitle')}
          text={t('trade.oneClick.confirmText')}
          confirmLabel={t('trade.oneClick.confirm')}
          onConfirm={async () => {
            setOneClick(true);
            return { ok: true, data: null };
          }}
          onClose={() => setAsking(false)}
          testId="one-click-dialog"
        />
      )}
      {help && (
        <Dialog
          title={t('trade.shortcuts.title')}
          onClose={() => setHelp(false)}
          testId="shortcuts-dialog"
          footer={
            <button type="button" className="btn btn-secondary" data-autofocus onClick={() => setHelp(false)}>
              {t('common.close')}
            </button>
          }
        >
          <dl className="tr-shortcuts">
            {(
              [
                ['Shift+B', oneClick ? 'trade.shortcuts.buyNow' : 'trade.shortcuts.buy'],
                ['Shift+S', oneClick ? 'trade.shortcuts.sellNow' : 'trade.shortcuts.sell'],
                ['Shift+C', oneClick ? 'trade.shortcuts.closeNow' : 'trade.shortcuts.close'],
                ['Delete', 'trade.shortcuts.deleteDrawing'],
                ['?', 'trade.shortcuts.help'],
              ] as const
            ).map(([keys, text]) => (
              <div key={keys}>
                <dt>
                  <kbd>{keys}</kbd>
                </dt>
                <dd>{t(text)}</dd>
              </div>
            ))}
          </dl>
        </Dialog>
      )}
      {closingPosition && (
        <ClosePositionDialog
          position={closingPosition}
          quote={quote}
          spec={spec}
          onClose={() => setClosing(null)}
        />
      )}
    </>
  );
}

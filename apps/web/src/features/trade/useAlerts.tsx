import type { TAlertFired } from '@broker/contracts/account-stream';
import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';
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
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { accountStream } from '../../lib/trading/account-stream';
import { useToasts } from './notifications';
import type { TActionResult } from './useTradeActions';

export type TAlert = TRouteOutput<'alertlist'>['items'][number];

/** What a new alert's dialog starts from: the symbol, its digits and the bid now. */
export interface TAlertDraft {
  symbol: string;
  digits: number;
  bid: string | null;
  /** A price picked on the chart, else the bid. */
  price?: string;
  /** The alert being changed (the dialog then saves it instead of making one). */
  editing?: TAlert;
}

interface TAlertsContext {
  status: 'loading' | 'ready' | 'error';
  items: TAlert[];
  active: number;
  limit: number;
  reload(): Promise<void>;
  /** Calls an alert route and reloads the list after a change. */
  call<N extends Extract<TRouteName, `alert${string}`>>(
    name: N,
    input: TRouteInput<N>,
  ): Promise<TActionResult<TRouteOutput<N>>>;
  draft: TAlertDraft | null;
  openDialog(draft: TAlertDraft): void;
  closeDialog(): void;
}

const AlertsContext = createContext<TAlertsContext | null>(null);

/** The condition in words, as the list, the chart and the toast show it. */
export function useConditionText() {
  const { t, intl } = useI18n();
  return useCallback(
    (alert: Pick<TAlert, 'condition' | 'triggerPrice' | 'percent'>, digits?: number) =>
      t(`trade.alert.short.${alert.condition}`, {
        price: formatDecimal(intl, alert.triggerPrice, digits),
        percent: alert.percent ? formatDecimal(intl, alert.percent) : '',
      }),
    [t, intl],
  );
}

/**
 * The trader's price alerts for the terminal: the list (read once and after each change or firing),
 * the add dialog's draft, and a toast the moment one fires (the account stream's `alert` message).
 */
export function AlertsProvider({ children }: { children: ReactNode }) {
  const { t, lang, intl } = useI18n();
  const { push } = useToasts();
  const conditionText = useConditionText();
  const [state, setState] = useState<Pick<TAlertsContext, 'status' | 'items' | 'active' | 'limit'>>({
    status: 'loading',
    items: [],
    active: 0,
    limit: 50,
  });
  const [draft, setDraft] = useState<TAlertDraft | null>(null);
  const live = useRef(true);

  const reload = useCallback(async () => {
    const answer = await callRoute('alertlist', {}, lang);
    if (!live.current) return;
    if (answer.succeed && answer.Data) setState({ status: 'ready', ...answer.Data });
    else setState((current) => ({ ...current, status: 'error' }));
  }, [lang]);

  useEffect(() => {
    live.current = true;
    void reload();
    return () => {
      live.current = false;
    };
  }, [reload]);

  useEffect(
    () =>
      accountStream().onAlert((fired: TAlertFired) => {
        push(
          {
            tone: 'info',
            kind: 'alert',
            title: t('trade.alert.fired', { symbol: fired.symbol }),
            text: t('trade.alert.firedText', {
              condition: conditionText(fired),
              price: formatDecimal(intl, fired.price),
            }),
          },
          { sound: true },
        );
        void reload();
      }),
    [push, t, intl, conditionText, reload],
  );

  const call = useCallback(
    async <N extends Extract<TRouteName, `alert${string}`>>(
      name: N,
      input: TRouteInput<N>,
    ): Promise<TActionResult<TRouteOutput<N>>> => {
      const answer = await callRoute(name, input, lang);
      if (!answer.succeed || !answer.Data)
        return { ok: false, code: answer.code, message: failureText(answer, t) };
      void reload();
      return { ok: true, data: answer.Data as TRouteOutput<N> };
    },
    [lang, t, reload],
  );

  const value = useMemo<TAlertsContext>(
    () => ({
      ...state,
      reload,
      call,
      draft,
      openDialog: setDraft,
      closeDialog: () => setDraft(null),
    }),
    [state, reload, call, draft],
  );
  return <AlertsContext.Provider value={value}>{children}</AlertsContext.Provider>;
}

export function useAlerts(): TAlertsContext {
  const context = useContext(AlertsContext);
  if (!context) throw new Error('useAlerts outside AlertsProvider');
  return context;
}

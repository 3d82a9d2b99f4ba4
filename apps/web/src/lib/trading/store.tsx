import type { TRouteOutput } from '@broker/contracts/routes';
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
import { callRoute } from '../api';
import { readCookie, removeCookie, userInfoFromCookie, writeCookie } from '../cookies';
import { useI18n } from '../i18n';
import {
  ACCOUNT_COOKIE,
  accountsLoaded,
  chooseAccount,
  INITIAL_ACCOUNT_STATE,
  removeAccount,
  setConnection,
  setTradeType,
  type TAccountState,
  type TCookieAction,
  TRADE_TYPE_COOKIE,
} from './account-state';

export type TAccountInfo = TRouteOutput<'info'>;
export type TPosition = TRouteOutput<'positions'>[number];
export type TPendingOrder = TRouteOutput<'pendingorders'>[number];

const YEAR = 365 * 86_400;
/** Spec 9: refresh interval 3000 ms; the terminal asks for 1000 ms while it is visible. */
export const DEFAULT_REFRESH_MS = 3000;

interface TTradingContext {
  state: TAccountState;
  info: TAccountInfo | null;
  positions: TPosition[];
  orders: TPendingOrder[];
  /** Set when the last refresh failed (network or server); cleared by the next success. */
  error: string | null;
  loading: boolean;
  select(accountId: number): void;
  setTradeType(tradeType: number): void;
  remove(accountId: number): void;
  setConnection(accountId: number, abnormal: boolean): void;
  /** Reloads the account list (after creating one) and the current account's figures. */
  reload(): Promise<void>;
  /** Refreshes the current account's figures, positions and orders now. */
  refresh(): Promise<void>;
  /** How often figures refresh while the page is visible (ms). */
  setRefreshInterval(ms: number): void;
}

const TradingContext = createContext<TTradingContext | null>(null);

function applyCookie(action: TCookieAction) {
  if (action.kind === 'remove') removeCookie(ACCOUNT_COOKIE);
  if (action.kind === 'set') writeCookie(ACCOUNT_COOKIE, action.value, YEAR);
}

/**
 * The signed-in trader's accounts and the current account's live figures (spec 3 user state),
 * following the spec 4 rules in ./account-state. Figures refresh on an interval while the page is
 * visible, and at once after every trading action that calls `refresh`.
 */
export function TradingProvider({ children }: { children: ReactNode }) {
  const { lang } = useI18n();
  const [state, setState] = useState<TAccountState>(INITIAL_ACCOUNT_STATE);
  const [info, setInfo] = useState<TAccountInfo | null>(null);
  const [positions, setPositions] = useState<TPosition[]>([]);
  const [orders, setOrders] = useState<TPendingOrder[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [interval, setRefreshInterval] = useState(DEFAULT_REFRESH_MS);
  const stateRef = useRef(state);
  stateRef.current = state;

  const refresh = useCallback(async () => {
    const accountId = stateRef.current.accountId;
    if (!accountId) {
      setInfo(null);
      setPositions([]);
      setOrders([]);
      return;
    }
    const [i, p, o] = await Promise.all([
      callRoute('info', { account_id: accountId }, lang),
      callRoute('positions', { account_id: accountId }, lang),
      callRoute('pendingorders', { account_id: accountId }, lang),
    ]);
    if (stateRef.current.accountId !== accountId) return;
    if (i.succeed && i.Data) setInfo(i.Data);
    if (p.succeed && p.Data) setPositions(p.Data);
    if (o.succeed && o.Data) setOrders(o.Data);
    const failed = [i, p, o].find((a) => !a.succeed);
    setError(failed ? (failed.messageKey ?? 'errors.network') : null);
  }, [lang]);

  const reload = useCallback(async () => {
    if (!userInfoFromCookie()) {
      setLoading(false);
      return;
    }
    const answer = await callRoute('accountlist', {}, lang);
    if (!answer.succeed || !answer.Data) {
      setError(answer.messageKey ?? 'errors.network');
      setLoading(false);
      return;
    }
    const { state: next, cookie } = accountsLoaded(stateRef.current, answer.Data, readCookie(ACCOUNT_COOKIE));
    applyCookie(cookie);
    stateRef.current = next;
    setState(next);
    setLoading(false);
    await refresh();
  }, [lang, refresh]);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(() => {
    if (!state.accountId) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const tick = async () => {
      if (document.visibilityState === 'visible') await refresh();
      timer = setTimeout(tick, interval);
    };
    timer = setTimeout(tick, interval);
    return () => {
      if (timer) clearTimeout(timer);
    };
  }, [state.accountId, interval, refresh]);

  const value = useMemo<TTradingContext>(
    () => ({
      state,
      info,
      positions,
      orders,
      error,
      loading,
      select: (accountId) => {
        const { state: next, cookie } = chooseAccount(stateRef.current, accountId);
        applyCookie(cookie);
        stateRef.current = next;
        setState(next);
        setInfo(null);
        setPositions([]);
        setOrders([]);
        void refresh();
      },
      setTradeType: (tradeType) => {
        const { state: next, cookie } = setTradeType(stateRef.current, tradeType);
        writeCookie(TRADE_TYPE_COOKIE, cookie, YEAR);
        stateRef.current = next;
        setState(next);
      },
      remove: (accountId) => {
        const next = removeAccount(stateRef.current, accountId);
        if (stateRef.current.accountId === accountId) removeCookie(ACCOUNT_COOKIE);
        stateRef.current = next;
        setState(next);
      },
      setConnection: (accountId, abnormal) => {
        const next = setConnection(stateRef.current, accountId, abnormal);
        stateRef.current = next;
        setState(next);
        setInfo((current) =>
          current && current.account_id === accountId
            ? { ...current, is_abnormal: abnormal ? 1 : 0 }
            : current,
        );
      },
      reload,
      refresh,
      setRefreshInterval,
    }),
    [state, info, positions, orders, error, loading, refresh, reload],
  );
  return <TradingContext.Provider value={value}>{children}</TradingContext.Provider>;
}

export function useTrading(): TTradingContext {
  const value = useContext(TradingContext);
  if (!value) throw new Error('useTrading outside TradingProvider');
  return value;
}

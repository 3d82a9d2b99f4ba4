import type { TRouteOutput } from '@broker/contracts/routes';
import {
  createContext,
  type ReactNode,
  startTransition,
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
import {
  ACCOUNT_STREAM_TIMING,
  type AccountStream,
  accountStream,
  sameBook,
  type TAccountEvent,
} from './account-stream';

export type TAccountInfo = TRouteOutput<'info'>;
/** The accounts and current figures a server-rendered page starts from (the terminal's). */
export interface TTradingBoot {
  accounts: TRouteOutput<'accountlist'>;
  /** The account cookie the server chose the current account by (the browser sends the same). */
  accountCookie: string | null;
  /** Null for a trader without an account. */
  info: TAccountInfo | null;
  positions: TPosition[];
  orders: TPendingOrder[];
}
export type TPosition = TRouteOutput<'positions'>[number];
export type TPendingOrder = TRouteOutput<'pendingorders'>[number];

const YEAR = 365 * 86_400;
/**
 * Spec 9: refresh interval 3000 ms; the terminal asks for 1000 ms while it is visible. The interval
 * applies while the account stream is down: while it delivers, HTTP only checks it every 15 s.
 */
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
  /** How often figures refresh while the page is visible and the account stream is down (ms). */
  setRefreshInterval(ms: number): void;
  /** Trading events of the current account as the account stream pushes them (not while it is down). */
  subscribeEvents(listener: (events: TAccountEvent[]) => void): () => void;
  /** Whether the account stream delivers this account's figures and events now (else polling). */
  isStreamLive(accountId: number): boolean;
}

const TradingContext = createContext<TTradingContext | null>(null);

function applyCookie(action: TCookieAction) {
  if (action.kind === 'remove') removeCookie(ACCOUNT_COOKIE);
  if (action.kind === 'set') writeCookie(ACCOUNT_COOKIE, action.value, YEAR);
}

/**
 * The signed-in trader's accounts and the current account's live figures (spec 3 user state),
 * following the spec 4 rules in ./account-state. Figures come from the account stream (/ws/account)
 * while it delivers; while it is down they refresh over HTTP on an interval while the page is visible.
 * `refresh` (after every trading action) asks whichever source is in use. Only one source feeds
 * the lists at a time, so they never step back to an older state (which would notify twice): an
 * HTTP answer is dropped once the socket delivers, and older than one already applied. The spec 4
 * connection status follows the socket.
 */
export function TradingProvider({
  children,
  boot = null,
}: {
  children: ReactNode;
  /** The server's first reading (a server-rendered page): no loading state, no first round trip. */
  boot?: TTradingBoot | null;
}) {
  const { lang } = useI18n();
  // Only the first mount starts from the server's reading; the page's later renders own the state.
  const [first] = useState(() =>
    boot
      ? { boot, ...accountsLoaded(INITIAL_ACCOUNT_STATE, boot.accounts, boot.accountCookie ?? undefined) }
      : null,
  );
  const [state, setState] = useState<TAccountState>(first?.state ?? INITIAL_ACCOUNT_STATE);
  const [info, setInfo] = useState<TAccountInfo | null>(first?.boot.info ?? null);
  const [positions, setPositions] = useState<TPosition[]>(first?.boot.positions ?? []);
  const [orders, setOrders] = useState<TPendingOrder[]>(first?.boot.orders ?? []);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(!first);
  const [interval, setRefreshInterval] = useState(DEFAULT_REFRESH_MS);
  const stateRef = useRef(state);
  stateRef.current = state;
  const bookRef = useRef({ positions, orders });
  bookRef.current = { positions, orders };
  const streamRef = useRef<AccountStream | null>(null);
  /** The connection status last set from the socket (spec 4 is_abnormal). */
  const abnormalRef = useRef(false);
  /** HTTP refreshes started and the newest applied, so a late answer never overwrites a newer one. */
  const httpSeq = useRef({ started: 0, applied: 0 });
  const eventListeners = useRef(new Set<(events: TAccountEvent[]) => void>());

  // Spec 4: the trade type is saved in the tradeType cookie whenever it is set, whether by choosing
  // an account (its trade type becomes current) or by setting it; an empty account list removes it.
  useEffect(() => {
    if (state.tradeType !== null) writeCookie(TRADE_TYPE_COOKIE, String(state.tradeType), YEAR);
    else if (state.status === 1) removeCookie(TRADE_TYPE_COOKIE);
  }, [state.tradeType, state.status]);

  const isLive = useCallback((accountId: number) => streamRef.current?.isLive(accountId) ?? false, []);

  const applyConnection = useCallback((accountId: number, abnormal: boolean) => {
    const next = setConnection(stateRef.current, accountId, abnormal);
    stateRef.current = next;
    setState(next);
    setInfo((current) =>
      current && current.account_id === accountId ? { ...current, is_abnormal: abnormal ? 1 : 0 } : current,
    );
  }, []);

  /** Figures, positions and orders over HTTP, applied only while the socket does not deliver them. */
  const poll = useCallback(
    async (accountId: number) => {
      const seq = ++httpSeq.current.started;
      const [i, p, o] = await Promise.all([
        callRoute('info', { account_id: accountId }, lang),
        callRoute('positions', { account_id: accountId }, lang),
        callRoute('pendingorders', { account_id: accountId }, lang),
      ]);
      if (stateRef.current.accountId !== accountId || isLive(accountId)) return;
      if (seq < httpSeq.current.applied) return;
      httpSeq.current.applied = seq;
      if (i.succeed && i.Data) setInfo(abnormalRef.current ? { ...i.Data, is_abnormal: 1 } : i.Data);
      if (p.succeed && p.Data) setPositions(p.Data);
      if (o.succeed && o.Data) setOrders(o.Data);
      const failed = [i, p, o].find((a) => !a.succeed);
      setError(failed ? (failed.messageKey ?? 'errors.network') : null);
    },
    [lang, isLive],
  );

  /**
   * The safety check while the socket delivers: the positions and orders over HTTP compared with
   * the pushed ones. A difference asks the socket for a fresh snapshot; a socket that does not
   * answer is dropped, and HTTP polling takes over.
   */
  const checkStream = useCallback(
    async (accountId: number) => {
      const [p, o] = await Promise.all([
        callRoute('positions', { account_id: accountId }, lang),
        callRoute('pendingorders', { account_id: accountId }, lang),
      ]);
      if (!p.succeed || !p.Data || !o.succeed || !o.Data) return;
      if (stateRef.current.accountId !== accountId || !isLive(accountId)) return;
      if (!sameBook({ positions: p.Data, orders: o.Data }, bookRef.current))
        await streamRef.current?.requestSnapshot(accountId);
    },
    [lang, isLive],
  );

  const refresh = useCallback(async () => {
    const accountId = stateRef.current.accountId;
    if (!accountId) {
      setInfo(null);
      setPositions([]);
      setOrders([]);
      return;
    }
    if (await streamRef.current?.requestSnapshot(accountId)) return;
    await poll(accountId);
  }, [poll]);

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

  // A server-rendered start has its list and figures: it only settles the account cookie as the
  // browser's own load would have (the account stream then takes over the figures).
  const started = useRef(false);
  useEffect(() => {
    if (first && !started.current) {
      started.current = true;
      applyCookie(first.cookie);
      return;
    }
    void reload();
  }, [reload, first]);

  // The account stream: snapshots and events of the current account, and the connection status.
  useEffect(() => {
    const accountId = state.accountId;
    if (!accountId || !userInfoFromCookie()) return;
    const stream = accountStream();
    streamRef.current = stream;
    const stopWatching = stream.watch(accountId, {
      snapshot: (data) => {
        if (stateRef.current.accountId !== accountId) return;
        // Pushed figures render as a transition, like streamed prices (market-stream useQuotes).
        startTransition(() => {
          setInfo(data.info);
          setPositions(data.positions);
          setOrders(data.orders);
          setError(null);
        });
      },
      events: (events) => {
        for (const listener of eventListeners.current) listener(events);
      },
    });
    const syncConnection = (abnormal: boolean) => {
      if (abnormal === abnormalRef.current) return;
      abnormalRef.current = abnormal;
      applyConnection(accountId, abnormal);
    };
    const stopSyncing = stream.onAbnormal(syncConnection);
    syncConnection(stream.isAbnormal());
    return () => {
      stopSyncing();
      stopWatching();
      syncConnection(false);
    };
  }, [state.accountId, applyConnection]);

  // HTTP: polling at the refresh interval while the socket is down, a safety check while it is up.
  useEffect(() => {
    const accountId = state.accountId;
    if (!accountId) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let checkedAt = Date.now();
    const tick = async () => {
      if (document.visibilityState === 'visible') {
        if (!isLive(accountId)) {
          checkedAt = Date.now();
          await poll(accountId);
        } else if (Date.now() - checkedAt >= ACCOUNT_STREAM_TIMING.safetyCheckMs) {
          checkedAt = Date.now();
          await checkStream(accountId);
        }
      }
      if (!cancelled) timer = setTimeout(tick, interval);
    };
    timer = setTimeout(tick, interval);
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [state.accountId, interval, poll, checkStream, isLive]);

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
        // The tradeType cookie follows the state (the effect above).
        const { state: next } = setTradeType(stateRef.current, tradeType);
        stateRef.current = next;
        setState(next);
      },
      remove: (accountId) => {
        const next = removeAccount(stateRef.current, accountId);
        if (stateRef.current.accountId === accountId) removeCookie(ACCOUNT_COOKIE);
        stateRef.current = next;
        setState(next);
      },
      setConnection: applyConnection,
      reload,
      refresh,
      setRefreshInterval,
      isStreamLive: isLive,
      subscribeEvents: (listener) => {
        eventListeners.current.add(listener);
        return () => eventListeners.current.delete(listener);
      },
    }),
    [state, info, positions, orders, error, loading, refresh, reload, applyConnection, isLive],
  );
  return <TradingContext.Provider value={value}>{children}</TradingContext.Provider>;
}

export function useTrading(): TTradingContext {
  const value = useContext(TradingContext);
  if (!value) throw new Error('useTrading outside TradingProvider');
  return value;
}

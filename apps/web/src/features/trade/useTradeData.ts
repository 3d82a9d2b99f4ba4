import type { TRouteOutput, TUserSettings } from '@broker/contracts/routes';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { callRoute } from '../../lib/api';
import { marketStream, type TNamedQuote } from '../../lib/market-stream';

export type TSymbolSpec = TRouteOutput<'symbols'>[number];

export interface TCatalogue {
  status: 'loading' | 'ready' | 'error';
  /** Every symbol with its name, category and last quote, in catalogue order. */
  items: TNamedQuote[];
  specs: ReadonlyMap<string, TSymbolSpec>;
  retry(): void;
}

/** The catalogue as the server read it for a server-rendered terminal. */
export interface TCatalogueBoot {
  /** The account whose group's specifications `symbols` are. */
  accountId: number;
  items: TNamedQuote[];
  symbols: TRouteOutput<'symbols'>;
}

/**
 * The instruments the terminal trades: specifications (volume grid, digits) and quotes with names.
 * With an account (`accountId` > 0), the specifications are its group's: a group may have its own
 * volume limits, switches and sessions.
 */
export function useCatalogue(lang: string, accountId = 0, boot: TCatalogueBoot | null = null): TCatalogue {
  // A server-rendered terminal starts from the server's reading, for the account it was read for.
  const [first] = useState(() => (boot && boot.accountId === accountId ? boot : null));
  const [state, setState] = useState<Omit<TCatalogue, 'retry'>>(() =>
    first
      ? { status: 'ready', items: first.items, specs: new Map(first.symbols.map((s) => [s.symbol, s])) }
      : { status: 'loading', items: [], specs: new Map() },
  );
  const [attempt, setAttempt] = useState(0);
  const fresh = useRef(first !== null);

  // The broker changed its market (a symbol disabled, new volume limits): read the specs again,
  // keeping the current ones on screen meanwhile.
  useEffect(() => marketStream().onConfig(() => setAttempt((n) => n + 1)), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt reloads after an error or a change
  useEffect(() => {
    if (fresh.current) {
      fresh.current = false;
      return;
    }
    let cancelled = false;
    setState((s) => (s.status === 'ready' ? s : { ...s, status: 'loading' }));
    // An account the server does not know yet (or no longer) falls back to the broker's catalogue.
    const symbols = async () => {
      if (accountId > 0) {
        const own = await callRoute('symbols', { account_id: accountId }, lang);
        if (own.succeed) return own;
      }
      return callRoute('symbols', {}, lang);
    };
    void Promise.all([callRoute('currencyall', {}, lang), symbols()]).then(([quotes, symbols]) => {
      if (cancelled) return;
      if (!quotes.succeed || !quotes.Data || !symbols.succeed || !symbols.Data) {
        setState({ status: 'error', items: [], specs: new Map() });
        return;
      }
      setState({
        status: 'ready',
        items: quotes.Data,
        specs: new Map(symbols.Data.map((s) => [s.symbol, s])),
      });
    });
    return () => {
      cancelled = true;
    };
  }, [lang, attempt, accountId]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return useMemo(() => ({ ...state, retry }), [state, retry]);
}

export type TTradeSettings = Pick<TUserSettings, 'notification' | 'display'>;

/** The server's defaults, used until the trader's own settings have loaded. */
export const DEFAULT_TRADE_SETTINGS: TTradeSettings = {
  notification: {
    createOrder: true,
    closeOrder: true,
    pendingOrder: true,
    ringsOpen: false,
    alertPush: true,
    alertEmail: true,
  },
  display: { floatLayer: true, currentOrder: true, positionCost: true, historyOrder: true },
};

/**
 * The trader's notification and display settings; read again when the tab comes back to the front,
 * so a change made in the settings page (another tab) applies without a reload.
 */
export function useTradeSettings(lang: string, boot: TTradeSettings | null = null): TTradeSettings {
  const [settings, setSettings] = useState<TTradeSettings>(boot ?? DEFAULT_TRADE_SETTINGS);
  const fresh = useRef(boot !== null);
  useEffect(() => {
    let cancelled = false;
    const load = async () => {
      const answer = await callRoute('settings', {}, lang);
      if (!cancelled && answer.succeed && answer.Data) {
        setSettings({ notification: answer.Data.notification, display: answer.Data.display });
      }
    };
    // Read on the server for this page: the next reading is when the tab comes back.
    if (fresh.current) fresh.current = false;
    else void load();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void load();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      cancelled = true;
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [lang]);
  return settings;
}

export type TDeal = TRouteOutput<'dealhistory'>['items'][number];

/** The newest closed deals of an account (optionally one symbol), reloaded when `version` changes. */
export function useDeals(
  accountId: number,
  lang: string,
  options: { symbol?: string; size?: number; version: number; enabled: boolean },
): { status: 'loading' | 'ready' | 'error'; items: TDeal[]; total: number; retry(): void } {
  const { symbol, size = 50, version, enabled } = options;
  const [state, setState] = useState<{
    status: 'loading' | 'ready' | 'error';
    items: TDeal[];
    total: number;
  }>({ status: 'loading', items: [], total: 0 });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version and attempt reload the list
  useEffect(() => {
    if (!enabled || !accountId) return;
    let cancelled = false;
    void callRoute(
      'dealhistory',
      { account_id: accountId, page: 1, size, ...(symbol ? { symbol } : {}) },
      lang,
    ).then((answer) => {
      if (cancelled) return;
      if (answer.succeed && answer.Data) {
        setState({ status: 'ready', items: answer.Data.items, total: answer.Data.total });
      } else setState((s) => ({ ...s, status: s.items.length > 0 ? 'ready' : 'error' }));
    });
    return () => {
      cancelled = true;
    };
  }, [accountId, lang, symbol, size, version, enabled, attempt]);
  // A new account or symbol starts from an empty list.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the list belongs to the account and symbol
  useEffect(() => {
    setState({ status: 'loading', items: [], total: 0 });
  }, [accountId, symbol]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}

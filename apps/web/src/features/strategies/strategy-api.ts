import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { useEffect, useRef, useState } from 'react';
import type { TCallResult } from '../../lib/use-call';

export type TStrategy = TRouteOutput<'strategylist'>['items'][number];
export type TStrategyDetail = TRouteOutput<'strategydetail'>;
export type TLogEntry = TStrategyDetail['log'][number];
export type TPreview = TRouteOutput<'strategypreview'>;
export type TBacktest = TRouteOutput<'strategybacktest'>;
export type TBacktestInput = TRouteInput<'strategybacktest'>;
export type TBacktestDays = TBacktestInput['days'];
export type TMainAccount = TRouteOutput<'accountlist'>[number];
export type TPosition = TRouteOutput<'positions'>[number];
export type TPendingOrder = TRouteOutput<'pendingorders'>[number];
export type TDeal = TRouteOutput<'dealhistory'>['items'][number];

export const BACKTEST_DAYS: readonly TBacktestDays[] = [7, 30, 90];

/** An answer asked for the inputs of the moment: nothing to ask yet, on its way (with the last one), or come. */
export type TAsk<T> =
  | { status: 'idle' }
  | { status: 'loading'; last: T | null }
  | { status: 'ready'; data: T }
  | { status: 'failed'; message: string; code: number };

/** The answer to show: the one that came, or the last one while the next is on its way. */
export const shownData = <T>(ask: TAsk<T>): T | null =>
  ask.status === 'ready' ? ask.data : ask.status === 'loading' ? ask.last : null;

/**
 * Asks `fetcher` for `key` once the inputs have rested `delayMs` (a key of null asks nothing): every
 * change restarts the wait and cancels the call on its way, so only the newest answer is kept.
 */
export function useDebouncedAsk<T>(
  key: string | null,
  fetcher: (signal: AbortSignal) => Promise<TCallResult<T>>,
  delayMs: number,
): TAsk<T> {
  const [state, setState] = useState<TAsk<T>>({ status: 'idle' });
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  useEffect(() => {
    if (key === null) {
      setState({ status: 'idle' });
      return;
    }
    setState((previous) => ({ status: 'loading', last: shownData(previous) }));
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      const answer = await fetcherRef.current(controller.signal);
      if (controller.signal.aborted) return;
      setState(
        'ok' in answer
          ? { status: 'ready', data: answer.data }
          : { status: 'failed', message: answer.message, code: answer.code },
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, delayMs]);
  return state;
}

/**
 * Backtests answered in the last ten minutes, by their input, kept for the tab (sessionStorage): the
 * strategy home's six templates and the form ask for the same runs again as the trader moves between
 * them or reloads, and each one replays weeks of candles on the server (which allows a trader 20 a
 * minute).
 */
const BACKTEST_TTL_MS = 10 * 60_000;
const BACKTEST_STORE = 'strategy.backtests';

type TKept = Record<string, { at: number; data: TBacktest }>;

function keptBacktests(): TKept {
  try {
    const kept = JSON.parse(sessionStorage.getItem(BACKTEST_STORE) ?? '{}') as TKept;
    const now = Date.now();
    return Object.fromEntries(Object.entries(kept).filter(([, entry]) => now - entry.at < BACKTEST_TTL_MS));
  } catch {
    return {};
  }
}

export async function cachedBacktest(
  input: TBacktestInput,
  ask: (input: TBacktestInput) => Promise<TCallResult<TBacktest>>,
): Promise<TCallResult<TBacktest>> {
  const key = JSON.stringify(input);
  const kept = keptBacktests()[key];
  if (kept) return { ok: true, data: kept.data };
  const answer = await ask(input);
  if ('ok' in answer) {
    // read again: other runs may have been kept while this one ran
    const entries = Object.entries({ ...keptBacktests(), [key]: { at: Date.now(), data: answer.data } });
    try {
      sessionStorage.setItem(BACKTEST_STORE, JSON.stringify(Object.fromEntries(entries.slice(-30))));
    } catch {
      // a full or unavailable storage only costs a new run next time
    }
  }
  return answer;
}

/** Calls `refresh` every `intervalMs` while the page is visible and `active` holds. */
export function useRefresh(refresh: () => void, active: boolean, intervalMs = 4_000) {
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') refreshRef.current();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
}

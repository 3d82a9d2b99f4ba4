import type { TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { PAGE_SIZE, type THistoryTab } from './history-filters';

export type TDeal = TRouteOutput<'dealhistory'>['items'][number];
export type TFinishedOrder = TRouteOutput<'orderhistory'>['items'][number];
export type TPage<T> = { items: T[]; total: number; page: number; size: number };

export type THistoryLoad =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; tab: 'deals'; data: TPage<TDeal> }
  | { status: 'ready'; tab: 'orders'; data: TPage<TFinishedOrder> };

export interface THistoryQuery {
  tab: THistoryTab;
  accountId: number;
  from: number;
  to?: number;
  symbol: string;
  page: number;
}

/**
 * One page of closed positions (dealhistory) or finished orders (orderhistory). Only the answer to
 * the latest query is shown, so a slow answer to an older filter cannot overwrite a newer one.
 */
export function useHistory(query: THistoryQuery | null) {
  const { t, lang } = useI18n();
  const [load, setLoad] = useState<THistoryLoad>({ status: 'idle' });
  const latest = useRef(0);
  const key = query ? JSON.stringify(query) : '';

  const fetchPage = useCallback(async () => {
    const request = ++latest.current;
    if (!key) {
      setLoad({ status: 'idle' });
      return;
    }
    const q = JSON.parse(key) as THistoryQuery;
    setLoad({ status: 'loading' });
    const input = {
      account_id: q.accountId,
      from: q.from,
      ...(q.to === undefined ? {} : { to: q.to }),
      ...(q.symbol ? { symbol: q.symbol } : {}),
      page: q.page,
      size: PAGE_SIZE,
    };
    if (q.tab === 'deals') {
      const answer = await callRoute('dealhistory', input, lang);
      if (request !== latest.current) return;
      setLoad(
        answer.succeed && answer.Data
          ? { status: 'ready', tab: 'deals', data: answer.Data }
          : { status: 'failed', message: failureText(answer, t) },
      );
    } else {
      const answer = await callRoute('orderhistory', input, lang);
      if (request !== latest.current) return;
      setLoad(
        answer.succeed && answer.Data
          ? { status: 'ready', tab: 'orders', data: answer.Data }
          : { status: 'failed', message: failureText(answer, t) },
      );
    }
  }, [key, lang, t]);

  useEffect(() => {
    void fetchPage();
  }, [fetchPage]);
  return { load, reload: fetchPage };
}

/** A copy account of the trader (spec 3: copy trading's sub-accounts), listed beside the main accounts. */
export interface TCopyAccountOption {
  account_id: number;
  currency: string;
  leaderNick: string;
  stopped: boolean;
}

/**
 * The trader's copy accounts (running and stopped), so that their closed copies (close reason 4)
 * can be read here too. An empty list while loading or when the call fails: the main accounts stay.
 */
export function useCopyAccounts(enabled: boolean): TCopyAccountOption[] {
  const { lang } = useI18n();
  const [list, setList] = useState<TCopyAccountOption[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void callRoute('followmine', { includeStopped: true }, lang).then((answer) => {
      if (!live || !answer.succeed || !answer.Data) return;
      setList(
        answer.Data.items.map((c) => ({
          account_id: c.copy_account_id,
          currency: c.currency,
          leaderNick: c.leaderNick,
          stopped: c.status === 'stopped',
        })),
      );
    });
    return () => {
      live = false;
    };
  }, [enabled, lang]);
  return list;
}

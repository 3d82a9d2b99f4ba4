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

/**
 * A sub-account of the trader listed beside the main accounts (spec 3): a copy account (copy
 * trading) or a strategy account (a grid or martingale bot), so that their closed positions (close
 * reasons 4, 5 and 6) can be read here too.
 */
export type TSubAccountOption =
  | { purpose: 'copy'; account_id: number; currency: string; leaderNick: string }
  | {
      purpose: 'strategy';
      account_id: number;
      currency: string;
      strategyId: number;
      kind: 'grid' | 'martingale';
      symbol: string;
    };

/**
 * The trader's copy accounts (running and stopped) and strategy accounts (every bot, stopped ones
 * included). An empty list while loading; a call that fails leaves its part out: the main accounts stay.
 */
export function useSubAccounts(enabled: boolean): TSubAccountOption[] {
  const { lang } = useI18n();
  const [list, setList] = useState<TSubAccountOption[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void Promise.all([
      callRoute('followmine', { includeStopped: true }, lang),
      callRoute('strategylist', { includeClosed: true }, lang),
    ]).then(([copies, bots]) => {
      if (!live) return;
      const options: TSubAccountOption[] = [];
      if (copies.succeed && copies.Data)
        for (const c of copies.Data.items)
          options.push({
            purpose: 'copy',
            account_id: c.copy_account_id,
            currency: c.currency,
            leaderNick: c.leaderNick,
          });
      if (bots.succeed && bots.Data)
        for (const b of bots.Data.items)
          options.push({
            purpose: 'strategy',
            account_id: b.account_id,
            currency: b.currency,
            strategyId: b.strategy_id,
            kind: b.kind,
            symbol: b.symbol,
          });
      setList(options);
    });
    return () => {
      live = false;
    };
  }, [enabled, lang]);
  return list;
}

import type { TRouteOutput } from '@broker/contracts/routes';
import { useEffect, useState } from 'react';
import { shipped } from '../../app/upcoming';
import { callRoute } from '../../lib/api';
import type { TPendingOrder, TPosition } from '../../lib/trading/store';

export type TBot = TRouteOutput<'strategylist'>['items'][number];

/** A working bot of the current account with what its strategy account holds now. */
export interface TBotBook {
  bot: TBot;
  positions: TPosition[];
  orders: TPendingOrder[];
  /** Whether its positions and orders were read (only while the tab is open). */
  loaded: boolean;
}

export type TBotsLoad =
  | { status: 'loading' | 'error'; books: TBotBook[] }
  | { status: 'ready'; books: TBotBook[] };

/** How often the bots are read: often while their tab is open, rarely for the tab's count. */
export const BOTS_REFRESH_MS = { open: 3000, closed: 15_000 } as const;

/**
 * The bots of the trader's current main account that still hold something (waiting, running, or
 * stopped with positions open), each with its strategy account's positions and orders. The bots run
 * on their own strategy accounts, so the terminal reads them beside the current account's own book.
 * Their positions and orders are only read while the tab is open (`detailed`).
 */
export function useBots(accountId: number, detailed: boolean, lang: string): TBotsLoad {
  const [load, setLoad] = useState<TBotsLoad>({ status: 'loading', books: [] });
  const enabled = shipped('strategies') && accountId > 0;

  useEffect(() => {
    if (!enabled) {
      setLoad({ status: 'ready', books: [] });
      return;
    }
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      const list = await callRoute('strategylist', { includeClosed: false }, lang);
      if (!live) return;
      if (!list.succeed || !list.Data) {
        setLoad((current) => ({ status: 'error', books: current.books }));
      } else {
        const bots = list.Data.items.filter(
          (b) => b.parent_account_id === accountId && b.state !== 'stopped_closed',
        );
        const books = await Promise.all(
          bots.map(async (bot): Promise<TBotBook> => {
            if (!detailed) return { bot, positions: [], orders: [], loaded: false };
            const [positions, orders] = await Promise.all([
              callRoute('positions', { account_id: bot.account_id }, lang),
              callRoute('pendingorders', { account_id: bot.account_id }, lang),
            ]);
            return {
              bot,
              positions: positions.succeed && positions.Data ? positions.Data : [],
              orders: orders.succeed && orders.Data ? orders.Data : [],
              loaded: true,
            };
          }),
        );
        if (!live) return;
        setLoad({ status: 'ready', books });
      }
      timer = setTimeout(read, detailed ? BOTS_REFRESH_MS.open : BOTS_REFRESH_MS.closed);
    };
    void read();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [enabled, accountId, detailed, lang]);

  return load;
}

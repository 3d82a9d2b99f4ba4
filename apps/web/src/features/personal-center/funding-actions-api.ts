import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import type { TLoad } from './accounts-api';

export type TSubAccount = TRouteOutput<'subaccounts'>['items'][number];
export type TTransferType = TRouteInput<'transfer'>['type'];
export type TCoins = TRouteOutput<'coins'>;
export type TPurpose = TSubAccount['purpose'];

/** Account types (spec 3): 1 demo, 2 real, 3 experience. Real and experience accounts hold real money. */
export const REAL_TYPE = 2;
export const EXPERIENCE_TYPE = 3;

/** The two transfer types of each kind of sub-account (spec 3, 4): out of the main account, back in. */
export const TRANSFERS: Record<TPurpose, { out: TTransferType; in: TTransferType }> = {
  copy: { out: 'transfer_follow_out', in: 'transfer_follow_in' },
  strategy: { out: 'transfer_strategy_out', in: 'transfer_strategy_in' },
};

/** A read kept as a load state; only the latest answer is kept, a refresh keeps showing the data. */
function useLoad<T>(key: string | null, fetch: () => Promise<{ data: T } | { message: string }>) {
  const [load, setLoad] = useState<TLoad<T>>({ status: 'loading' });
  const latest = useRef(0);
  const fetchRef = useRef(fetch);
  fetchRef.current = fetch;
  const run = useCallback(
    async (quiet = false) => {
      const request = ++latest.current;
      if (key === null) return;
      if (!quiet) setLoad({ status: 'loading' });
      const answer = await fetchRef.current();
      if (request !== latest.current) return;
      setLoad(
        'data' in answer
          ? { status: 'ready', data: answer.data }
          : { status: 'failed', message: answer.message },
      );
    },
    [key],
  );
  useEffect(() => {
    void run();
  }, [run]);
  return { load, reload: (quiet = true) => run(quiet) };
}

/** The copy and strategy sub-accounts of one main account. */
export function useSubAccounts(accountId: number) {
  const { t, lang } = useI18n();
  return useLoad<TSubAccount[]>(`sub:${accountId}`, async () => {
    const answer = await callRoute('subaccounts', { account_id: accountId }, lang);
    return answer.succeed && answer.Data ? { data: answer.Data.items } : { message: failureText(answer, t) };
  });
}

/** The trader's coins, the exchange cap and the latest entries. */
export function useCoins() {
  const { t, lang } = useI18n();
  return useLoad<TCoins>('coins', async () => {
    const answer = await callRoute('coins', { page: 1, size: 5 }, lang);
    return answer.succeed && answer.Data ? { data: answer.Data } : { message: failureText(answer, t) };
  });
}

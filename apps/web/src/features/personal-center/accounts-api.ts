import type { TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useState } from 'react';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { newIdempotencyKey } from '../../lib/trading/orders';

export type TCategory = TRouteOutput<'accountcategory'>[number];
export type TAccountInfo = TRouteOutput<'info'>;

export type TLoad<T> =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; data: T };

/** Account types the trader can open (accountcategory), with how many of each remain per mode. */
export function useCategories() {
  const { t, lang } = useI18n();
  const [load, setLoad] = useState<TLoad<TCategory[]>>({ status: 'loading' });
  const fetchCategories = useCallback(async () => {
    const answer = await callRoute('accountcategory', {}, lang);
    setLoad(
      answer.succeed && answer.Data
        ? { status: 'ready', data: answer.Data }
        : { status: 'failed', message: failureText(answer, t) },
    );
  }, [lang, t]);
  useEffect(() => {
    void fetchCategories();
  }, [fetchCategories]);
  return { load, reload: fetchCategories };
}

/** One account's live figures (info), for a page that shows an account other than the current one. */
export function useAccountInfo(accountId: number | null) {
  const { t, lang } = useI18n();
  const [load, setLoad] = useState<TLoad<TAccountInfo>>({ status: 'loading' });
  const fetchInfo = useCallback(async () => {
    if (!accountId) return;
    setLoad({ status: 'loading' });
    const answer = await callRoute('info', { account_id: accountId }, lang);
    setLoad(
      answer.succeed && answer.Data
        ? { status: 'ready', data: answer.Data }
        : { status: 'failed', message: failureText(answer, t) },
    );
  }, [accountId, lang, t]);
  useEffect(() => {
    void fetchInfo();
  }, [fetchInfo]);
  return { load, reload: fetchInfo };
}

export interface TNewAccount {
  accountType: 1 | 2 | 3;
  tradeType: 1 | 2;
  leverage: number;
}

/** Opens an account; the key makes a repeated confirmation (a retry after a lost answer) open it once. */
export function createAccount(choice: TNewAccount, idempotencyKey: string, lang: string) {
  return callRoute(
    'accountcreate',
    {
      account_type: choice.accountType,
      trade_type: choice.tradeType,
      leverage: choice.leverage,
      idempotencyKey,
    },
    lang,
  );
}

/** Resets a demo account to its starting balance (a trading call: it needs the trade token). */
export function resetDemo(accountId: number, lang: string, idempotencyKey: string = newIdempotencyKey()) {
  return callRoute('demoreset', { account_id: accountId, idempotencyKey }, lang, { trade: true });
}

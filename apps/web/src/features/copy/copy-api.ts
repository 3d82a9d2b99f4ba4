import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';

export type TLeaderSummary = TRouteOutput<'followleaders'>['items'][number];
export type TLeaderList = TRouteOutput<'followleaders'>;
export type TLeaderProfile = TRouteOutput<'followleader'>;
export type TWhatIf = TRouteOutput<'followwhatif'>;
export type TCopy = TRouteOutput<'followmine'>['items'][number];
export type TMine = TRouteOutput<'followmine'>;
export type TParity = TRouteOutput<'followparity'>;
export type TParityTrade = TParity['trades'][number];
export type TDashboard = TRouteOutput<'followdashboard'>;
export type TLeaderAccount = TDashboard['leaders'][number];
export type TMainAccount = TRouteOutput<'accountlist'>[number];

/** A failed call as a page keeps it: the text to show (failureText), and the answer's field messages. */
export type TFailed = { status: 'failed'; message: string; code: number; fields: Record<string, string> };
export type TLoad<T> = { status: 'loading' } | TFailed | { status: 'ready'; data: T };
export type TCallResult<T> = { ok: true; data: T } | TFailed;

/** Account types that may lead: 1 demo and 2 real main accounts (not experience). */
export const LEADER_ACCOUNT_TYPES: readonly number[] = [1, 2];

/** A route call answering its data or the failure's translated text, in the page's language. */
export function useCall() {
  const { t, lang } = useI18n();
  return useCallback(
    async <N extends TRouteName>(
      name: N,
      input: TRouteInput<N>,
      signal?: AbortSignal,
    ): Promise<TCallResult<NonNullable<TRouteOutput<N>>>> => {
      const answer = await callRoute(name, input, lang, signal ? { signal } : {});
      if (answer.succeed && answer.Data !== null && answer.Data !== undefined)
        return { ok: true, data: answer.Data as NonNullable<TRouteOutput<N>> };
      return {
        status: 'failed',
        message: failureText(answer, t),
        code: answer.code,
        fields: answer.fields ?? {},
      };
    },
    [lang, t],
  );
}

/**
 * One read kept as a load state, read again when `key` changes (null: not yet). Only the answer to the
 * latest request is kept, so a slow answer to an older key never overwrites a newer one; `reload(true)`
 * keeps showing the data while it reads again (a refresh after an action).
 */
export function useLoad<T>(key: string | null, fetcher: (signal: AbortSignal) => Promise<TCallResult<T>>) {
  const [load, setLoad] = useState<TLoad<T>>({ status: 'loading' });
  const latest = useRef(0);
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const run = useCallback(
    async (quiet = false) => {
      const request = ++latest.current;
      if (key === null) return;
      const controller = new AbortController();
      if (!quiet) setLoad({ status: 'loading' });
      const answer = await fetcherRef.current(controller.signal);
      if (request !== latest.current) return;
      setLoad('ok' in answer ? { status: 'ready', data: answer.data } : answer);
    },
    [key],
  );
  useEffect(() => {
    void run();
    return () => {
      latest.current++;
    };
  }, [run]);
  return { load, reload: (quiet = true) => run(quiet) };
}

/** The trader's main accounts (the personal centre's list), for the follow and apply forms; `enabled` false reads nothing. */
export function useMainAccounts(enabled = true) {
  const call = useCall();
  return useLoad<TMainAccount[]>(enabled ? 'accounts' : null, (signal) => call('accountlist', {}, signal));
}

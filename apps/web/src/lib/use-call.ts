import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callRoute } from './api';
import { failureText } from './failure-text';
import { useI18n } from './i18n';

/** A failed call as a page keeps it: the text to show (failureText), its code and the field messages. */
export type TFailed = { status: 'failed'; message: string; code: number; fields: Record<string, string> };
export type TLoad<T> = { status: 'loading' } | TFailed | { status: 'ready'; data: T };
export type TCallResult<T> = { ok: true; data: T } | TFailed;

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
export function useLoad<T, F extends { status: 'failed' } = TFailed>(
  key: string | null,
  fetcher: (signal: AbortSignal) => Promise<{ ok: true; data: T } | F>,
) {
  const [load, setLoad] = useState<{ status: 'loading' } | F | { status: 'ready'; data: T }>({
    status: 'loading',
  });
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

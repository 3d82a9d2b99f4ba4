import { useCallback, useEffect, useRef, useState } from 'react';
import type { TFailed } from './funding-api';

/** First wait between two reads, the growth per read and the longest wait (ms). */
export const POLL_BACKOFF = { first: 1000, factor: 1.6, max: 15_000 } as const;

/** The wait before read number `attempt` (0-based) of a poll with back-off. */
export const pollDelay = (attempt: number) =>
  Math.min(POLL_BACKOFF.max, Math.round(POLL_BACKOFF.first * POLL_BACKOFF.factor ** attempt));

/**
 * Reads something again and again until it is final: at once, then after 1 s, 1.6 s, 2.6 s, ... up to
 * 15 s between reads, so a payment that settles in seconds shows at once and one that takes an hour
 * costs few requests. `poke` reads now and starts the back-off again (after an action that should move
 * the state, or when the tab becomes visible). Stops when `isFinal` says so, or when `key` is null.
 */
export function usePolling<T>(
  key: string | null,
  fetcher: (signal: AbortSignal) => Promise<{ ok: true; data: T } | TFailed>,
  isFinal: (value: T) => boolean,
  initial: T | null = null,
) {
  const [data, setData] = useState<T | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const finalRef = useRef(isFinal);
  finalRef.current = isFinal;
  const pokeRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    if (key === null) return;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let controller = new AbortController();
    const read = async () => {
      if (stopped) return;
      clearTimeout(timer);
      controller.abort();
      controller = new AbortController();
      const answer = await fetcherRef.current(controller.signal);
      if (stopped || controller.signal.aborted) return;
      if ('ok' in answer) {
        setData(answer.data);
        setError(null);
        if (finalRef.current(answer.data)) {
          stopped = true;
          return;
        }
      } else setError(answer.message);
      timer = setTimeout(() => void read(), pollDelay(attempt++));
    };
    pokeRef.current = () => {
      attempt = 0;
      void read();
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') pokeRef.current();
    };
    document.addEventListener('visibilitychange', onVisible);
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
      document.removeEventListener('visibilitychange', onVisible);
      pokeRef.current = () => undefined;
    };
  }, [key]);

  const poke = useCallback(() => pokeRef.current(), []);
  return { data, error, poke };
}

import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callApi, type TAdminRouteName } from '../api';
import { ApiError, isAbortError } from '../lib/api';

export type TQueryState<T> =
  | { status: 'loading'; data: T | null }
  | { status: 'ready'; data: T }
  | { status: 'error'; data: T | null; error: ApiError };

const asApiError = (error: unknown) =>
  error instanceof ApiError ? error : new ApiError('http', String(error));

/**
 * Loads one route's answer and keeps it: `reload()` asks again (keeping the previous data on screen
 * while loading), and a change of `key` (a JSON of the input, for example) asks again by itself.
 */
export function useQuery<N extends TAdminRouteName>(
  name: N,
  input: TRouteInput<N>,
  key = JSON.stringify(input ?? {}),
): TQueryState<TRouteOutput<N>> & { reload: () => void } {
  const [state, setState] = useState<TQueryState<TRouteOutput<N>>>({ status: 'loading', data: null });
  const inputRef = useRef(input);
  inputRef.current = input;
  const pending = useRef<AbortController | null>(null);
  const load = useCallback(() => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setState((s) => ({ status: 'loading', data: s.data }));
    callApi(name, inputRef.current, { signal: controller.signal }).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        setState((s) => ({ status: 'error', data: s.data, error: asApiError(error) }));
      },
    );
  }, [name]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the input.
  useEffect(() => {
    load();
    return () => pending.current?.abort();
  }, [load, key]);
  return { ...state, reload: load };
}

export type TMutation<N extends TAdminRouteName> = {
  run(input: TRouteInput<N>): Promise<TRouteOutput<N> | null>;
  pending: boolean;
  error: ApiError | null;
  reset(): void;
};

/** Sends a changing call; keeps whether it is running and the last error (translated by the server). */
export function useMutation<N extends TAdminRouteName>(name: N): TMutation<N> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(
    async (input: TRouteInput<N>) => {
      setPending(true);
      setError(null);
      try {
        return await callApi(name, input);
      } catch (e) {
        setError(asApiError(e));
        return null;
      } finally {
        setPending(false);
      }
    },
    [name],
  );
  return { run, pending, error, reset: () => setError(null) };
}

/** A new idempotency key for a money call (one per confirmed action, reused on retry). */
export const newIdempotencyKey = (): string => crypto.randomUUID();

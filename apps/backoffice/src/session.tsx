import type { TRouteOutput } from '@broker/contracts/routes';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { callApi } from './api';
import { ApiError, configureApi, isAbortError, onUnauthorized } from './lib/api';

export type TStaff = Omit<TRouteOutput<'adminme'>, 'csrfToken'>;

export type TSessionState =
  | { status: 'loading' }
  | { status: 'ready'; staff: TStaff }
  | { status: 'anonymous'; reason: 'initial' | 'expired' | 'signedOut' }
  | { status: 'error'; error: ApiError };

interface TSession {
  state: TSessionState;
  /** Keeps the answer of a successful sign-in. */
  signedIn(answer: TRouteOutput<'adminlogin'>): void;
  signOut(): Promise<void>;
  reload(): void;
  /** Asks the server again without leaving the page (after a change to one's own security). */
  refresh(): Promise<void>;
  can(permission: string): boolean;
}

const SessionContext = createContext<TSession | null>(null);

function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError('http', String(error));
}

/** Asks the server who is signed in when the app opens, and keeps the answer. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<TSessionState>({ status: 'loading' });
  const pending = useRef<AbortController | null>(null);

  const reload = useCallback(() => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setState({ status: 'loading' });
    callApi('adminme', {}, { signal: controller.signal }).then(
      ({ csrfToken, ...staff }) => {
        if (controller.signal.aborted) return;
        configureApi({ csrfToken });
        setState({ status: 'ready', staff });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        const apiError = asApiError(error);
        setState(
          apiError.unauthorized
            ? { status: 'anonymous', reason: 'initial' }
            : { status: 'error', error: apiError },
        );
      },
    );
  }, []);

  useEffect(() => {
    reload();
    return () => pending.current?.abort();
  }, [reload]);

  useEffect(
    () =>
      onUnauthorized(() => {
        configureApi({ csrfToken: null });
        setState((current) =>
          current.status === 'ready' ? { status: 'anonymous', reason: 'expired' } : current,
        );
      }),
    [],
  );

  const signedIn = useCallback((answer: TRouteOutput<'adminlogin'>) => {
    pending.current?.abort();
    configureApi({ csrfToken: answer.csrfToken });
    setState({ status: 'ready', staff: answer.staff });
  }, []);

  const refresh = useCallback(async () => {
    try {
      const { csrfToken, ...staff } = await callApi('adminme', {});
      configureApi({ csrfToken });
      setState((current) => (current.status === 'ready' ? { status: 'ready', staff } : current));
    } catch {
      // An ended session is reported through onUnauthorized; anything else keeps the current state.
    }
  }, []);

  const signOut = useCallback(async () => {
    try {
      await callApi('adminlogout', {});
    } catch {
      // The server clears the session cookie; locally the session ends either way.
    }
    configureApi({ csrfToken: null });
    setState({ status: 'anonymous', reason: 'signedOut' });
  }, []);

  const value = useMemo<TSession>(
    () => ({
      state,
      signedIn,
      signOut,
      reload,
      refresh,
      can: (permission) => state.status === 'ready' && state.staff.permissions.includes(permission),
    }),
    [state, signedIn, signOut, reload, refresh],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): TSession {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in staff member; only for pages under RequireSession. */
export function useStaff(): TStaff {
  const { state } = useSession();
  if (state.status !== 'ready') throw new Error('useStaff without a session');
  return state.staff;
}

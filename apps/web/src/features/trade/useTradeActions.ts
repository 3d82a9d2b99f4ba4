import type { TUnwrapped } from '@broker/contracts/envelope';
import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { newIdempotencyKey, sendOrder } from '../../lib/trading/orders';
import { useTrading } from '../../lib/trading/store';
import { useToasts } from './notifications';
import { pendingType, SUBMIT_GUARD_MS, SubmitGate } from './ticket-rules';
import { ActionKeys } from './trade-events';

export type TActionResult<T> = { ok: true; data: T } | { ok: false; code: number; message: string };

/** The outcome of a call that never reached the server (or whose answer was lost) is unknown. */
const isUnknownOutcome = (answer: { succeed: boolean; code: number; messageKey?: string }) =>
  !answer.succeed &&
  (answer.code === 0 || answer.messageKey === 'errors.network' || answer.messageKey === 'errors.timeout');

type TSendInput = Omit<TRouteInput<'ordersend'>, 'nonce' | 'signature' | 'idempotencyKey' | 'account_id'>;
type TWithoutKey<N extends TRouteName> = Omit<TRouteInput<N>, 'idempotencyKey' | 'account_id'>;

/**
 * The terminal's trading calls on the current account: each carries one idempotency key per user
 * action (kept for a retry after an unknown outcome), refreshes the account right after, and answers
 * a translated message on failure.
 */
export function useTradeActions() {
  const { t, lang } = useI18n();
  const trading = useTrading();
  const keys = useRef(new ActionKeys(newIdempotencyKey));
  const { placed } = useToasts();
  const current = trading.state.current;
  const accountId = current?.account_id ?? 0;
  const leverage = current?.leverage ?? 0;
  const { refresh } = trading;

  const settle = useCallback(
    async <T>(action: string, answer: TUnwrapped<T | null>): Promise<TActionResult<T>> => {
      keys.current.settle(action, !isUnknownOutcome(answer));
      await refresh();
      if (answer.succeed && answer.Data !== null) return { ok: true, data: answer.Data };
      const message = failureText(answer, t);
      return { ok: false, code: answer.code, message };
    },
    [refresh, t],
  );

  const simple = useCallback(
    async <N extends TRouteName>(name: N, input: TWithoutKey<N>): Promise<TActionResult<TRouteOutput<N>>> => {
      const action = `${name}|${accountId}|${JSON.stringify(input)}`;
      const idempotencyKey = keys.current.keyFor(action);
      const answer = await callRoute(
        name,
        { ...input, account_id: accountId, idempotencyKey } as unknown as TRouteInput<N>,
        lang,
        { trade: true },
      );
      return settle(action, answer);
    },
    [accountId, lang, settle],
  );

  return useMemo(
    () => ({
      send: async (input: TSendInput): Promise<TActionResult<TRouteOutput<'ordersend'>>> => {
        const action = `ordersend|${accountId}|${JSON.stringify(input)}`;
        const idempotencyKey = keys.current.keyFor(action);
        try {
          const answer = await sendOrder({ ...input, account_id: accountId, idempotencyKey }, leverage, lang);
          // Known before the refresh, in case the order fills at once.
          if (answer.succeed && answer.Data?.kind === 'order' && input.type !== 'market')
            placed.remember({
              order_id: answer.Data.ticket,
              account_id: accountId,
              symbol: input.symbol,
              type: pendingType(input.side, input.type),
              volume: input.volume,
              price: input.price ?? '',
              limit_price: input.limit_price ?? null,
              activated: false,
              take_profit: input.take_profit ?? null,
              stop_loss: input.stop_loss ?? null,
              time: Date.now(),
              digits: 0,
              strategy_id: null,
            });
          return settle(action, answer);
        } catch {
          // Signing needs the session key: without it nothing was sent.
          return { ok: false, code: 0, message: t('errors.network') };
        }
      },
      modifyPosition: (input: TWithoutKey<'positionmodify'>) => simple('positionmodify', input),
      modifyOrder: (input: TWithoutKey<'ordermodify'>) => simple('ordermodify', input),
      cancelOrder: (input: TWithoutKey<'ordercancel'>) => simple('ordercancel', input),
      closePosition: (input: TWithoutKey<'positionclose'>) => simple('positionclose', input),
      closeAll: (input: TWithoutKey<'closeall'>) => simple('closeall', input),
      resetDemo: () => simple('demoreset', {}),
    }),
    [accountId, leverage, lang, settle, simple, t, placed],
  );
}

/**
 * Locks a submit button for one submission: while it is sent (`busy`) and for a short guard after
 * its result is shown (`locked` covers both), so a double or triple click sends once. The gate is
 * checked synchronously, before React re-renders the disabled button.
 */
export function useSubmitLock() {
  const gate = useRef(new SubmitGate());
  const [busy, setBusy] = useState(false);
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  /** Runs `task` unless a submission is running or guarded; null when the click was ignored. */
  const run = useCallback(async <T>(task: () => Promise<T>): Promise<T | null> => {
    if (!gate.current.tryStart()) return null;
    if (timer.current) clearTimeout(timer.current);
    setBusy(true);
    setLocked(true);
    try {
      return await task();
    } finally {
      gate.current.finish();
      setBusy(false);
      timer.current = setTimeout(() => setLocked(false), SUBMIT_GUARD_MS);
    }
  }, []);
  return { busy, locked, run };
}

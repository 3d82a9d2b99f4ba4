import { CSRF_COOKIE, CSRF_HEADER } from '@broker/contracts/envelope';
import { FUNDING_RAW_PATHS } from '@broker/contracts/funding-paths';
import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { useCallback } from 'react';
import { callRoute } from '../../lib/api';
import { readCookie } from '../../lib/cookies';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { useLoad } from '../../lib/use-call';

export type TMethods = TRouteOutput<'fundingmethods'>;
export type TMethodInfo = TMethods['methods'][number];
export type TFundingMethod = TMethodInfo['method'];
export type TDeposit = TRouteOutput<'depositdetail'>;
export type TWithdrawal = TRouteOutput<'withdrawdetail'>;
export type TMovement = TRouteOutput<'financial'>['items'][number];
export type TFinancialPage = TRouteOutput<'financial'>;
export type TFinancialQuery = TRouteInput<'financial'>;
export type TAccountInfo = TRouteOutput<'info'>;
export type TDestination = TRouteInput<'withdrawcreate'>['destination'];

/** A failed call as a page keeps it: the text to show, and the answer's field messages. */
export type TFailed = { status: 'failed'; message: string; fields?: Record<string, string> };
export type TLoad<T> = { status: 'loading' } | TFailed | { status: 'ready'; data: T };

/** The methods of the spec's funding pages, in the order they are offered. */
export const METHOD_ORDER: readonly TFundingMethod[] = [
  'card',
  'ewallet',
  'usdt_trc20',
  'usdt_erc20',
  'bank',
];
/** Account types that hold real money and can be funded: 2 real, 3 experience (1 demo cannot). */
export const REAL_TYPE = 2;
export const EXPERIENCE_TYPE = 3;
export const FUNDABLE_TYPES: readonly number[] = [REAL_TYPE, EXPERIENCE_TYPE];

export const DEPOSIT_FINAL = new Set<TDeposit['status']>(['completed', 'failed', 'expired']);
export const WITHDRAWAL_FINAL = new Set<TWithdrawal['status']>(['completed', 'failed', 'rejected']);

export const isChain = (method: TFundingMethod) => method === 'usdt_trc20' || method === 'usdt_erc20';
export const isHosted = (method: TFundingMethod) => method === 'card' || method === 'ewallet';
/** The built-in sandbox providers (`sandboxcard`, `sandboxchain`, ...) offer simulation buttons. */
export const isSandbox = (provider: string | undefined) => Boolean(provider?.startsWith('sandbox'));

/**
 * One read of the server kept as a load state, fetched again when `key` changes. Only the answer to
 * the latest request is kept, so a slow answer to an older key never overwrites a newer one.
 */
export function useRouteLoad<T>(
  key: string | null,
  fetcher: (signal: AbortSignal) => Promise<{ ok: true; data: T } | TFailed>,
) {
  return useLoad<T, TFailed>(key, fetcher);
}

/** Wraps a route call as a fetcher of useRouteLoad. */
export function useCall() {
  const { t, lang } = useI18n();
  return useCallback(
    async <N extends Parameters<typeof callRoute>[0]>(
      name: N,
      input: TRouteInput<N>,
      signal?: AbortSignal,
    ): Promise<{ ok: true; data: NonNullable<TRouteOutput<N>> } | TFailed> => {
      const answer = await callRoute(name, input, lang, signal ? { signal } : {});
      if (answer.succeed && answer.Data !== null && answer.Data !== undefined)
        return { ok: true, data: answer.Data as NonNullable<TRouteOutput<N>> };
      return { status: 'failed', message: failureText(answer, t), fields: answer.fields ?? {} };
    },
    [lang, t],
  );
}

/** Methods with limits, fees and rates, and the trader's KYC, funding-password and lock state. */
export function useFundingMethods() {
  const call = useCall();
  return useRouteLoad<TMethods>('methods', (signal) => call('fundingmethods', {}, signal));
}

/** The live figures of one account (free margin, equity, restrictions). */
export function useAccountFigures(accountId: number | null) {
  const call = useCall();
  return useRouteLoad<TAccountInfo>(accountId ? `info:${accountId}` : null, (signal) =>
    call('info', { account_id: accountId ?? 0 }, signal),
  );
}

/** The newest movements of some kinds (recent deposits, recent withdrawals). */
export function useRecentMovements(kinds: TMovement['kind'][], size = 8) {
  const call = useCall();
  return useRouteLoad<TFinancialPage>(`recent:${kinds.join(',')}`, (signal) =>
    call('financial', { kinds, page: 1, size }, signal),
  );
}

/** The address of the CSV export of the financial record with the same filters (session cookie). */
export function financialCsvHref(query: Omit<TFinancialQuery, 'page' | 'size'>): string {
  const params = new URLSearchParams();
  // One parameter, the kinds comma-separated (the server splits it).
  if (query.kinds?.length) params.set('kinds', query.kinds.join(','));
  if (query.status) params.set('status', query.status);
  if (query.account_id) params.set('account_id', String(query.account_id));
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  const search = params.toString();
  return `${FUNDING_RAW_PATHS.financialCsv}${search ? `?${search}` : ''}`;
}

/**
 * A call to one of the sandbox providers' simulation endpoints (demo mode only): a chain payment to a
 * deposit address, or a bank transfer with a reference; amounts in cents. Answers whether the sandbox
 * accepted it.
 */
export async function simulate(
  path: '/sandbox/chain/send' | '/sandbox/bank/transfer',
  body: Record<string, string | number>,
): Promise<{ ok: boolean; message: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const csrf = readCookie(CSRF_COOKIE);
  if (csrf) headers[CSRF_HEADER] = csrf;
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    let message = '';
    try {
      // The sandbox answers `{ error }` in English: it stands for the provider's own test console.
      const answer = (await response.json()) as { error?: unknown };
      message = typeof answer.error === 'string' ? answer.error : '';
    } catch {
      // not JSON: the status says enough
    }
    return { ok: response.ok, message };
  } catch {
    return { ok: false, message: '' };
  }
}

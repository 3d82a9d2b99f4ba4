import type { TMovement } from './funding-api';

export type TMovementKind = TMovement['kind'];
/** Every kind of money movement, in the contract's order (MOVEMENT_KINDS, which carries zod). */
export const MOVEMENT_KINDS_LIST: readonly TMovementKind[] = [
  'deposit',
  'withdrawal',
  'transfer_follow_out',
  'transfer_follow_in',
  'transfer_strategy_out',
  'transfer_strategy_in',
  'adjustment',
  'coin_exchange',
];

/** The kind filters a trader picks; `transfer` stands for the four transfer types of spec 3. */
export const KIND_GROUPS = ['deposit', 'withdrawal', 'transfer', 'adjustment', 'coin_exchange'] as const;
export type TKindGroup = (typeof KIND_GROUPS)[number];

export const TRANSFER_KINDS: readonly TMovementKind[] = [
  'transfer_follow_out',
  'transfer_follow_in',
  'transfer_strategy_out',
  'transfer_strategy_in',
];

/** States a movement can be in: those of deposits and withdrawals (transfers are always completed). */
export const FINANCIAL_STATES = [
  'pending',
  'confirming',
  'initiated',
  'awaiting_review',
  'processing',
  'completed',
  'rejected',
  'failed',
  'expired',
] as const;

export const FINANCIAL_PAGE_SIZE = 20;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface TFinancialFilters {
  kinds: TKindGroup[];
  status: string;
  account: number | null;
  from: string;
  to: string;
  page: number;
}

/** The filters from the address (so a reload or a shared link shows the same rows); bad values dropped. */
export function readFinancialFilters(params: URLSearchParams): TFinancialFilters {
  const kinds = params
    .getAll('kind')
    .filter((k): k is TKindGroup => (KIND_GROUPS as readonly string[]).includes(k));
  const status = params.get('status') ?? '';
  const account = params.get('account') ?? '';
  const page = Number(params.get('page'));
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    kinds: [...new Set(kinds)],
    status: (FINANCIAL_STATES as readonly string[]).includes(status) ? status : '',
    account: /^\d{1,15}$/.test(account) ? Number(account) : null,
    from: day('from'),
    to: day('to'),
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

export function writeFinancialFilters(filters: TFinancialFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const kind of filters.kinds) params.append('kind', kind);
  if (filters.status) params.set('status', filters.status);
  if (filters.account !== null) params.set('account', String(filters.account));
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.page > 1) params.set('page', String(filters.page));
  return params;
}

/** The movement kinds the server is asked for: every kind of each group picked, or all when none is. */
export function kindsOf(groups: readonly TKindGroup[]): TMovementKind[] | undefined {
  if (groups.length === 0) return undefined;
  const kinds: TMovementKind[] = [];
  for (const group of groups) {
    if (group === 'transfer') kinds.push(...TRANSFER_KINDS);
    else kinds.push(group);
  }
  return MOVEMENT_KINDS_LIST.filter((k) => kinds.includes(k));
}

/** True when both days are set and the first comes after the second. */
export const reversedDays = (filters: Pick<TFinancialFilters, 'from' | 'to'>) =>
  Boolean(filters.from && filters.to && filters.from > filters.to);

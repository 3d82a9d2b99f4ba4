import { formatMoney, parseScaled } from '@broker/domain/trading/money';

/** History pages hold 20 rows (spec 9: history default page size 20). */
export const PAGE_SIZE = 20;
export const RANGE_PRESETS = ['7', '30', '90'] as const;
export type TRange = (typeof RANGE_PRESETS)[number] | 'custom';
export const HISTORY_TABS = ['deals', 'orders'] as const;
export type THistoryTab = (typeof HISTORY_TABS)[number];

/** The history page's filters, kept in the address so a reload or a shared link shows the same rows. */
export interface THistoryFilters {
  /** null: the current account. */
  account: number | null;
  range: TRange;
  /** Custom range, local calendar days as yyyy-mm-dd. */
  from: string | null;
  to: string | null;
  symbol: string;
  tab: THistoryTab;
  page: number;
}

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const SYMBOL = /^[A-Z0-9]{3,12}$/;
const DEFAULT_RANGE: TRange = '30';

export function readFilters(params: URLSearchParams): THistoryFilters {
  const account = params.get('account') ?? '';
  const range = params.get('range') ?? '';
  const symbol = (params.get('symbol') ?? '').toUpperCase();
  const page = Number(params.get('page'));
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return DATE.test(value) ? value : null;
  };
  return {
    account: /^\d{1,15}$/.test(account) ? Number(account) : null,
    range:
      range === 'custom' || (RANGE_PRESETS as readonly string[]).includes(range)
        ? (range as TRange)
        : DEFAULT_RANGE,
    from: date('from'),
    to: date('to'),
    symbol: SYMBOL.test(symbol) ? symbol : '',
    tab: params.get('tab') === 'orders' ? 'orders' : 'deals',
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

/** The address form of the filters, leaving out the defaults. */
export function writeFilters(filters: THistoryFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.account !== null) params.set('account', String(filters.account));
  if (filters.range !== DEFAULT_RANGE) params.set('range', filters.range);
  if (filters.range === 'custom') {
    if (filters.from) params.set('from', filters.from);
    if (filters.to) params.set('to', filters.to);
  }
  if (filters.symbol) params.set('symbol', filters.symbol);
  if (filters.tab !== 'deals') params.set('tab', filters.tab);
  if (filters.page > 1) params.set('page', String(filters.page));
  return params;
}

function localDay(value: string, offsetDays = 0): number {
  const [, y, m, d] = DATE.exec(value) as RegExpExecArray;
  return new Date(Number(y), Number(m) - 1, Number(d) + offsetDays).getTime();
}

/** yyyy-mm-dd of a moment in the reader's time zone (the value of a date input). */
export function dayOf(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The period asked of the server, in ms. A preset runs up to now, so it is left open at the end
 * (the server's default is now) and always includes the latest close. A custom period covers whole
 * local days; null when its days are missing or reversed.
 */
export function periodOf(filters: THistoryFilters, now: number): { from: number; to?: number } | null {
  if (filters.range !== 'custom') return { from: now - Number(filters.range) * DAY_MS };
  if (!filters.from || !filters.to) return null;
  const from = localDay(filters.from);
  const to = localDay(filters.to, 1) - 1;
  return from <= to ? { from, to } : null;
}

/** The CSV export of closed positions for the same account, period and symbol (session cookie). */
export function csvHref(accountId: number, period: { from: number; to?: number }, symbol: string): string {
  const params = new URLSearchParams({ account_id: String(accountId), from: String(period.from) });
  if (period.to !== undefined) params.set('to', String(period.to));
  if (symbol) params.set('symbol', symbol);
  return `/api/v1/order/history.csv?${params}`;
}

/**
 * The sum of money strings from the server, exactly: each is read as integer cents, so no float
 * rounding creeps into a total ("0.10" + "0.20" is "0.30").
 */
export function sumMoney(values: readonly string[]): string {
  return formatMoney(values.reduce((sum, value) => sum + parseScaled(value, 2), 0));
}

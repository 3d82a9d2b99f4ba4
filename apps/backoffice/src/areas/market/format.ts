import type { TConfigProblem, TLeverageTier } from '@broker/domain/market/market-config';
import { sessionsToDays, type TDayRange } from '@broker/domain/market/market-config';
import { MINUTES_PER_WEEK, type TSessionWindow } from '@broker/domain/market/sessions';
import type { TTranslate } from '@broker/i18n/translator';

/** Texts of the rules' problems (literal keys, so the catalog test sees each one). */
export const PROBLEM_TEXT: Record<TConfigProblem, string> = {
  lotsFormat: 'admin.market.problems.lotsFormat',
  volumePositive: 'admin.market.problems.volumePositive',
  volumeTooLarge: 'admin.market.problems.volumeTooLarge',
  maxBelowMin: 'admin.market.problems.maxBelowMin',
  minNotMultipleOfStep: 'admin.market.problems.minNotMultipleOfStep',
  leverageRange: 'admin.market.problems.leverageRange',
  markupRange: 'admin.market.problems.markupRange',
  stopsRange: 'admin.market.problems.stopsRange',
  swapFormat: 'admin.market.problems.swapFormat',
  commissionFormat: 'admin.market.problems.commissionFormat',
  sessionsEmpty: 'admin.market.problems.sessionsEmpty',
  sessionWindow: 'admin.market.problems.sessionWindow',
  sessionsOverlap: 'admin.market.problems.sessionsOverlap',
  sessionsTooMany: 'admin.market.problems.sessionsTooMany',
  tiersTooMany: 'admin.market.problems.tiersTooMany',
  tierLots: 'admin.market.problems.tierLots',
  tiersAscending: 'admin.market.problems.tiersAscending',
  tierLeverage: 'admin.market.problems.tierLeverage',
  tiersLeverageDescending: 'admin.market.problems.tiersLeverageDescending',
  tierAboveMax: 'admin.market.problems.tierAboveMax',
};

/** Labels of the configuration's fields (instrument, group overrides and the group itself). */
export const FIELD_LABEL: Record<string, string> = {
  enabled: 'admin.market.field.enabled',
  closeOnly: 'admin.market.field.closeOnly',
  shortAllowed: 'admin.market.field.shortAllowed',
  markupPoints: 'admin.market.field.markupPoints',
  stopsLevelPoints: 'admin.market.field.stopsLevelPoints',
  minVolume: 'admin.market.field.minVolume',
  volumeStep: 'admin.market.field.volumeStep',
  maxVolume: 'admin.market.field.maxVolume',
  maxLeverage: 'admin.market.field.maxLeverage',
  leverageTiers: 'admin.market.field.leverageTiers',
  sessions: 'admin.market.field.sessions',
  swapLong: 'admin.market.field.swapLong',
  swapShort: 'admin.market.field.swapShort',
  commissionPerLot: 'admin.market.field.commissionPerLot',
  name: 'admin.market.field.name',
  description: 'admin.market.field.description',
  isDefault: 'admin.market.field.isDefault',
  overrides: 'admin.market.field.overrides',
};

export const CATEGORY_LABEL: Record<string, string> = {
  forex: 'admin.market.category.forex',
  metals: 'admin.market.category.metals',
  energy: 'admin.market.category.energy',
  indices: 'admin.market.category.indices',
  crypto: 'admin.market.category.crypto',
};

/** A decimal string with the locale's grouping and decimal mark, digits kept as they are (no float). */
export function formatDecimal(intl: string, text: string, digits?: number): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const parts = new Intl.NumberFormat(intl).formatToParts(1000.5);
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  const grouped = new Intl.NumberFormat(intl, { useGrouping: true }).format(BigInt(whole || '0'));
  const shown = digits === undefined ? fraction : fraction.padEnd(digits, '0').slice(0, digits);
  return `${negative ? '-' : ''}${grouped}${shown ? decimal + shown : ''}`;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Minutes of the day as HH:MM (1440 is 24:00). */
export const hhmm = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/** "HH:MM" (00:00 to 24:00) as minutes of the day, or null. */
export function parseHhmm(text: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return null;
  return hours * 60 + minutes;
}

/** Short weekday names, Sunday first (as the sessions count). */
export function weekdayNames(intl: string, style: 'short' | 'long' = 'short'): string[] {
  const format = new Intl.DateTimeFormat(intl, { weekday: style, timeZone: 'UTC' });
  // 2026-11-22 is a Sunday.
  return [0, 1, 2, 3, 4, 5, 6].map((d) => format.format(new Date(Date.UTC(2026, 10, 22 + d))));
}

const dayText = (ranges: readonly TDayRange[]) =>
  ranges.map((r) => `${hhmm(r.from)}–${hhmm(r.to)}`).join(', ');

/** Weekly hours in a line: "24/7", or days with the same hours grouped ("Mon–Thu 00:00–24:00"). */
export function sessionsSummary(windows: readonly TSessionWindow[], intl: string, t: TTranslate): string {
  if (windows.length === 0) return t('admin.market.sessions.never');
  if (windows.length === 1 && windows[0]?.from === 0 && windows[0]?.to === MINUTES_PER_WEEK)
    return t('admin.market.sessions.always');
  const names = weekdayNames(intl);
  const days = sessionsToDays(windows).map(dayText);
  const out: string[] = [];
  let start = 0;
  for (let d = 1; d <= 7; d++) {
    if (d < 7 && days[d] === days[start]) continue;
    if (days[start]) {
      const label = d - 1 === start ? names[start] : `${names[start]}–${names[d - 1]}`;
      out.push(`${label} ${days[start]}`);
    }
    start = d;
  }
  return out.join('; ');
}

export function tiersSummary(tiers: readonly TLeverageTier[], intl: string, t: TTranslate): string {
  if (tiers.length === 0) return t('admin.market.tiers.none');
  return tiers
    .map((tier) =>
      t('admin.market.tiers.summary', {
        lots: formatDecimal(intl, tier.upToLots),
        leverage: tier.maxLeverage,
      }),
    )
    .join(', ');
}

/** One configuration value as staff read it (history and confirmations). */
export function formatValue(
  key: string,
  value: unknown,
  context: { intl: string; t: TTranslate; defaultLeverage?: number | undefined },
): string {
  const { intl, t } = context;
  if (value === undefined) return t('admin.market.value.inherited');
  if (value === null) {
    if (key === 'maxLeverage')
      return context.defaultLeverage
        ? t('admin.market.value.defaultLeverage', { leverage: context.defaultLeverage })
        : t('admin.market.value.default');
    return '—';
  }
  switch (key) {
    case 'enabled':
    case 'closeOnly':
    case 'shortAllowed':
    case 'isDefault':
      return value ? t('admin.market.value.yes') : t('admin.market.value.no');
    case 'sessions':
      return sessionsSummary(value as TSessionWindow[], intl, t);
    case 'leverageTiers':
      return tiersSummary(value as TLeverageTier[], intl, t);
    case 'maxLeverage':
      return `1:${Number(value)}`;
    case 'markupPoints':
    case 'stopsLevelPoints':
      return t('admin.market.value.points', { points: new Intl.NumberFormat(intl).format(Number(value)) });
    case 'minVolume':
    case 'volumeStep':
    case 'maxVolume':
      return t('admin.market.value.lots', { lots: formatDecimal(intl, String(value)) });
    case 'overrides':
      return t('admin.market.value.overrideCount', {
        count: Object.keys(value as Record<string, unknown>).length,
      });
    case 'description':
      return String(value) || '—';
    default:
      return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)
        ? formatDecimal(intl, value)
        : String(value);
  }
}

import { numberFormat } from './intl-cache';

/**
 * A margin level as the API answers it (spec 5: total equity / total margin as a plain ratio,
 * "20.4471"; the margin-call and stop-out levels in the same form, "1.0000") shown the way traders
 * read it in MT5 or cTrader: a percentage with two decimals in the reader's locale ("2,044.71%").
 * The ratio goes to Intl as a decimal string, so no digit is lost to floating point.
 */
export function marginLevelText(intl: string, ratio: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(ratio)) return ratio;
  return numberFormat(intl, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(ratio as `${number}`);
}

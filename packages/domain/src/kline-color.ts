/**
 * Kline colour convention (spec 4): 0 means red is up, 1 means green is up.
 * Mainland China, Taiwan, Hong Kong, Macau and Japan read red as rising.
 */
export const KlineColor = { RED_UP: 0, GREEN_UP: 1 } as const;
export type TKlineColor = (typeof KlineColor)[keyof typeof KlineColor];

/** ISO 3166 numeric country codes whose traders expect red for a rising price. */
export const RED_UP_COUNTRY_CODES: readonly string[] = ['156', '158', '344', '446', '392'];

/** Default kline colour for a country given by its ISO 3166 numeric code ("156", "0156" or 156). */
export function defaultKlineColor(countryCode: string | number | null | undefined): TKlineColor {
  if (countryCode === null || countryCode === undefined || countryCode === '') return KlineColor.GREEN_UP;
  const normalized = String(Number.parseInt(String(countryCode), 10));
  return RED_UP_COUNTRY_CODES.includes(normalized) ? KlineColor.RED_UP : KlineColor.GREEN_UP;
}

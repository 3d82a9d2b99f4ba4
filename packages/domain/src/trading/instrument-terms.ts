import type { TInstrumentCategory, TInstrumentSpec } from '../market/instruments';
import type { TSessionWindow } from '../market/sessions';
import { POW10, parseScaled, pointValue, rate, type TRate } from './money';

/**
 * An instrument as the trading core reads it: the catalogue's decimal strings turned into integers
 * once (volumes in hundredths of a lot, swaps in hundredths of a point) plus the broker's per-symbol
 * trading terms.
 */
export interface TInstrumentTerms {
  symbol: string;
  category: TInstrumentCategory;
  base: string;
  quote: string;
  digits: number;
  /** 10^digits. */
  scale: number;
  contractSize: TRate;
  /** Minor units of the profit currency per point per 0.01 lot (contractSize / 10^digits). */
  point: TRate;
  minVolume: number;
  volumeStep: number;
  maxVolume: number;
  /** The highest leverage the symbol allows; an account's own leverage can only lower it. */
  maxLeverage: number;
  /**
   * Lower caps for larger positions, ascending in size: a position of up to `upToVolume` hundredths of
   * a lot is margined at no more than `maxLeverage`; above the last tier, the last tier applies.
   */
  leverageTiers: readonly { upToVolume: number; maxLeverage: number }[];
  marginCurrency: string;
  /** Margin is computed in the quote currency (price x contract / leverage) rather than the base. */
  marginInQuote: boolean;
  profitCurrency: string;
  swapLongCentiPoints: number;
  swapShortCentiPoints: number;
  enabled: boolean;
  closeOnly: boolean;
  shortAllowed: boolean;
  sessions: readonly TSessionWindow[];
  /** Minimum distance in points between the market and a pending price, take-profit or stop-loss. */
  stopsLevelPoints: number;
  /** Points added to the feed's spread (half below the bid, half above the ask). */
  markupPoints: number;
  /** Commission per lot per side in minor units of `commissionCurrency`; 0 for none. */
  commissionPerLotMinor: number;
  commissionCurrency: string;
}

export type TInstrumentOverrides = Partial<
  Pick<
    TInstrumentTerms,
    | 'enabled'
    | 'closeOnly'
    | 'shortAllowed'
    | 'stopsLevelPoints'
    | 'markupPoints'
    | 'commissionPerLotMinor'
    | 'commissionCurrency'
    | 'maxLeverage'
    | 'leverageTiers'
    | 'sessions'
  >
>;

function rationalOf(text: string): TRate {
  const fraction = text.split('.')[1] ?? '';
  const decimals = fraction.length;
  return rate(parseScaled(text, decimals), POW10[decimals] ?? 10 ** decimals);
}

/** The leverage cap of a position of `volume` hundredths of a lot under the symbol's tiers. */
export function tierLeverage(
  terms: Pick<TInstrumentTerms, 'maxLeverage' | 'leverageTiers'>,
  volume: number,
): number {
  let cap = terms.maxLeverage;
  const tiers = terms.leverageTiers;
  if (tiers.length === 0) return cap;
  const tier = tiers.find((t) => volume <= t.upToVolume) ?? tiers[tiers.length - 1];
  if (tier && tier.maxLeverage < cap) cap = tier.maxLeverage;
  return cap;
}

/** Compiles a catalogue entry (and the broker's overrides) into integer trading terms. */
export function compileInstrument(
  spec: TInstrumentSpec,
  overrides: TInstrumentOverrides = {},
): TInstrumentTerms {
  const contractSize = rationalOf(spec.contractSize);
  const terms: TInstrumentTerms = {
    symbol: spec.symbol,
    category: spec.category,
    base: spec.base,
    quote: spec.quote,
    digits: spec.digits,
    scale: POW10[spec.digits] ?? 10 ** spec.digits,
    contractSize,
    point: pointValue(contractSize, spec.digits),
    minVolume: parseScaled(spec.minVolume, 2),
    volumeStep: parseScaled(spec.volumeStep, 2),
    maxVolume: parseScaled(spec.maxVolume, 2),
    maxLeverage: spec.defaultLeverage,
    leverageTiers: [],
    marginCurrency: spec.marginCurrency,
    marginInQuote: spec.marginCurrency !== spec.base,
    profitCurrency: spec.profitCurrency,
    swapLongCentiPoints: parseScaled(spec.swapLong, 2),
    swapShortCentiPoints: parseScaled(spec.swapShort, 2),
    enabled: spec.enabled,
    closeOnly: spec.closeOnly,
    shortAllowed: spec.shortAllowed,
    sessions: spec.sessions,
    stopsLevelPoints: 0,
    markupPoints: 0,
    commissionPerLotMinor: 0,
    commissionCurrency: 'USD',
    ...overrides,
  };
  if (terms.minVolume <= 0 || terms.volumeStep <= 0 || terms.maxVolume < terms.minVolume)
    throw new Error(`bad volume limits for ${spec.symbol}`);
  return terms;
}

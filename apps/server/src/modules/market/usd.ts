import Big from 'big.js';
import { convert } from './converter';
import type { MarketService } from './market-service';

/**
 * Converts risk figures to US dollars, the broker's reporting currency. Account money is in minor
 * units (hundredths) of the account currency; USC is the US cent (1 USC = 0.01 USD); other
 * currencies go through the market's live mid prices (USDT is pegged 1:1 to USD). Rates are read
 * once per converter, so one report uses one set of prices.
 */
export class UsdConverter {
  private readonly rates = new Map<string, Big | null>();
  constructor(private readonly market: Pick<MarketService, 'symbols' | 'quotes'> | null) {}

  /** USD for one unit of `currency`, or null when no price path exists. */
  rate(currency: string): Big | null {
    const known = this.rates.get(currency);
    if (known !== undefined) return known;
    let rate: Big | null;
    if (currency === 'USD') rate = new Big(1);
    else if (currency === 'USC') rate = new Big('0.01');
    else {
      const converted = this.market
        ? convert({
            from: currency,
            to: 'USD',
            amount: '1',
            specs: this.market.symbols(),
            quotes: this.market.quotes(),
          })
        : null;
      rate = converted ? new Big(converted.rate) : null;
    }
    this.rates.set(currency, rate);
    return rate;
  }

  /** Minor units of an account currency in USD (0 when the currency cannot be priced). */
  minor(amount: number | string | bigint, currency: string): Big {
    const rate = this.rate(currency);
    return rate ? new Big(String(amount)).div(100).times(rate) : new Big(0);
  }

  /** An amount of `currency` (whole units) in USD (0 when it cannot be priced). */
  units(amount: Big, currency: string): Big {
    const rate = this.rate(currency);
    return rate ? amount.times(rate) : new Big(0);
  }
}

/** USD with 2 decimals, rounded half up, never "-0.00". */
export function usd(value: Big): string {
  const text = value.toFixed(2, Big.roundHalfUp);
  return text === '-0.00' ? '0.00' : text;
}

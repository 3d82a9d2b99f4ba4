/** The daily rollover: swap charged or paid on every open position. */
import { swapMinor, swapMultiplier } from '../money';
import { LedgerAccount, post } from './ledger';
import type { EngineState } from './state';

/**
 * Charges or pays swap on every open position in ticket order, for as many nights as the rollover's
 * weekday counts for the symbol's category (`swapMultiplier`).
 */
export function rollover(st: EngineState): null {
  const weekday = new Date(st.now).getUTCDay();
  const ordered = [...st.positions.values()].sort((a, b) => a.ticket - b.ticket);
  for (const p of ordered) {
    const terms = p.sym.terms;
    const multiplier = swapMultiplier(terms.category, weekday);
    const rates = p.bucket.converter.rates;
    if (multiplier === 0 || rates === undefined) continue;
    const swap = swapMinor({
      volume: p.volume,
      swapCentiPoints: p.side === 'buy' ? terms.swapLongCentiPoints : terms.swapShortCentiPoints,
      point: terms.point,
      multiplier,
      conversion: rates,
    });
    if (swap === 0) continue;
    p.swap += swap;
    post(st, p.account, 'swap', swap, LedgerAccount.BROKER_SWAP, p.ticket);
  }
  return null;
}

/**
 * The liquidity provider adapter: how the broker hedges A-book positions. Every call is async and
 * may reject with a LiquidityRejection (the provider refused, had no price, did not answer in
 * time...); the liquidity service records each attempt and retries a bounded number of times.
 * Prices are integers in points of the symbol and volumes hundredths of a lot, like the engine.
 */

export type THedgeSide = 'buy' | 'sell';

export interface THedgeRequest {
  /** The broker's id of this hedge order; the provider echoes it, and a repeat must not fill twice. */
  clientOrderId: string;
  symbol: string;
  side: THedgeSide;
  /** Hundredths of a lot. */
  volume: number;
  /** The price the client got (points), for the slippage report; null when unknown. */
  requestedPrice: number | null;
}

/** Closing (some of) a hedge opened before: `side` is the closing side, the opposite of the open. */
export interface TCloseHedgeRequest extends THedgeRequest {
  providerOrderId: string;
}

export interface THedgeFill {
  providerOrderId: string;
  symbol: string;
  side: THedgeSide;
  volume: number;
  /** Fill price in points. */
  price: number;
  latencyMs: number;
  time: number;
}

export interface TProviderStatus {
  name: string;
  connected: boolean;
  sent: number;
  filled: number;
  rejected: number;
  averageLatencyMs: number | null;
  lastError: string | null;
  lastFillAt: number | null;
}

export type TRejectReason = 'rejected' | 'no_price' | 'timeout' | 'unknown_order' | 'disconnected';

export class LiquidityRejection extends Error {
  constructor(
    readonly reason: TRejectReason,
    message: string,
  ) {
    super(message);
    this.name = 'LiquidityRejection';
  }
}

export interface TLiquidityProvider {
  readonly name: string;
  /** Opens a hedge position at the provider. */
  sendOrder(request: THedgeRequest): Promise<THedgeFill>;
  /** Closes `volume` of a hedge opened by `sendOrder`. */
  closeOrder(request: TCloseHedgeRequest): Promise<THedgeFill>;
  /** Connection and counters, for the dealer's screen. */
  status(): TProviderStatus;
}

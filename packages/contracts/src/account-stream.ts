/** The account stream's wire messages (`/ws/account`), shared by the server and the portal. */

/**
 * A trading event as the terminal's notifications need it: prices and money as decimal strings,
 * volumes in lots. `opened` has no `order_id`; a pending order's fill is `filled`.
 */
export type TAccountEvent =
  | {
      type: 'opened' | 'filled';
      position_id: number;
      order_id: number | null;
      symbol: string;
      side: 'buy' | 'sell';
      volume: string;
      price: string;
      time: number;
    }
  | {
      type: 'closed';
      position_id: number;
      symbol: string;
      side: 'buy' | 'sell';
      volume: string;
      remaining_volume: string;
      close_price: string;
      profit: string;
      /** Spec 4 close reason: 1 manual, 2 automatic (stop-out), 3 take-profit or stop-loss, 4 copy trade… */
      reason: number;
      time: number;
    }
  | { type: 'placed'; order_id: number; symbol: string; order_type: string; volume: string; time: number }
  | { type: 'cancelled'; order_id: number; reason: string; time: number }
  | { type: 'margin_call'; active: boolean; margin_level: string; time: number }
  | { type: 'stop_out'; margin_level: string; time: number };

/**
 * A price alert that fired (issue 21), sent to every account-stream socket of its trader whatever
 * accounts they watch: `{ "type": "alert", "data": TAlertFired }`. Prices are decimal strings.
 */
export interface TAlertFired {
  id: string;
  symbol: string;
  condition: 'above' | 'below' | 'moveUp' | 'moveDown';
  /** The level it watched (the base moved by the percentage for moves). */
  triggerPrice: string;
  percent: string | null;
  /** The bid that fired it. */
  price: string;
  note: string;
  /** Whether it keeps watching (a repeating alert) or stopped. */
  repeats: boolean;
  time: number;
}

/**
 * What happened between two refreshes of an account, found by comparing its positions and pending
 * orders: a filled pending order becomes a position with the order's ticket, so a ticket that moves
 * from the orders to the positions is a fill.
 */
import { fromUnits, toUnits } from './decimal';
import { LOT_DECIMALS } from './ticket-rules';

interface TPositionLike {
  order_id: number;
  symbol: string;
  side: 'buy' | 'sell';
  volume: string;
}
interface TOrderLike {
  order_id: number;
  symbol: string;
  type: string;
  volume: string;
}

export type TTradeEvent<P extends TPositionLike = TPositionLike, O extends TOrderLike = TOrderLike> =
  | { kind: 'opened'; position: P }
  | { kind: 'filled'; position: P; order: O }
  | { kind: 'closed'; position: P }
  | { kind: 'partlyClosed'; position: P; closedVolume: string }
  | { kind: 'placed'; order: O }
  | { kind: 'cancelled'; order: O };

export interface TSnapshot<P extends TPositionLike, O extends TOrderLike> {
  accountId: number;
  positions: readonly P[];
  orders: readonly O[];
}

/**
 * The events from one snapshot to the next; none across an account switch or from nothing. An order
 * this terminal placed that filled before any refresh saw it is known from `placed`.
 */
export function diffTrading<P extends TPositionLike, O extends TOrderLike>(
  previous: TSnapshot<P, O> | null,
  next: TSnapshot<P, O>,
  placed: { get(ticket: number): O | undefined } = { get: () => undefined },
): TTradeEvent<P, O>[] {
  if (!previous || previous.accountId !== next.accountId) return [];
  const events: TTradeEvent<P, O>[] = [];
  const before = new Map(previous.positions.map((p) => [p.order_id, p]));
  const after = new Map(next.positions.map((p) => [p.order_id, p]));
  const ordersBefore = new Map(previous.orders.map((o) => [o.order_id, o]));
  const ordersAfter = new Set(next.orders.map((o) => o.order_id));

  for (const position of next.positions) {
    const old = before.get(position.order_id);
    if (!old) {
      const order = ordersBefore.get(position.order_id) ?? placed.get(position.order_id);
      events.push(order ? { kind: 'filled', position, order } : { kind: 'opened', position });
      continue;
    }
    const was = toUnits(old.volume, LOT_DECIMALS);
    const now = toUnits(position.volume, LOT_DECIMALS);
    if (was !== null && now !== null && now < was) {
      events.push({ kind: 'partlyClosed', position, closedVolume: fromUnits(was - now, LOT_DECIMALS) });
    }
  }
  for (const position of previous.positions) {
    if (!after.has(position.order_id)) events.push({ kind: 'closed', position });
  }
  for (const order of next.orders) {
    if (!ordersBefore.has(order.order_id)) events.push({ kind: 'placed', order });
  }
  for (const order of previous.orders) {
    if (!ordersAfter.has(order.order_id) && !after.has(order.order_id)) {
      events.push({ kind: 'cancelled', order });
    }
  }
  return events;
}

/**
 * Pending orders this terminal placed, by ticket, for a while: a stop a few points from the market
 * can fill before the next refresh lists it, and its fill is still a fill, not a new position.
 */
export class PlacedOrders<O extends TOrderLike = TOrderLike> {
  private readonly orders = new Map<number, { order: O; at: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly keepMs = 10 * 60_000,
  ) {}

  remember(order: O) {
    const now = this.now();
    for (const [ticket, entry] of this.orders) if (now - entry.at > this.keepMs) this.orders.delete(ticket);
    this.orders.set(order.order_id, { order, at: now });
  }

  get(ticket: number): O | undefined {
    return this.orders.get(ticket)?.order;
  }
}

export type TNotificationSetting = 'createOrder' | 'closeOrder' | 'pendingOrder';

/** Which notification switch of the trader's settings governs an event. */
export function settingOf(event: { kind: TTradeEvent['kind'] }): TNotificationSetting {
  switch (event.kind) {
    case 'opened':
      return 'createOrder';
    case 'closed':
    case 'partlyClosed':
      return 'closeOrder';
    default:
      return 'pendingOrder';
  }
}

/**
 * One idempotency key per user action. A retry of the same action after an unknown outcome (the
 * network failed, the answer never came) reuses the key, so the server answers with the first
 * result instead of trading twice; once the server has answered, the next action gets a new key.
 */
export class ActionKeys {
  private readonly open = new Map<string, string>();

  constructor(private readonly create: () => string) {}

  keyFor(action: string): string {
    let key = this.open.get(action);
    if (!key) {
      key = this.create();
      this.open.set(action, key);
    }
    return key;
  }

  /** `answered`: the server decided (done or refused); false keeps the key for a retry. */
  settle(action: string, answered: boolean) {
    if (answered) this.open.delete(action);
  }
}

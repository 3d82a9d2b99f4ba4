/**
 * What happened between two refreshes of an account, found by comparing its positions and pending
 * orders: a filled pending order becomes a position with the order's ticket, so a ticket that moves
 * from the orders to the positions is a fill. And the trading notifications: the events the account
 * stream pushes and those comparisons, each change told once, and the toast each one gives.
 */
import type { TAccountEvent } from '@broker/contracts/account-stream';
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

/** A pending order as a notification needs it: from a snapshot, a pushed event or this page. */
interface TKnownOrder {
  symbol: string;
  type: string;
  volume: string;
  price: string | null;
  digits?: number;
}

/**
 * What one trading notification tells, whether the account stream pushed the event or a comparison of
 * two snapshots found it. A close from a snapshot has no `close` yet: its reason and profit are in the
 * deal history.
 */
export type TTradeNote =
  | {
      kind: 'opened' | 'filled';
      ticket: number;
      symbol: string;
      side: 'buy' | 'sell';
      volume: string;
      price: string;
      digits?: number;
      /** The filled pending order's type, when known. */
      orderType: string | null;
    }
  | {
      kind: 'closed';
      ticket: number;
      symbol: string;
      side: 'buy' | 'sell';
      volume: string;
      /** The last price seen, shown when the close itself is not known. */
      lastPrice: string;
      digits?: number;
      close: { price: string; reason: number; profit: string } | null;
    }
  | { kind: 'partlyClosed'; ticket: number; symbol: string; closedVolume: string; remaining: string }
  | {
      kind: 'placed';
      ticket: number;
      symbol: string;
      orderType: string;
      volume: string;
      price: string | null;
      digits?: number;
    }
  | { kind: 'cancelled'; ticket: number; order: Omit<TKnownOrder, 'price' | 'digits'> | null }
  | { kind: 'marginCall' | 'stopOut'; level: string; time: number };

export type TTradeNoteKind = TTradeNote['kind'];

/**
 * The same change has the same key whichever source told it: an open (market or fill) by its
 * position, a close by its position and the volume left, an order by its ticket.
 */
export function noteKey(note: TTradeNote): string {
  switch (note.kind) {
    case 'opened':
    case 'filled':
      return `open:${note.ticket}`;
    case 'closed':
      return `close:${note.ticket}:0`;
    case 'partlyClosed':
      return `close:${note.ticket}:${toUnits(note.remaining, LOT_DECIMALS) ?? note.remaining}`;
    case 'placed':
    case 'cancelled':
      return `${note.kind}:${note.ticket}`;
    default:
      return `${note.kind}:${note.time}`;
  }
}

interface TNotePosition extends TPositionLike {
  open_price: string;
  current_price: string;
  digits: number;
}
interface TNoteOrder extends TOrderLike {
  price: string;
  digits: number;
}

/** The notes of the events found between two snapshots. */
export function notesOfDiff<P extends TNotePosition, O extends TNoteOrder>(
  events: readonly TTradeEvent<P, O>[],
): TTradeNote[] {
  return events.map((event): TTradeNote => {
    switch (event.kind) {
      case 'opened':
      case 'filled': {
        const p = event.position;
        return {
          kind: event.kind,
          ticket: p.order_id,
          symbol: p.symbol,
          side: p.side,
          volume: p.volume,
          price: p.open_price,
          digits: p.digits,
          orderType: event.kind === 'filled' ? event.order.type : null,
        };
      }
      case 'closed': {
        const p = event.position;
        return {
          kind: 'closed',
          ticket: p.order_id,
          symbol: p.symbol,
          side: p.side,
          volume: p.volume,
          lastPrice: p.current_price,
          digits: p.digits,
          close: null,
        };
      }
      case 'partlyClosed':
        return {
          kind: 'partlyClosed',
          ticket: event.position.order_id,
          symbol: event.position.symbol,
          closedVolume: event.closedVolume,
          remaining: event.position.volume,
        };
      case 'placed':
        return {
          kind: 'placed',
          ticket: event.order.order_id,
          symbol: event.order.symbol,
          orderType: event.order.type,
          volume: event.order.volume,
          price: event.order.price,
          digits: event.order.digits,
        };
      default:
        return {
          kind: 'cancelled',
          ticket: event.order.order_id,
          order: { symbol: event.order.symbol, type: event.order.type, volume: event.order.volume },
        };
    }
  });
}

/**
 * The note of a pushed event (none for the end of a margin call). The event names an order only by
 * its ticket: `orderOf` finds its type, volume and price.
 */
export function noteOfEvent(
  event: TAccountEvent,
  orderOf: (ticket: number) => TKnownOrder | undefined,
): TTradeNote | null {
  switch (event.type) {
    case 'opened':
    case 'filled':
      return {
        kind: event.type,
        ticket: event.position_id,
        symbol: event.symbol,
        side: event.side,
        volume: event.volume,
        price: event.price,
        orderType:
          event.type === 'filled' && event.order_id !== null ? (orderOf(event.order_id)?.type ?? null) : null,
      };
    case 'closed': {
      const remaining = toUnits(event.remaining_volume, LOT_DECIMALS);
      if (remaining !== null && remaining > 0n)
        return {
          kind: 'partlyClosed',
          ticket: event.position_id,
          symbol: event.symbol,
          closedVolume: event.volume,
          remaining: event.remaining_volume,
        };
      return {
        kind: 'closed',
        ticket: event.position_id,
        symbol: event.symbol,
        side: event.side,
        volume: event.volume,
        lastPrice: event.close_price,
        close: { price: event.close_price, reason: event.reason, profit: event.profit },
      };
    }
    case 'placed': {
      const known = orderOf(event.order_id);
      return {
        kind: 'placed',
        ticket: event.order_id,
        symbol: event.symbol,
        orderType: event.order_type,
        volume: event.volume,
        price: known?.price ?? null,
        ...(known?.digits === undefined ? {} : { digits: known.digits }),
      };
    }
    case 'cancelled': {
      const known = orderOf(event.order_id);
      return {
        kind: 'cancelled',
        ticket: event.order_id,
        order: known ? { symbol: known.symbol, type: known.type, volume: known.volume } : null,
      };
    }
    case 'margin_call':
      return event.active ? { kind: 'marginCall', level: event.margin_level, time: event.time } : null;
    case 'stop_out':
      return { kind: 'stopOut', level: event.margin_level, time: event.time };
    default:
      return null;
  }
}

/**
 * Tells each trading change once. While the account stream delivers, the pushed events are told and
 * a change seen in a snapshot waits a moment for its event (the socket sends a snapshot before the
 * events of the same change, and a refresh answers before them): told only if no event came, as for
 * a change made while the socket was reconnecting. While it is down (HTTP polling, no events) the
 * snapshot comparison is told at once. A change already told by one source is never told again by
 * the other.
 */
export class TradeNotifier<P extends TNotePosition = TNotePosition, O extends TNoteOrder = TNoteOrder> {
  private previous: TSnapshot<P, O> | null = null;
  private accountId = 0;
  private readonly told = new Map<string, number>();
  private held: { note: TTradeNote; key: string; until: number }[] = [];
  private readonly known = new Map<number, { order: TKnownOrder; at: number }>();

  constructor(
    private readonly placed: { get(ticket: number): O | undefined } = { get: () => undefined },
    private readonly now: () => number = Date.now,
    private readonly holdMs = 2000,
    private readonly keepMs = 10 * 60_000,
  ) {}

  /**
   * The account's latest lists (`live`: the account stream delivers them) and the events pushed since
   * the last call, which arrived after the snapshot that shows them: the notes to tell now.
   */
  update(snapshot: TSnapshot<P, O>, live: boolean, events: readonly TAccountEvent[] = []): TTradeNote[] {
    if (snapshot.accountId !== this.accountId) this.reset(snapshot.accountId);
    const now = this.now();
    // The orders of the last snapshot were pending until now, however long ago it came.
    for (const order of this.previous?.orders ?? []) {
      const entry = this.known.get(order.order_id);
      if (entry) entry.at = now;
    }
    this.forget(now);
    for (const order of snapshot.orders)
      this.known.set(order.order_id, {
        order: {
          symbol: order.symbol,
          type: order.type,
          volume: order.volume,
          price: order.price,
          digits: order.digits,
        },
        at: now,
      });
    const notes: TTradeNote[] = [];
    for (const event of events) {
      const note = noteOfEvent(event, (ticket) => this.orderOf(ticket));
      if (note) notes.push(note);
      // An order that fills or goes before any snapshot lists it is still known by its event.
      if (event.type === 'placed' && !this.orderOf(event.order_id))
        this.known.set(event.order_id, {
          order: { symbol: event.symbol, type: event.order_type, volume: event.volume, price: null },
          at: now,
        });
    }
    const pushedKeys = new Set(notes.map(noteKey));
    this.held = this.held.filter((h) => !pushedKeys.has(h.key));

    const found = notesOfDiff(diffTrading(this.previous, snapshot, this.placed));
    this.previous = snapshot;
    if (live) {
      for (const note of found) {
        const key = noteKey(note);
        if (this.told.has(key) || pushedKeys.has(key) || this.held.some((h) => h.key === key)) continue;
        this.held.push({ note, key, until: now + this.holdMs });
      }
    } else {
      notes.push(...found);
    }
    notes.push(...this.held.filter((h) => h.until <= now).map((h) => h.note));
    this.held = this.held.filter((h) => h.until > now);
    return this.tell(notes, now);
  }

  /** When a held note is due (for a timer), or null. */
  nextDue(): number | null {
    return this.held.length === 0 ? null : Math.min(...this.held.map((h) => h.until));
  }

  private tell(notes: TTradeNote[], now: number): TTradeNote[] {
    const out: TTradeNote[] = [];
    for (const note of notes) {
      const key = noteKey(note);
      if (this.told.has(key)) continue;
      this.told.set(key, now);
      out.push(note);
    }
    return out;
  }

  private orderOf(ticket: number): TKnownOrder | undefined {
    const known = this.known.get(ticket)?.order;
    if (known) return known;
    const placed = this.placed.get(ticket);
    // An order placed here has no digits yet: its price shows as typed.
    return placed && { symbol: placed.symbol, type: placed.type, volume: placed.volume, price: placed.price };
  }

  private forget(now: number) {
    for (const [key, at] of this.told) if (now - at > this.keepMs) this.told.delete(key);
    for (const [ticket, entry] of this.known) if (now - entry.at > this.keepMs) this.known.delete(ticket);
  }

  private reset(accountId: number) {
    this.accountId = accountId;
    this.previous = null;
    this.told.clear();
    this.held = [];
    this.known.clear();
  }
}

export type TToastTone = 'success' | 'info' | 'warning' | 'error';

/** How a note reads: the translation and the number formats of the trader's language. */
export interface TNoteFormat {
  t: (key: string, values?: Record<string, string | number>) => string;
  /** A price (`digits` decimals, or as many as it has). */
  price: (value: string, digits?: number) => string;
  /** Profit with its sign. */
  profit: (value: string) => string;
  /** A margin level as the API gives it (spec 5: a ratio), as text. */
  percent: (value: string) => string;
  currency: string;
  /** The account's margin-call and stop-out levels as the API gives them (ratios). */
  levels: { marginCall: string; stopOut: string };
}

/** Which notification switch governs a note; margin calls and stop-outs are always told. */
export function settingOfNote(note: { kind: TTradeNoteKind }): TNotificationSetting | null {
  return note.kind === 'marginCall' || note.kind === 'stopOut' ? null : settingOf({ kind: note.kind });
}

/**
 * The toast of a note, or null when the trader's settings turn it off. `sound`: it rings when the
 * trader asked for sounds.
 */
export function toastOf(
  note: TTradeNote,
  notification: Readonly<Record<TNotificationSetting, boolean>>,
  f: TNoteFormat,
): { tone: TToastTone; kind: TTradeNoteKind; title: string; text?: string; sound: boolean } | null {
  const setting = settingOfNote(note);
  if (setting && !notification[setting]) return null;
  const { t } = f;
  switch (note.kind) {
    case 'opened':
    case 'filled':
      return {
        tone: 'success',
        kind: note.kind,
        title: t(`trade.toast.${note.kind}`),
        text: t('trade.toast.positionText', {
          side: note.orderType ? t(orderTypeKey(note.orderType)) : t(`trade.side.${note.side}`),
          volume: note.volume,
          symbol: note.symbol,
          ticket: note.ticket,
          price: f.price(note.price, note.digits),
        }),
        sound: true,
      };
    case 'placed':
      return {
        tone: 'info',
        kind: 'placed',
        title: t('trade.toast.placed'),
        text:
          note.price === null
            ? t('trade.toast.orderText', {
                type: t(orderTypeKey(note.orderType)),
                volume: note.volume,
                symbol: note.symbol,
                ticket: note.ticket,
              })
            : t('trade.toast.positionText', {
                side: t(orderTypeKey(note.orderType)),
                volume: note.volume,
                symbol: note.symbol,
                ticket: note.ticket,
                price: f.price(note.price, note.digits),
              }),
        sound: true,
      };
    case 'cancelled':
      return {
        tone: 'info',
        kind: 'cancelled',
        title: t('trade.toast.cancelled'),
        ...(note.order && {
          text: t('trade.toast.orderText', {
            type: t(orderTypeKey(note.order.type)),
            volume: note.order.volume,
            symbol: note.order.symbol,
            ticket: note.ticket,
          }),
        }),
        sound: false,
      };
    case 'partlyClosed':
      return {
        tone: 'info',
        kind: 'partlyClosed',
        title: t('trade.toast.partlyClosed'),
        text: t('trade.toast.partText', {
          closed: note.closedVolume,
          symbol: note.symbol,
          ticket: note.ticket,
          remaining: note.remaining,
        }),
        sound: true,
      };
    case 'closed': {
      const { close } = note;
      const base = t('trade.toast.positionText', {
        side: t(`trade.side.${note.side}`),
        volume: note.volume,
        symbol: note.symbol,
        ticket: note.ticket,
        price: f.price(close?.price ?? note.lastPrice, note.digits),
      });
      const details = close
        ? ` · ${t(`trade.reason.${close.reason}`)} · ${t('trade.toast.profit', {
            profit: f.profit(close.profit),
            currency: f.currency,
          })}`
        : '';
      return {
        // Closes the trader did not ask for (stop-out, copy trading…) stand out.
        tone: close && close.reason !== 1 && close.reason !== 3 ? 'warning' : 'info',
        kind: 'closed',
        title: t('trade.toast.closed'),
        text: base + details,
        sound: true,
      };
    }
    case 'marginCall':
      return {
        tone: 'warning',
        kind: 'marginCall',
        title: t('trade.account.marginLevel'),
        text: t('trade.account.marginCall', {
          level: f.percent(note.level),
          callLevel: f.percent(f.levels.marginCall),
          stopOut: f.percent(f.levels.stopOut),
        }),
        sound: false,
      };
    case 'stopOut':
      return {
        tone: 'error',
        kind: 'stopOut',
        title: t('trade.reason.2'),
        text: `${t('trade.account.marginLevel')} ${f.percent(note.level)}`,
        sound: false,
      };
  }
}

/** "Buy limit", "Sell stop limit": the translated name of a pending order type. */
export function orderTypeKey(type: string): string {
  return `trade.orderType.${type}`;
}

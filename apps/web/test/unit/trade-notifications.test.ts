import type { TAccountEvent } from '@broker/contracts/account-stream';
import { describe, expect, it } from 'vitest';
import {
  noteOfEvent,
  PlacedOrders,
  type TNoteFormat,
  type TNotificationSetting,
  TradeNotifier,
  type TTradeNote,
  toastOf,
} from '../../src/features/trade/trade-events';
import { marginLevelText } from '../../src/lib/margin-level';

const ALL_ON: Record<TNotificationSetting, boolean> = {
  createOrder: true,
  closeOrder: true,
  pendingOrder: true,
};

/** Translations as `key{values}`, so a toast shows which keys it used. */
const format: TNoteFormat = {
  t: (key, values) => (values ? `${key}${JSON.stringify(values)}` : key),
  price: (value, digits) => (digits === undefined ? value : `${value}/${digits}`),
  profit: (value) => `±${value}`,
  percent: (value) => marginLevelText('en', value),
  currency: 'USD',
  levels: { marginCall: '1.0000', stopOut: '0.5000' },
};

const position = (
  overrides: Partial<{ order_id: number; volume: string; side: 'buy' | 'sell'; current_price: string }> = {},
) => ({
  order_id: 1,
  symbol: 'BTCUSDT',
  side: 'buy' as const,
  volume: '0.10',
  open_price: '67000.00',
  current_price: '67010.00',
  digits: 2,
  ...overrides,
});
const order = (
  overrides: Partial<{ order_id: number; type: string; volume: string; price: string }> = {},
) => ({
  order_id: 2,
  symbol: 'BTCUSDT',
  type: 'buy_limit',
  volume: '0.05',
  price: '66000.00',
  digits: 2,
  ...overrides,
});
type TPos = ReturnType<typeof position>;
type TOrd = ReturnType<typeof order>;
const snapshot = (positions: TPos[], orders: TOrd[] = [], accountId = 7) => ({
  accountId,
  positions,
  orders,
});

const opened = (positionId = 1): TAccountEvent => ({
  type: 'opened',
  position_id: positionId,
  order_id: null,
  symbol: 'BTCUSDT',
  side: 'buy',
  volume: '0.10',
  price: '67000.00',
  time: 1,
});
const filled = (ticket: number): TAccountEvent => ({
  type: 'filled',
  position_id: ticket,
  order_id: ticket,
  symbol: 'BTCUSDT',
  side: 'buy',
  volume: '0.05',
  price: '66000.00',
  time: 2,
});
const closed = (positionId: number, volume: string, remaining: string, reason = 1): TAccountEvent => ({
  type: 'closed',
  position_id: positionId,
  symbol: 'BTCUSDT',
  side: 'buy',
  volume,
  remaining_volume: remaining,
  close_price: '67100.00',
  profit: '10.00',
  reason,
  time: 3,
});
const placedEvent = (ticket: number, type = 'buy_limit'): TAccountEvent => ({
  type: 'placed',
  order_id: ticket,
  symbol: 'BTCUSDT',
  order_type: type,
  volume: '0.05',
  time: 4,
});
const cancelledEvent = (ticket: number): TAccountEvent => ({
  type: 'cancelled',
  order_id: ticket,
  reason: 'client',
  time: 5,
});

const nothingKnown = () => undefined;
const toastOfEvent = (
  event: TAccountEvent,
  settings = ALL_ON,
  known: Parameters<typeof noteOfEvent>[1] = nothingKnown,
) => {
  const note = noteOfEvent(event, known);
  return note && toastOf(note, settings, format);
};

/** A notifier on a clock the test moves, holding a snapshot change 2 s for its event. */
function notifier(placed?: PlacedOrders<TOrd>) {
  const clock = { now: 0 };
  const n = new TradeNotifier<TPos, TOrd>(placed, () => clock.now, 2000);
  return { n, clock };
}
const kinds = (notes: TTradeNote[]) => notes.map((note) => note.kind);

describe('toasts of pushed trading events', () => {
  it('gives each event its tone, kind, title and sound', () => {
    expect(toastOfEvent(opened())).toEqual({
      tone: 'success',
      kind: 'opened',
      title: 'trade.toast.opened',
      text: 'trade.toast.positionText{"side":"trade.side.buy","volume":"0.10","symbol":"BTCUSDT","ticket":1,"price":"67000.00"}',
      sound: true,
    });
    expect(toastOfEvent(filled(2), ALL_ON, () => ({ ...order(), price: '66000.00' }))).toMatchObject({
      tone: 'success',
      kind: 'filled',
      title: 'trade.toast.filled',
      text: expect.stringContaining('"side":"trade.orderType.buy_limit"'),
      sound: true,
    });
    expect(toastOfEvent(placedEvent(2), ALL_ON, () => order())).toMatchObject({
      tone: 'info',
      kind: 'placed',
      title: 'trade.toast.placed',
      text: 'trade.toast.positionText{"side":"trade.orderType.buy_limit","volume":"0.05","symbol":"BTCUSDT","ticket":2,"price":"66000.00/2"}',
      sound: true,
    });
    expect(toastOfEvent(cancelledEvent(2), ALL_ON, () => order())).toEqual({
      tone: 'info',
      kind: 'cancelled',
      title: 'trade.toast.cancelled',
      text: 'trade.toast.orderText{"type":"trade.orderType.buy_limit","volume":"0.05","symbol":"BTCUSDT","ticket":2}',
      sound: false,
    });
    expect(toastOfEvent(closed(1, '0.04', '0.06'))).toEqual({
      tone: 'info',
      kind: 'partlyClosed',
      title: 'trade.toast.partlyClosed',
      text: 'trade.toast.partText{"closed":"0.04","symbol":"BTCUSDT","ticket":1,"remaining":"0.06"}',
      sound: true,
    });
  });

  it('tells a close with its reason and profit, standing out when the trader did not ask for it', () => {
    const manual = toastOfEvent(closed(1, '0.10', '0.00', 1));
    expect(manual).toMatchObject({ tone: 'info', kind: 'closed', title: 'trade.toast.closed', sound: true });
    expect(manual?.text).toBe(
      'trade.toast.positionText{"side":"trade.side.buy","volume":"0.10","symbol":"BTCUSDT","ticket":1,"price":"67100.00"}' +
        ' · trade.reason.1 · trade.toast.profit{"profit":"±10.00","currency":"USD"}',
    );
    expect(toastOfEvent(closed(1, '0.10', '0', 3))?.tone).toBe('info');
    expect(toastOfEvent(closed(1, '0.10', '0', 2))).toMatchObject({ tone: 'warning', kind: 'closed' });
    expect(toastOfEvent(closed(1, '0.10', '0', 4))?.text).toContain('trade.reason.4');
  });

  it('warns of a margin call and a stop-out with the existing texts', () => {
    expect(
      toastOfEvent({ type: 'margin_call', active: true, margin_level: '0.8500', time: 6 }, ALL_ON),
    ).toEqual({
      tone: 'warning',
      kind: 'marginCall',
      title: 'trade.account.marginLevel',
      text: 'trade.account.marginCall{"level":"85.00%","callLevel":"100.00%","stopOut":"50.00%"}',
      sound: false,
    });
    // The end of a margin call is not told.
    expect(
      noteOfEvent({ type: 'margin_call', active: false, margin_level: '1.2000', time: 7 }, nothingKnown),
    ).toBe(null);
    expect(toastOfEvent({ type: 'stop_out', margin_level: '0.4950', time: 8 })).toEqual({
      tone: 'error',
      kind: 'stopOut',
      title: 'trade.reason.2',
      text: 'trade.account.marginLevel 49.50%',
      sound: false,
    });
  });

  it('says what it can of an order it never saw', () => {
    // Placed here and pushed before any snapshot listed it: no price, the order text instead.
    expect(toastOfEvent(placedEvent(9))?.text).toBe(
      'trade.toast.orderText{"type":"trade.orderType.buy_limit","volume":"0.05","symbol":"BTCUSDT","ticket":9}',
    );
    expect(toastOfEvent(filled(9))?.text).toContain('"side":"trade.side.buy"');
    expect(toastOfEvent(cancelledEvent(9))).toEqual({
      tone: 'info',
      kind: 'cancelled',
      title: 'trade.toast.cancelled',
      sound: false,
    });
  });

  it('follows the notification settings', () => {
    const off = (setting: TNotificationSetting) => ({ ...ALL_ON, [setting]: false });
    const events: TAccountEvent[] = [
      opened(),
      filled(2),
      closed(1, '0.10', '0'),
      closed(3, '0.01', '0.01'),
      placedEvent(4),
      cancelledEvent(4),
      { type: 'margin_call', active: true, margin_level: '0.8500', time: 6 },
      { type: 'stop_out', margin_level: '0.4950', time: 8 },
    ];
    const shown = (settings: Record<TNotificationSetting, boolean>) =>
      events.flatMap((e) => toastOfEvent(e, settings)?.kind ?? []);
    expect(shown(ALL_ON)).toEqual([
      'opened',
      'filled',
      'closed',
      'partlyClosed',
      'placed',
      'cancelled',
      'marginCall',
      'stopOut',
    ]);
    expect(shown(off('createOrder'))).toEqual([
      'filled',
      'closed',
      'partlyClosed',
      'placed',
      'cancelled',
      'marginCall',
      'stopOut',
    ]);
    expect(shown(off('closeOrder'))).toEqual([
      'opened',
      'filled',
      'placed',
      'cancelled',
      'marginCall',
      'stopOut',
    ]);
    expect(shown(off('pendingOrder'))).toEqual(['opened', 'closed', 'partlyClosed', 'marginCall', 'stopOut']);
    // Margin calls and stop-outs are not trading notifications the trader can turn off.
    expect(shown({ createOrder: false, closeOrder: false, pendingOrder: false })).toEqual([
      'marginCall',
      'stopOut',
    ]);
  });
});

describe('one notification per change, pushed or polled', () => {
  it('tells a pushed event once, also when the next snapshot shows the same change', () => {
    const { n, clock } = notifier();
    expect(n.update(snapshot([]), true)).toEqual([]);
    // The socket sent the snapshot first; the event is told with it.
    const told = n.update(snapshot([position()]), true, [opened()]);
    expect(kinds(told)).toEqual(['opened']);
    // A later snapshot, a tick, the hold running out, and polling after a drop: nothing more.
    expect(n.update(snapshot([position({ current_price: '67020.00' })]), true)).toEqual([]);
    clock.now = 5000;
    expect(n.update(snapshot([position()]), true)).toEqual([]);
    expect(n.update(snapshot([position()]), false)).toEqual([]);
  });

  it('tells a pushed event once when it comes before the snapshot that shows it', () => {
    const { n, clock } = notifier();
    n.update(snapshot([position()]), true);
    expect(kinds(n.update(snapshot([position()]), true, [closed(1, '0.10', '0.00')]))).toEqual(['closed']);
    expect(n.update(snapshot([]), true)).toEqual([]);
    clock.now = 5000;
    expect(n.update(snapshot([]), true)).toEqual([]);
    expect(n.nextDue()).toBeNull();
  });

  it('waits for the event of a change a live snapshot shows first, and tells the event', () => {
    const { n, clock } = notifier();
    n.update(snapshot([position()]), true);
    // A refresh answered before the events: the close waits for its event.
    expect(n.update(snapshot([]), true)).toEqual([]);
    expect(n.nextDue()).toBe(2000);
    clock.now = 150;
    const told = n.update(snapshot([]), true, [closed(1, '0.10', '0.00', 2)]);
    expect(told).toMatchObject([{ kind: 'closed', close: { reason: 2, profit: '10.00' } }]);
    expect(n.nextDue()).toBeNull();
    clock.now = 5000;
    expect(n.update(snapshot([]), true)).toEqual([]);
  });

  it('tells a change no event told (made while the socket reconnected) after the wait', () => {
    const { n, clock } = notifier();
    n.update(snapshot([position()], [order()]), false);
    // The socket is back: its first snapshot shows what changed meanwhile, and no event comes for it.
    expect(n.update(snapshot([position({ order_id: 2, volume: '0.05' })]), true)).toEqual([]);
    clock.now = 1999;
    expect(n.update(snapshot([position({ order_id: 2, volume: '0.05' })]), true)).toEqual([]);
    clock.now = 2000;
    const told = n.update(snapshot([position({ order_id: 2, volume: '0.05' })]), true);
    expect(told).toMatchObject([
      { kind: 'filled', ticket: 2, orderType: 'buy_limit' },
      { kind: 'closed', ticket: 1, close: null },
    ]);
    clock.now = 9000;
    expect(n.update(snapshot([position({ order_id: 2, volume: '0.05' })]), true)).toEqual([]);
  });

  it('tells what polling finds at once while the socket is down, and never again', () => {
    const { n } = notifier();
    const before = snapshot(
      [position(), position({ order_id: 3, volume: '0.20' })],
      [order(), order({ order_id: 4 })],
    );
    const after = snapshot(
      [
        position({ order_id: 3, volume: '0.15' }),
        position({ order_id: 2, volume: '0.05' }),
        position({ order_id: 5 }),
      ],
      [order({ order_id: 6, type: 'sell_stop' })],
    );
    expect(n.update(before, false)).toEqual([]);
    const told = n.update(after, false);
    expect(kinds(told).sort()).toEqual(['cancelled', 'closed', 'filled', 'opened', 'partlyClosed', 'placed']);
    expect(told.find((note) => note.kind === 'partlyClosed')).toMatchObject({
      closedVolume: '0.05',
      remaining: '0.15',
    });
    expect(told.find((note) => note.kind === 'cancelled')).toMatchObject({
      ticket: 4,
      order: { type: 'buy_limit' },
    });
    // The same changes pushed late (a socket reconnecting with them on the way) are not told again.
    expect(
      n.update(after, true, [
        closed(1, '0.10', '0.00'),
        closed(3, '0.05', '0.15'),
        filled(2),
        opened(5),
        placedEvent(6),
        cancelledEvent(4),
      ]),
    ).toEqual([]);
    expect(n.nextDue()).toBeNull();
  });

  it('tells every pushed partial close and matches the snapshot by the volume left', () => {
    const { n, clock } = notifier();
    n.update(snapshot([position({ volume: '0.30' })]), true);
    expect(n.update(snapshot([position({ volume: '0.10' })]), true)).toEqual([]);
    const told = n.update(snapshot([position({ volume: '0.10' })]), true, [
      closed(1, '0.10', '0.20'),
      closed(1, '0.10', '0.10'),
    ]);
    expect(told).toMatchObject([
      { kind: 'partlyClosed', remaining: '0.20' },
      { kind: 'partlyClosed', remaining: '0.10' },
    ]);
    clock.now = 5000;
    expect(n.update(snapshot([position({ volume: '0.10' })]), true)).toEqual([]);
  });

  it('knows the type of a pushed fill and the details of a pushed cancel from earlier snapshots', () => {
    const { n } = notifier();
    n.update(snapshot([], [order(), order({ order_id: 4, type: 'sell_stop', volume: '0.07' })]), true);
    // The socket's snapshot without both orders came before the events.
    const told = n.update(snapshot([position({ order_id: 2, volume: '0.05' })]), true, [
      filled(2),
      cancelledEvent(4),
    ]);
    expect(told).toMatchObject([
      { kind: 'filled', ticket: 2, orderType: 'buy_limit' },
      { kind: 'cancelled', ticket: 4, order: { type: 'sell_stop', volume: '0.07', symbol: 'BTCUSDT' } },
    ]);
  });

  it('still knows an order that waited long without a snapshot when it fills', () => {
    const { n, clock } = notifier();
    n.update(snapshot([], [order()]), true);
    // No position, no tick pushes: the next snapshot comes with the fill, an hour later.
    clock.now = 3_600_000;
    expect(n.update(snapshot([position({ order_id: 2, volume: '0.05' })]), true, [filled(2)])).toMatchObject([
      { kind: 'filled', orderType: 'buy_limit' },
    ]);
  });

  it('knows an order placed elsewhere that filled before any snapshot listed it from its pushed event', () => {
    const { n } = notifier();
    n.update(snapshot([]), true);
    const told = n.update(snapshot([position({ order_id: 11 })]), true, [
      placedEvent(11, 'sell_stop'),
      filled(11),
    ]);
    expect(told).toMatchObject([
      { kind: 'placed', ticket: 11, price: null },
      { kind: 'filled', ticket: 11, orderType: 'sell_stop' },
    ]);
  });

  it('knows an order placed here that filled before any snapshot listed it', () => {
    const placed = new PlacedOrders<TOrd>(() => 0);
    placed.remember(order({ order_id: 9, type: 'buy_stop' }));
    const { n } = notifier(placed);
    n.update(snapshot([]), true);
    const told = n.update(snapshot([position({ order_id: 9 })]), true, [
      placedEvent(9, 'buy_stop'),
      filled(9),
    ]);
    expect(told).toMatchObject([
      { kind: 'placed', ticket: 9, price: '66000.00' },
      { kind: 'filled', ticket: 9, orderType: 'buy_stop' },
    ]);
    // Polling: the same from the diff.
    const polled = notifier(placed).n;
    polled.update(snapshot([]), false);
    expect(polled.update(snapshot([position({ order_id: 9 })]), false)).toMatchObject([
      { kind: 'filled', orderType: 'buy_stop' },
    ]);
  });

  it('says nothing on the first snapshot or across an account switch', () => {
    const { n } = notifier();
    expect(n.update(snapshot([position()]), false)).toEqual([]);
    expect(n.update(snapshot([position({ order_id: 5 })], [], 8), false)).toEqual([]);
    expect(kinds(n.update(snapshot([], [], 8), false))).toEqual(['closed']);
  });
});

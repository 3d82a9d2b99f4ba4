import { ZChartLayout } from '@broker/contracts/chart-layout';
import { describe, expect, it } from 'vitest';
import {
  activePane,
  layoutKey,
  layoutSymbols,
  normaliseLayout,
  shownPanes,
  type TChartLayout,
  type TLayoutState,
  withActive,
  withKind,
  withPane,
} from '../../src/features/trade/chart-layout';
import { LayoutSaver } from '../../src/features/trade/layout-saver';

const CATALOGUE = new Set(['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'BTCUSDT', 'US30']);
const known = (symbol: string) => CATALOGUE.has(symbol);
const fresh = () => normaliseLayout(null, known);

describe('chart layout state', () => {
  it('starts as one chart with four distinct remembered panes, the first one the given symbol', () => {
    const layout = normaliseLayout(null, known, 'GBPUSD');
    expect(layout.kind).toBe(1);
    expect(layout.active).toBe(0);
    expect(layout.panes.map((p) => p.symbol)).toEqual(['GBPUSD', 'EURUSD', 'XAUUSD', 'BTCUSDT']);
    expect(layout.panes.every((p) => p.timeframe === 'M15')).toBe(true);
    expect(shownPanes(layout)).toHaveLength(1);
  });

  it('makes a server layout whole: unknown symbols and timeframes replaced, panes filled, the active one shown', () => {
    const layout = normaliseLayout(
      {
        kind: 2,
        panes: [
          { symbol: 'xauusd', timeframe: 'H1' },
          { symbol: 'DELISTED', timeframe: 'H4' },
        ],
        active: 1,
      },
      known,
    );
    expect(layout.panes[0]).toEqual({ symbol: 'XAUUSD', timeframe: 'H1' });
    // The removed symbol becomes the next default not already shown; its timeframe is kept.
    expect(layout.panes[1]).toEqual({ symbol: 'EURUSD', timeframe: 'H4' });
    expect(layout.panes).toHaveLength(4);
    expect(new Set(layout.panes.map((p) => p.symbol)).size).toBe(4);
    expect(layout.active).toBe(1);
    for (const raw of [{ kind: 3 }, { kind: 2, active: 5 }, { active: -1 }, { active: 0.5 }, 'junk', 42]) {
      const made = normaliseLayout(raw, known);
      expect(ZChartLayout.safeParse(made).success, JSON.stringify(raw)).toBe(true);
    }
    // Whatever comes in, what goes to the server passes its schema.
    expect(ZChartLayout.safeParse(layout).success).toBe(true);
  });

  it('switches layout kinds keeping the active chart in view', () => {
    let layout: TLayoutState = withKind(fresh(), 4);
    expect(shownPanes(layout)).toHaveLength(4);
    layout = withActive(layout, 3);
    const watched = activePane(layout);
    // Down to one chart: the watched pane swaps into the only place, and stays active.
    const single = withKind(layout, 1);
    expect(single.active).toBe(0);
    expect(activePane(single)).toEqual(watched);
    expect(single.panes).toHaveLength(4);
    // Down to two: it takes the second place; the first chart stays.
    const two = withKind(layout, 2);
    expect(two.active).toBe(1);
    expect(activePane(two)).toEqual(watched);
    expect(two.panes[0]).toEqual(layout.panes[0]);
    // An active pane still shown stays where it is.
    expect(withKind(withActive(layout, 1), 2)).toMatchObject({ kind: 2, active: 1 });
    // The same kind changes nothing (the same object: no save).
    expect(withKind(layout, 4)).toBe(layout);
  });

  it('activates only a shown pane and changes the active pane’s symbol and timeframe', () => {
    const two = withKind(fresh(), 2);
    expect(withActive(two, 3)).toBe(two);
    expect(withActive(two, -1)).toBe(two);
    const second = withActive(two, 1);
    expect(second.active).toBe(1);
    const changed = withPane(second, { symbol: 'US30' });
    expect(changed.panes[1]?.symbol).toBe('US30');
    expect(changed.panes[0]).toEqual(two.panes[0]);
    const timed = withPane(changed, { timeframe: 'H4' }, 0);
    expect(timed.panes[0]?.timeframe).toBe('H4');
    expect(withPane(timed, { symbol: 'US30' })).toBe(timed);
    expect(withPane(timed, { symbol: 'EURUSD' }, 7)).toBe(timed);
  });

  it('asks the stream for the union of the symbols on screen and keys layouts for saving', () => {
    let layout = withKind(fresh(), 4);
    layout = withPane(layout, { symbol: 'XAUUSD' }, 0);
    expect(layoutSymbols(layout).sort()).toEqual(['BTCUSDT', 'USDJPY', 'XAUUSD']);
    expect(layoutSymbols(withKind(fresh(), 1))).toEqual(['EURUSD']);
    expect(layoutKey(layout)).toBe(layoutKey(normaliseLayout(JSON.parse(JSON.stringify(layout)), known)));
    expect(layoutKey(layout)).not.toBe(layoutKey(withActive(layout, 2)));
  });
});

/** A saver on a hand-driven clock: `tick()` runs the waiting timer. */
function saverOnClock(answers: boolean[] = []) {
  const sent: { layout: TChartLayout; keepalive: boolean }[] = [];
  let pending: (() => void) | null = null;
  const saver = new LayoutSaver({
    delayMs: 600,
    setTimer: (run) => {
      pending = run;
      return run;
    },
    clearTimer: (timer) => {
      if (pending === timer) pending = null;
    },
    save: async (layout, keepalive) => {
      sent.push({ layout, keepalive });
      return answers.shift() ?? true;
    },
  });
  const tick = async () => {
    const run = pending;
    pending = null;
    run?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { saver, sent, tick };
}

describe('saving the layout', () => {
  it('sends one save, of the last layout, after a run of changes; nothing when it equals the server’s', async () => {
    const { saver, sent, tick } = saverOnClock();
    const start = fresh();
    saver.loaded(start);
    let layout = withKind(start, 4);
    saver.change(layout);
    layout = withActive(layout, 2);
    saver.change(layout);
    layout = withPane(layout, { symbol: 'US30' });
    saver.change(layout);
    expect(saver.waiting).toBe(true);
    expect(sent).toHaveLength(0);
    await tick();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.keepalive).toBe(false);
    expect(ZChartLayout.parse(sent[0]?.layout)).toEqual({ kind: 4, panes: layout.panes, active: 2 });
    // Back and forth to what the server has: nothing to send.
    saver.change(withKind(layout, 2));
    saver.change(layout);
    await tick();
    expect(sent).toHaveLength(1);
  });

  it('tries a refused save again with the next change, and sends a waiting change at once when the page is left', async () => {
    const { saver, sent, tick } = saverOnClock([false]);
    saver.loaded(fresh());
    const two = withKind(fresh(), 2);
    saver.change(two);
    await tick();
    expect(sent).toHaveLength(1);
    // The refused layout was not taken as saved: the next change sends.
    const four = withKind(two, 4);
    saver.change(four);
    await saver.flush();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ keepalive: true, layout: { kind: 4 } });
    expect(saver.waiting).toBe(false);
    // Nothing waiting: leaving sends nothing.
    await saver.flush();
    expect(sent).toHaveLength(2);
  });
});

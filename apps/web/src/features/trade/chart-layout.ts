import {
  CHART_LAYOUT_KINDS,
  CHART_LAYOUT_LIMITS,
  CHART_LAYOUT_TIMEFRAMES,
  type TChartLayout,
  type TChartLayoutKind,
  type TChartPane,
} from '@broker/contracts/chart-layout-paths';
import type { TTimeframe } from '../../lib/market-stream';

export type { TChartLayout, TChartLayoutKind, TChartPane };
export { CHART_LAYOUT_KINDS };

/** A new pane shows the symbol and timeframe of the first chart's default. */
export const DEFAULT_TIMEFRAME: TTimeframe = 'M15';
/** The symbols new panes take, in order, skipping any already shown: a major, gold, crypto, a yen pair. */
export const DEFAULT_PANE_SYMBOLS = ['EURUSD', 'XAUUSD', 'BTCUSDT', 'USDJPY', 'GBPUSD', 'US30'] as const;

/**
 * The layout the terminal works with: always four panes (those beyond `kind` are kept for when the
 * layout grows again, as the server keeps them), `active` one of the shown ones.
 */
export interface TLayoutState extends TChartLayout {
  panes: TChartPane[];
}

const isKind = (value: unknown): value is TChartLayoutKind =>
  (CHART_LAYOUT_KINDS as readonly unknown[]).includes(value);
const isTimeframe = (value: unknown): value is TTimeframe =>
  (CHART_LAYOUT_TIMEFRAMES as readonly unknown[]).includes(value);

/**
 * A layout from any source (the server, an address, nothing) made whole: a known kind, four panes
 * whose symbols the terminal knows (`known`; others become the next unused default) with known
 * timeframes, and an active pane among those shown. `first` is the first pane's symbol when there is
 * no layout at all.
 */
export function normaliseLayout(
  raw: unknown,
  known: (symbol: string) => boolean,
  first: string = DEFAULT_PANE_SYMBOLS[0],
): TLayoutState {
  const source = (raw && typeof raw === 'object' ? raw : {}) as Partial<Record<keyof TChartLayout, unknown>>;
  const kind = isKind(source.kind) ? source.kind : 1;
  const given = Array.isArray(source.panes) ? source.panes.slice(0, CHART_LAYOUT_LIMITS.panes) : [];
  const panes: TChartPane[] = [];
  const used = new Set<string>();
  const nextDefault = () => {
    const candidates = [first, ...DEFAULT_PANE_SYMBOLS];
    return candidates.find((s) => known(s) && !used.has(s)) ?? candidates.find(known) ?? first;
  };
  for (let index = 0; index < CHART_LAYOUT_LIMITS.panes; index++) {
    const pane = (given[index] ?? {}) as Partial<Record<keyof TChartPane, unknown>>;
    const symbol =
      typeof pane.symbol === 'string' && known(pane.symbol.toUpperCase())
        ? pane.symbol.toUpperCase()
        : nextDefault();
    used.add(symbol);
    panes.push({ symbol, timeframe: isTimeframe(pane.timeframe) ? pane.timeframe : DEFAULT_TIMEFRAME });
  }
  const active =
    typeof source.active === 'number' && Number.isInteger(source.active) && source.active >= 0
      ? source.active
      : 0;
  return { kind, panes, active: active < kind ? active : 0 };
}

/**
 * Another layout kind. The active pane stays in view: when the smaller layout would hide it, it
 * swaps places with the last pane shown, so the chart the trader was looking at is still there.
 */
export function withKind(layout: TLayoutState, kind: TChartLayoutKind): TLayoutState {
  if (layout.kind === kind) return layout;
  if (layout.active < kind) return { ...layout, kind };
  const panes = [...layout.panes];
  const last = kind - 1;
  [panes[last], panes[layout.active]] = [panes[layout.active] as TChartPane, panes[last] as TChartPane];
  return { kind, panes, active: last };
}

/** Another pane made active (one of those shown). */
export function withActive(layout: TLayoutState, index: number): TLayoutState {
  if (index === layout.active || index < 0 || index >= layout.kind) return layout;
  return { ...layout, active: index };
}

/** A pane's symbol or timeframe changed (by default the active pane's). */
export function withPane(
  layout: TLayoutState,
  change: Partial<TChartPane>,
  index: number = layout.active,
): TLayoutState {
  const pane = layout.panes[index];
  if (!pane) return layout;
  const next = { ...pane, ...change };
  if (next.symbol === pane.symbol && next.timeframe === pane.timeframe) return layout;
  const panes = [...layout.panes];
  panes[index] = next;
  return { ...layout, panes };
}

/** The panes on screen. */
export const shownPanes = (layout: TLayoutState): TChartPane[] => layout.panes.slice(0, layout.kind);

/** The active pane (its symbol drives the ticket, the watchlist and the shortcuts). */
export const activePane = (layout: TLayoutState): TChartPane =>
  layout.panes[layout.active] ?? (layout.panes[0] as TChartPane);

/** The symbols on screen, each once: the market stream is asked for their union. */
export const layoutSymbols = (layout: TLayoutState): string[] => [
  ...new Set(shownPanes(layout).map((p) => p.symbol)),
];

/** What the server keeps: the same shape (four panes), compared to know whether a save is due. */
export const layoutKey = (layout: TChartLayout): string =>
  `${layout.kind}|${layout.active}|${layout.panes.map((p) => `${p.symbol}:${p.timeframe}`).join(',')}`;

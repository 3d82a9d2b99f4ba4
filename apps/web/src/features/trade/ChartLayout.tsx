import './chart-layout.css';
import type { TKlineColor } from '@broker/domain/kline-color';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import type { TNamedQuote, TTimeframe } from '../../lib/market-stream';
import { ChartPanel } from './ChartPanel';
import { CHART_LAYOUT_KINDS, shownPanes, type TChartLayoutKind, type TLayoutState } from './chart-layout';
import { ConnectionBadge } from './connection';
import type { TSymbolSpec, TTradeSettings } from './useTradeData';

const KIND_ICONS: Record<TChartLayoutKind, string> = {
  1: 'M4 5h16v14H4z',
  2: 'M4 5h7v14H4zM13 5h7v14h-7z',
  4: 'M4 5h7v6H4zM13 5h7v6h-7zM4 13h7v6H4zM13 13h7v6h-7z',
};

/** The switch moves between toolbars when one chart becomes several: the choice made by keyboard keeps focus. */
let refocusSwitch = false;

/**
 * The layout switch: one, two or four charts, as a group of radio buttons (arrow keys move the choice,
 * each has its name).
 */
export function LayoutSwitch({
  kind,
  onKind,
}: {
  kind: TChartLayoutKind;
  onKind(kind: TChartLayoutKind): void;
}) {
  const { t } = useI18n();
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!refocusSwitch) return;
    refocusSwitch = false;
    group.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
  }, []);
  return (
    <div
      ref={group}
      className="tr-layout-switch"
      role="radiogroup"
      aria-label={t('trade.layout.label')}
      data-testid="layout-switch"
    >
      {CHART_LAYOUT_KINDS.map((option) => (
        <label key={option} className="tr-layout-option" title={t(`trade.layout.kind.${option}`)}>
          <input
            type="radio"
            name="tr-chart-layout"
            className="tr-sr-only"
            value={option}
            checked={kind === option}
            onChange={(event) => {
              refocusSwitch = document.activeElement === event.currentTarget;
              onKind(option);
            }}
            data-testid={`layout-${option}`}
          />
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path d={KIND_ICONS[option]} />
          </svg>
          <span className="tr-sr-only">{t(`trade.layout.kind.${option}`)}</span>
        </label>
      ))}
    </div>
  );
}

interface TPaneProps {
  index: number;
  count: number;
  symbol: string;
  timeframe: TTimeframe;
  active: boolean;
  quote: TNamedQuote | undefined;
  spec: TSymbolSpec | undefined;
  klineColor: TKlineColor;
  settings: TTradeSettings;
  historyVersion: number;
  toolbar: HTMLElement | null;
  drawbar: HTMLElement | null;
  onActivate(index: number): void;
  onTimeframe(index: number, timeframe: TTimeframe): void;
}

/**
 * One pane of a multi-chart layout. Memoised: a tick re-renders only the panes whose symbol ticked
 * (each gets its own quote object, unchanged while its symbol is quiet), not all four.
 */
const LayoutPane = memo(function LayoutPane({
  index,
  count,
  symbol,
  timeframe,
  active,
  quote,
  spec,
  klineColor,
  settings,
  historyVersion,
  toolbar,
  drawbar,
  onActivate,
  onTimeframe,
}: TPaneProps) {
  const { t } = useI18n();
  const activate = useCallback(() => onActivate(index), [onActivate, index]);
  const changeTimeframe = useCallback((tf: TTimeframe) => onTimeframe(index, tf), [onTimeframe, index]);
  return (
    <div
      className={`tr-pane${active ? ' is-active' : ''}`}
      data-testid="chart-pane"
      data-pane={index}
      data-active={active ? 'true' : 'false'}
      onPointerDownCapture={activate}
      onFocusCapture={activate}
    >
      <ChartPanel
        symbol={symbol}
        quote={quote}
        spec={spec}
        timeframe={timeframe}
        onTimeframe={changeTimeframe}
        klineColor={klineColor}
        settings={settings}
        historyVersion={historyVersion}
        quickTrade={active}
        pane={{
          label: t('trade.layout.pane', { index: index + 1, count, symbol, timeframe }),
          active,
          onActivate: activate,
          toolbar,
          drawbar,
        }}
      />
    </div>
  );
});

/**
 * The terminal's charts: one, two (side by side, stacked when the area is narrow) or four (2 × 2), each
 * pane with its own symbol and timeframe (and the symbol's indicators and drawings). The active pane is
 * outlined and announced; its symbol drives the ticket, the watchlist and the shortcuts, and the shared
 * toolbar (timeframes, indicators, alert, drawing tools) acts on it.
 */
export function ChartLayout({
  layout,
  onKind,
  onActive,
  onTimeframe,
  quoteOf,
  specs,
  klineColor,
  settings,
  historyVersion,
  tools,
}: {
  layout: TLayoutState;
  onKind(kind: TChartLayoutKind): void;
  onActive(index: number): void;
  onTimeframe(index: number, timeframe: TTimeframe): void;
  quoteOf(symbol: string): TNamedQuote | undefined;
  specs: ReadonlyMap<string, TSymbolSpec>;
  klineColor: TKlineColor;
  settings: TTradeSettings;
  historyVersion: number;
  /** The one-click switch and the shortcuts list (they act on the active pane's symbol). */
  tools: React.ReactNode;
}) {
  const { t } = useI18n();
  const [toolbar, setToolbar] = useState<HTMLElement | null>(null);
  const [drawbar, setDrawbar] = useState<HTMLElement | null>(null);
  const panes = shownPanes(layout);
  const active = layout.panes[layout.active];
  const switcher = <LayoutSwitch kind={layout.kind} onKind={onKind} />;

  // Announce a change of the active pane (not the first render).
  const [announcement, setAnnouncement] = useState('');
  const announced = useRef<string | null>(null);
  const activeText =
    layout.kind > 1 && active
      ? t('trade.layout.active', {
          index: layout.active + 1,
          count: layout.kind,
          symbol: active.symbol,
          timeframe: active.timeframe,
        })
      : '';
  useEffect(() => {
    if (announced.current !== null && announced.current !== activeText) setAnnouncement(activeText);
    announced.current = activeText;
  }, [activeText]);

  if (layout.kind === 1 && active) {
    return (
      <div className="tr-layout" data-testid="chart-layout" data-kind={1}>
        <ChartPanel
          symbol={active.symbol}
          quote={quoteOf(active.symbol)}
          spec={specs.get(active.symbol)}
          timeframe={active.timeframe}
          onTimeframe={(tf) => onTimeframe(layout.active, tf)}
          klineColor={klineColor}
          settings={settings}
          historyVersion={historyVersion}
          tools={
            <>
              {switcher}
              {tools}
            </>
          }
        />
        <p className="tr-sr-only" aria-live="polite">
          {announcement}
        </p>
      </div>
    );
  }

  return (
    <div className="tr-layout" data-testid="chart-layout" data-kind={layout.kind}>
      <h1 className="tr-sr-only">{t('trade.title')}</h1>
      <div className="tr-layout-bar">
        <div className="tr-layout-tools" ref={setToolbar} />
        <div className="tr-layout-end">
          {switcher}
          {tools}
          <ConnectionBadge />
        </div>
      </div>
      <div className="tr-layout-main">
        <div className="tr-layout-draw" ref={setDrawbar} />
        <div className="tr-layout-grid" data-kind={layout.kind}>
          {panes.map((pane, index) => (
            <LayoutPane
              // Panes keep their place: a pane's chart stays mounted while its symbol changes.
              key={index}
              index={index}
              count={layout.kind}
              symbol={pane.symbol}
              timeframe={pane.timeframe}
              active={index === layout.active}
              quote={quoteOf(pane.symbol)}
              spec={specs.get(pane.symbol)}
              klineColor={klineColor}
              settings={settings}
              historyVersion={historyVersion}
              toolbar={toolbar}
              drawbar={drawbar}
              onActivate={onActive}
              onTimeframe={onTimeframe}
            />
          ))}
        </div>
      </div>
      <p className="tr-sr-only" aria-live="polite" data-testid="layout-announcement">
        {announcement}
      </p>
    </div>
  );
}

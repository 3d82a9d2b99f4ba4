import { useCallback, useEffect, useRef, useState } from 'react';
import { callRoute } from '../../lib/api';
import { useI18n } from '../../lib/i18n';
import { normaliseLayout, type TLayoutState } from './chart-layout';
import { LayoutSaver } from './layout-saver';

/** A save waits this long after the last change: a trader clicking through symbols saves once. */
export const LAYOUT_SAVE_DELAY_MS = 600;

export interface TChartLayoutView {
  /** `loading` until the server's layout (or its failure) and the catalogue are in. */
  status: 'loading' | 'ready';
  layout: TLayoutState;
  /**
   * Changes the layout; the server gets it `LAYOUT_SAVE_DELAY_MS` after the last change. Answers the
   * new layout, or null when nothing changed (or the layout has not loaded yet).
   */
  change(update: (layout: TLayoutState) => TLayoutState): TLayoutState | null;
}

/**
 * The trader's chart layout, kept on the server (it follows them to another browser). Read once;
 * each change is saved after a short pause, one save at a time, and a pending save is sent at once
 * (outliving the page) when the trader leaves, hides the tab or reloads.
 */
export function useChartLayout({
  ready,
  known,
  first,
  boot,
}: {
  /** The catalogue has loaded (or failed): symbols can be judged. */
  ready: boolean;
  known(symbol: string): boolean;
  /** The first pane's symbol when the trader has no layout yet. */
  first: string | undefined;
  /**
   * The saved layout as the server read it for a server-rendered terminal (null: none saved yet);
   * undefined when the page did not come from the server.
   */
  boot?: unknown;
}): TChartLayoutView {
  const { lang } = useI18n();
  const langRef = useRef(lang);
  langRef.current = lang;
  const saver = useRef<LayoutSaver | null>(null);
  saver.current ??= new LayoutSaver({
    delayMs: LAYOUT_SAVE_DELAY_MS,
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    save: async (saved, keepalive) =>
      (await callRoute('chartlayoutsave', { layout: saved }, langRef.current, { keepalive })).succeed,
  });
  const [server, setServer] = useState<{ raw: unknown } | null>(() =>
    boot === undefined ? null : { raw: boot },
  );
  // With the server's reading and the catalogue in, the layout is whole from the first render.
  const [layout, setLayout] = useState<TLayoutState | null>(() => {
    if (!server || !ready) return null;
    const initial = normaliseLayout(server.raw, known, first);
    saver.current?.loaded(initial);
    return initial;
  });
  const latest = useRef<TLayoutState | null>(layout);
  const knownRef = useRef(known);
  knownRef.current = known;

  // Read once per visit: the language does not change the layout.
  // biome-ignore lint/correctness/useExhaustiveDependencies: lang only labels the call
  useEffect(() => {
    if (server) return;
    let live = true;
    void callRoute('chartlayout', {}, lang).then((answer) => {
      if (live) setServer({ raw: answer.succeed ? (answer.Data?.layout ?? null) : null });
    });
    return () => {
      live = false;
    };
  }, []);

  // The first layout: the server's, made whole once the catalogue can judge its symbols.
  useEffect(() => {
    if (layout || !server || !ready) return;
    const initial = normaliseLayout(server.raw, knownRef.current, first);
    saver.current?.loaded(initial);
    latest.current = initial;
    setLayout(initial);
  }, [layout, server, ready, first]);

  const change = useCallback((update: (layout: TLayoutState) => TLayoutState) => {
    const current = latest.current;
    if (!current) return null;
    const next = update(current);
    if (next === current) return null;
    latest.current = next;
    setLayout(next);
    saver.current?.change(next);
    return next;
  }, []);

  // Leaving, reloading or hiding the tab sends a waiting save now.
  useEffect(() => {
    const flush = () => void saver.current?.flush(true);
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onVisibility);
      flush();
    };
  }, []);

  const fallback = useRef<TLayoutState | null>(null);
  fallback.current ??= normaliseLayout(null, () => true, first);
  return { status: layout ? 'ready' : 'loading', layout: layout ?? fallback.current, change };
}

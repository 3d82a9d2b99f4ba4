import { useCallback, useEffect, useRef, useState } from 'react';
import { callRoute } from '../../lib/api';
import { useI18n } from '../../lib/i18n';
import { layoutKey, normaliseLayout, type TLayoutState } from './chart-layout';

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
}: {
  /** The catalogue has loaded (or failed): symbols can be judged. */
  ready: boolean;
  known(symbol: string): boolean;
  /** The first pane's symbol when the trader has no layout yet. */
  first: string | undefined;
}): TChartLayoutView {
  const { lang } = useI18n();
  const [server, setServer] = useState<{ raw: unknown } | null>(null);
  const [layout, setLayout] = useState<TLayoutState | null>(null);
  const saved = useRef('');
  const latest = useRef<TLayoutState | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const knownRef = useRef(known);
  knownRef.current = known;

  // Read once per visit: the language does not change the layout.
  // biome-ignore lint/correctness/useExhaustiveDependencies: lang only labels the call
  useEffect(() => {
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
    const first_ = normaliseLayout(server.raw, knownRef.current, first);
    saved.current = layoutKey(first_);
    latest.current = first_;
    setLayout(first_);
  }, [layout, server, ready, first]);

  const send = useCallback(
    (keepalive: boolean) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      const next = latest.current;
      if (!next) return;
      const key = layoutKey(next);
      if (key === saved.current) return;
      const body = { layout: { kind: next.kind, panes: next.panes, active: next.active } };
      queue.current = queue.current
        .catch(() => undefined)
        .then(async () => {
          if (layoutKey(next) === saved.current) return;
          const answer = await callRoute('chartlayoutsave', body, lang, { keepalive });
          if (answer.succeed) saved.current = key;
        });
    },
    [lang],
  );

  const change = useCallback(
    (update: (layout: TLayoutState) => TLayoutState) => {
      const current = latest.current;
      if (!current) return null;
      const next = update(current);
      if (next === current) return null;
      latest.current = next;
      setLayout(next);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => send(false), LAYOUT_SAVE_DELAY_MS);
      return next;
    },
    [send],
  );

  // Leaving, reloading or hiding the tab sends a waiting save now.
  useEffect(() => {
    const flush = () => {
      if (timer.current) send(true);
    };
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
  }, [send]);

  const fallback = useRef<TLayoutState | null>(null);
  fallback.current ??= normaliseLayout(null, () => true, first);
  return { status: layout ? 'ready' : 'loading', layout: layout ?? fallback.current, change };
}

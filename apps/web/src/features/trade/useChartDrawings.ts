import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { callRoute } from '../../lib/api';
import { useI18n } from '../../lib/i18n';
import { useShell } from '../../lib/store';
import type { TDrawingState } from './DrawingLayer';
import {
  parseDrawings,
  readLocalDrawings,
  saveLocalDrawings,
  type TChartDrawing,
  type TChartDrawingKind,
} from './drawings';

/**
 * The drawings of one symbol: a signed-in trader's on the server (per user and symbol), a
 * visitor's in this browser. Saves go one after another, the last one wins.
 */
export function useChartDrawings(symbol: string): TDrawingState & { loaded: boolean } {
  const { lang } = useI18n();
  const { user } = useShell();
  const signedIn = user !== null;
  const [drawings, setDrawings] = useState<TChartDrawing[]>([]);
  const [tool, setTool] = useState<TChartDrawingKind | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  /** Changes made before the server's copy arrived are kept, not overwritten. */
  const touched = useRef(false);

  useEffect(() => {
    touched.current = false;
    setDrawings([]);
    setSelected(null);
    setTool(null);
    setLoaded(false);
    if (!signedIn) {
      setDrawings(readLocalDrawings(symbol));
      setLoaded(true);
      return;
    }
    let live = true;
    void callRoute('chartdrawings', { symbol }, lang)
      .then((answer) => {
        if (!live) return;
        if (answer.succeed && answer.Data && !touched.current)
          setDrawings(parseDrawings(answer.Data.drawings));
        setLoaded(true);
      })
      .catch(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [symbol, signedIn, lang]);

  const change = useCallback(
    (next: TChartDrawing[], save = true) => {
      touched.current = true;
      setDrawings(next);
      if (!save) return;
      if (!signedIn) {
        saveLocalDrawings(symbol, next);
        return;
      }
      saving.current = saving.current
        .catch(() => undefined)
        .then(() => callRoute('chartdrawingssave', { symbol, drawings: next }, lang));
    },
    [symbol, signedIn, lang],
  );

  return useMemo(
    () => ({ drawings, tool, selected, setTool, setSelected, change, loaded }),
    [drawings, tool, selected, change, loaded],
  );
}

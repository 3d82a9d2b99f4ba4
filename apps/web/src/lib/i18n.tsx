import { intlLocale } from '@broker/i18n/locales';
import { createTranslator, type TCatalog, type TTranslate } from '@broker/i18n/translator';
import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { dateFormat, numberFormat } from './intl-cache';
import { reloadForChunkError } from './resilience';

interface TI18n {
  lang: string;
  intl: string;
  t: TTranslate;
  formatNumber(value: number | bigint, options?: Intl.NumberFormatOptions): string;
  formatDate(value: Date | number, options?: Intl.DateTimeFormatOptions): string;
}

/**
 * The time of a trade (open, close, placed, filled) wherever it is shown, terminal or history: the
 * date with a four-digit year and a 24-hour time to the second, in the reader's language and zone.
 */
export const TRADE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

const I18nContext = createContext<TI18n | null>(null);

/**
 * The translations of the page's language. `catalog` may hold only the messages the server render
 * used (entry-server.tsx); `complete` then brings the whole catalog, which is merged into it. A
 * message asked for before it has arrived reads as empty, and the page renders again once it has.
 */
export function I18nProvider({
  lang,
  catalog,
  complete,
  children,
}: {
  lang: string;
  catalog: TCatalog;
  complete?: Promise<TCatalog>;
  children: ReactNode;
}) {
  const [version, setVersion] = useState(0);
  const pending = useRef(complete !== undefined);
  const missed = useRef(false);
  useEffect(() => {
    if (!complete) return;
    let live = true;
    const settle = (full: TCatalog | null) => {
      if (full) Object.assign(catalog, full);
      pending.current = false;
      // The page's second render with every message, in slices (a transition), not one long task.
      if (live && missed.current) startTransition(() => setVersion((n) => n + 1));
    };
    void complete.then(settle, () => settle(null));
    return () => {
      live = false;
    };
  }, [complete, catalog]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version renders again with the whole catalog
  const value = useMemo<TI18n>(() => {
    const intl = intlLocale(lang);
    const translate = createTranslator(lang, catalog);
    return {
      lang,
      intl,
      t: (key, values) => {
        if (pending.current && !(key in catalog)) {
          missed.current = true;
          return '';
        }
        return translate(key, values);
      },
      formatNumber: (v, o) => numberFormat(intl, o).format(v),
      formatDate: (v, o) => dateFormat(intl, o).format(v),
    };
  }, [lang, catalog, version]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The pause before catalog attempt `attempt` (1-based): 0.5 s doubling, at most 30 s. */
export function catalogRetryMs(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** (attempt - 1));
}

/**
 * A language's whole catalog from its static file. A failed attempt is tried again after a growing
 * pause (`catalogRetryMs`, cut short when the browser comes back online) for as long as the page is
 * open: a message that was not inlined reads as empty meanwhile, never as its raw key. A file that
 * is gone (404: a new deployment replaced it) reloads the page once, as a missing chunk does (spec 8).
 */
export async function fetchCatalog(
  href: string,
  {
    load = (url: string) => fetch(url),
    wait = waitOrOnline,
    gone = () => reloadForChunkError(),
  }: {
    load?: (url: string) => Promise<Response>;
    wait?: (ms: number) => Promise<void>;
    gone?: () => void;
  } = {},
): Promise<TCatalog> {
  let reloaded = false;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await load(href);
      if (response.ok) return (await response.json()) as TCatalog;
      if (response.status === 404 && !reloaded) {
        reloaded = true;
        gone();
      }
    } catch {
      // offline or the connection dropped: try again
    }
    await wait(catalogRetryMs(attempt));
  }
}

function waitOrOnline(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
  });
}

export function useI18n(): TI18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

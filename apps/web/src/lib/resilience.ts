/**
 * Browser resilience (spec 2.3 and 8): a failed chunk load forces one reload, at most once per
 * 60 s; link prefetching is skipped on offline, 2g and data-saver connections and otherwise waits
 * for the browser to be idle, with a 2000 ms timeout.
 */
export const CHUNK_RELOAD_GUARD_MS = 60_000;
export const PREFETCH_IDLE_TIMEOUT_MS = 2_000;
/** How long after the load event prefetching waits for the page's own requests. */
export const PREFETCH_DELAY_MS = 1_500;
const RELOAD_KEY = 'chunk-reload-at';

export function shouldReloadAfterChunkError(now: number, lastReloadAt: number | null): boolean {
  return lastReloadAt === null || now - lastReloadAt > CHUNK_RELOAD_GUARD_MS;
}

/** Where a client-side navigation in progress is going (the router's pending location), if any. */
let navigationTarget: () => string | null = () => null;

/** Tells the chunk guard how to read the router's pending navigation (entry-client sets it). */
export function trackNavigationTarget(read: () => string | null) {
  navigationTarget = read;
}

/**
 * Reloads the page after a chunk failed to load, unless it already did so in the last 60 s. A
 * navigation's chunk fails before the address changes, so the reload goes to the page the user
 * was going to (`target`), not back to the page they were leaving.
 */
export function reloadForChunkError(
  win: Window = window,
  target: string | null = navigationTarget(),
): boolean {
  const last = Number(win.sessionStorage.getItem(RELOAD_KEY)) || null;
  if (!shouldReloadAfterChunkError(Date.now(), last)) return false;
  win.sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
  const here = win.location.pathname + win.location.search + win.location.hash;
  if (target && target !== here) win.location.assign(target);
  else win.location.reload();
  return true;
}

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i;

export function isChunkLoadError(error: unknown): boolean {
  return CHUNK_ERROR.test(String((error as Error | undefined)?.message ?? error));
}

/**
 * Catches chunk failures that no route handles (an import in an effect, say). Route chunks are
 * handled by the router's lazy loader, and a failed prefetch is ignored, so Vite's own
 * `vite:preloadError` event, which both of those also fire, is not used here.
 */
export function installChunkReloadGuard(win: Window = window) {
  win.addEventListener('unhandledrejection', (event) => {
    if (isChunkLoadError(event.reason)) reloadForChunkError(win);
  });
}

interface TConnectionInfo {
  effectiveType?: string;
  saveData?: boolean;
}

export function canPrefetch(online: boolean, connection: TConnectionInfo | undefined): boolean {
  if (!online) return false;
  if (!connection) return true;
  if (connection.saveData) return false;
  return !(connection.effectiveType ?? '').includes('2g');
}

/**
 * Runs a prefetch once the page has loaded and its own first requests had time to answer
 * (`PREFETCH_DELAY_MS` after the load event), then when the browser is idle (2000 ms at the latest),
 * if the connection allows it. Earlier, the terminal's prefetches shared a phone's bandwidth with the
 * terminal's own data and candles and delayed them.
 */
export function schedulePrefetch(task: () => void, win: Window = window): boolean {
  const nav = win.navigator as Navigator & { connection?: TConnectionInfo };
  if (!canPrefetch(nav.onLine, nav.connection)) return false;
  const whenIdle = () => {
    if ('requestIdleCallback' in win) win.requestIdleCallback(task, { timeout: PREFETCH_IDLE_TIMEOUT_MS });
    else (win as Window).setTimeout(task, 1);
  };
  const afterDelay = () => win.setTimeout(whenIdle, PREFETCH_DELAY_MS);
  if (win.document.readyState === 'complete') afterDelay();
  else win.addEventListener('load', afterDelay, { once: true });
  return true;
}

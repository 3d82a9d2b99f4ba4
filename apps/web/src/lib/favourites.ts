import { useCallback, useSyncExternalStore } from 'react';

export const FAVOURITES_KEY = 'favourites';
const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cachedList: readonly string[] = [];

/** The favourite symbols stored as a JSON array; anything unreadable counts as none. */
export function parseFavourites(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const value = JSON.parse(raw) as unknown;
    return Array.isArray(value)
      ? [...new Set(value.filter((s): s is string => typeof s === 'string' && /^[A-Z0-9]{3,12}$/.test(s)))]
      : [];
  } catch {
    return [];
  }
}

export function toggleFavourite(list: readonly string[], symbol: string): string[] {
  return list.includes(symbol) ? list.filter((s) => s !== symbol) : [...list, symbol];
}

function readStored(): string | null {
  try {
    return window.localStorage.getItem(FAVOURITES_KEY);
  } catch {
    return null;
  }
}

function snapshot(): readonly string[] {
  const raw = readStored();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedList = parseFavourites(raw);
  }
  return cachedList;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed the list.
  const onStorage = (event: StorageEvent) => {
    if (event.key === FAVOURITES_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const NONE: readonly string[] = [];

/** Favourite symbols kept in localStorage `favourites`, shared by every screen and tab. */
export function useFavourites(): { favourites: readonly string[]; toggle(symbol: string): void } {
  const favourites = useSyncExternalStore(subscribe, snapshot, () => NONE);
  const toggle = useCallback((symbol: string) => {
    const next = toggleFavourite(snapshot(), symbol);
    try {
      window.localStorage.setItem(FAVOURITES_KEY, JSON.stringify(next));
    } catch {
      // storage full or blocked: the star simply does not stick
    }
    for (const listener of listeners) listener();
  }, []);
  return { favourites, toggle };
}

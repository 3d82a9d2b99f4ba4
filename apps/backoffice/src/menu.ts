import { BACKOFFICE_MENU, type TMenuEntry } from '@broker/contracts/permissions';
import { routerPath } from './lib/redirect';

/** Menu entries the staff member may open, in menu order. */
export function visibleMenu(permissions: readonly string[]): TMenuEntry[] {
  return BACKOFFICE_MENU.filter((entry) => permissions.includes(entry.permission));
}

/** The menu entry a router path belongs to (the longest matching path). */
export function menuEntryFor(pathname: string): TMenuEntry | undefined {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  let best: TMenuEntry | undefined;
  for (const entry of BACKOFFICE_MENU) {
    const base = routerPath(entry.path);
    const matches = base === '/' ? path === '/' : path === base || path.startsWith(`${base}/`);
    if (matches && (!best || base.length > routerPath(best.path).length)) best = entry;
  }
  return best;
}

export interface TMenuGroup {
  /** The broker's heading for the section, or null for entries without one. */
  title: string | null;
  entries: TMenuEntry[];
}

/**
 * The side menu in the broker's arrangement (sections, order, hidden entries, from adminme), kept to
 * the entries the staff member may open; without an arrangement, the product's order in one section.
 */
export function arrangedMenu(
  sections: readonly { title: string | null; keys: readonly string[] }[] | undefined,
  allowed: readonly TMenuEntry[],
): TMenuGroup[] {
  if (!sections) return [{ title: null, entries: [...allowed] }];
  return sections
    .map((section) => ({
      title: section.title,
      entries: section.keys
        .map((key) => allowed.find((entry) => entry.key === key))
        .filter((entry): entry is TMenuEntry => entry !== undefined),
    }))
    .filter((section) => section.entries.length > 0);
}

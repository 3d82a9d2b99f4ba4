import { dateFormat } from './intl-cache';

/**
 * A day ("2026-11-27") or a moment (ISO) from the server as a date in the reader's language, with its
 * time when asked; a day is read as the calendar day it names, whatever the reader's time zone.
 */
export function dateText(intl: string, iso: string, withTime = false): string {
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return iso;
  return dateFormat(intl, {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
    ...(iso.length === 10 ? { timeZone: 'UTC' } : {}),
  }).format(date);
}

/** Trading sessions (weekly UTC minute windows) turned into readable local-time lines. */
export interface TSession {
  from: number;
  to: number;
}

export type TSessionSummary =
  | { kind: 'always' }
  | { kind: 'range'; from: number; to: number; breakFrom?: number; breakTo?: number }
  | { kind: 'days'; firstDay: number; lastDay: number; from: number; to: number }
  | { kind: 'list'; windows: { from: number; to: number }[] };

const WEEK = 7 * 24 * 60;

/** Sunday 00:00 UTC of the week containing `now`, so local offsets are those of this week. */
export function weekStartUtc(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - date.getUTCDay());
}

/**
 * Sessions as times of this week: always open; one span, with a short daily break (oil, US indices);
 * the same hours on consecutive days (European and Asian indices, in the reader's zone); or a list.
 */
export function summarizeSessions(
  sessions: readonly TSession[],
  now: number,
  localDay: (ms: number) => { day: number; minute: number },
): TSessionSummary {
  const sorted = [...sessions].sort((a, b) => a.from - b.from);
  if (sorted.length === 0 || sorted.some((s) => s.to - s.from >= WEEK)) return { kind: 'always' };
  const start = weekStartUtc(now);
  const windows = sorted.map((s) => ({ from: start + s.from * 60_000, to: start + s.to * 60_000 }));
  const first = windows[0] as { from: number; to: number };
  const last = windows.at(-1) as { from: number; to: number };
  if (windows.length === 1) return { kind: 'range', from: first.from, to: first.to };

  const gaps = windows.slice(1).map((w, i) => w.from - (windows[i] as { to: number }).to);
  const sameGap = gaps.every((g) => g === gaps[0]);
  const gap = gaps[0] ?? 0;
  if (sameGap && gap > 0 && gap <= 4 * 3600_000) {
    return { kind: 'range', from: first.from, to: last.to, breakFrom: first.to, breakTo: first.to + gap };
  }

  const local = windows.map((w) => ({ a: localDay(w.from), b: localDay(w.to - 60_000) }));
  const l0 = local[0] as { a: { day: number; minute: number }; b: { day: number; minute: number } };
  const sameHours = local.every(
    (l, i) =>
      l.a.day === l.b.day &&
      l.a.minute === l0.a.minute &&
      l.b.minute === l0.b.minute &&
      (i === 0 || l.a.day === ((local[i - 1] as typeof l0).a.day + 1) % 7),
  );
  if (sameHours) {
    return {
      kind: 'days',
      firstDay: first.from,
      lastDay: last.from,
      from: first.from,
      to: first.to,
    };
  }
  return { kind: 'list', windows };
}

/**
 * The price alerts' addresses, conditions and limits (issue 21, docs/price-alerts.md), kept apart
 * from their schemas (./alert-routes.ts) so the browser can use them without bundling zod.
 */
export const ALERT_PATHS = {
  /** The trader's alerts: the active ones first, then those that fired or expired. */
  alertlist: '/api/v1/alert/list',
  /** Creates an alert on a price level or a percentage move from the price now. */
  alertcreate: '/api/v1/alert/create',
  /** Changes an active alert's level, move, note, expiry or repetition. */
  alertupdate: '/api/v1/alert/update',
  alertdelete: '/api/v1/alert/delete',
  /** Makes a fired or expired alert active again (a move is measured from the price now). */
  alertrearm: '/api/v1/alert/rearm',
} as const;

/**
 * `above`/`below`: the bid reaches the level (bid >= level, bid <= level). `moveUp`/`moveDown`: the
 * bid moves the given percentage from the bid when the alert was made (or re-armed).
 */
export const ALERT_CONDITIONS = ['above', 'below', 'moveUp', 'moveDown'] as const;
export type TAlertCondition = (typeof ALERT_CONDITIONS)[number];

export const ALERT_STATES = ['active', 'fired', 'expired'] as const;
export type TAlertState = (typeof ALERT_STATES)[number];

export const ALERT_LIMITS = {
  /** Active alerts per trader (fired and expired ones do not count). */
  activePerUser: 50,
  /** Alerts kept per trader in all (the oldest fired or expired ones go first). */
  keptPerUser: 200,
  /** Characters of the note. */
  note: 140,
  /** The largest move, in percent. */
  maxPercent: 100,
  /** How far ahead an expiry may be (ms). */
  maxExpiryMs: 366 * 86_400_000,
  /** A repeating alert fires at most once per this many ms (and again only after the price crossed back). */
  repeatCooldownMs: 60_000,
} as const;

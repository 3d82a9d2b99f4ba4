import { z } from 'zod';
import { ALERT_CONDITIONS, ALERT_LIMITS, ALERT_STATES, ALERT_PATHS as PATHS } from './alert-paths';
import { define } from './route-kit';

/**
 * Price alerts (issue 21, item 18; docs/price-alerts.md): prices are decimal strings in the symbol's
 * digits, percentages decimal strings ("1.5" = 1.5 %), times ms since the epoch.
 */

const ZSymbol = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9._]{2,20}$/, 'symbolFormat');
const ZPrice = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,8})?$/, 'priceFormat');
const ZPercent = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, 'percentFormat');
const ZNote = z.string().trim().max(ALERT_LIMITS.note, 'noteTooLong');
const ZAlertId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/);
const ZKey = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[\x20-\x7e]+$/);

/** What defines an alert: the level for `above`/`below`, the percentage for the moves. */
const ZAlertTerms = z.object({
  condition: z.enum(ALERT_CONDITIONS),
  price: ZPrice.nullable().optional(),
  percent: ZPercent.nullable().optional(),
});

/** The level or the move the condition needs, and only that. */
const termsProblem = (terms: { condition: string; price?: string | null; percent?: string | null }) => {
  const level = terms.condition === 'above' || terms.condition === 'below';
  if (level && !terms.price) return { path: 'price', message: 'required' };
  if (!level && !terms.percent) return { path: 'percent', message: 'required' };
  return null;
};

export const ZAlertCreate = ZAlertTerms.extend({
  symbol: ZSymbol,
  note: ZNote.optional(),
  /** When it stops watching (ms since the epoch), at most a year ahead; none: until it fires. */
  expiresAt: z.number().int().positive().nullable().optional(),
  /** Fires once and stops (the default), or fires each time the price crosses the level again. */
  oneShot: z.boolean().optional(),
  /** Same key again: the same alert, not a second one. */
  idempotencyKey: ZKey,
}).superRefine((value, context) => {
  const problem = termsProblem(value);
  if (problem) context.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
});
export type TAlertCreate = z.infer<typeof ZAlertCreate>;

export const ZAlertUpdate = ZAlertTerms.partial()
  .extend({
    id: ZAlertId,
    note: ZNote.optional(),
    expiresAt: z.number().int().positive().nullable().optional(),
    oneShot: z.boolean().optional(),
  })
  .superRefine((value, context) => {
    if (value.condition === undefined) return;
    const problem = termsProblem({ ...value, condition: value.condition });
    if (problem) context.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
  });
export type TAlertUpdate = z.infer<typeof ZAlertUpdate>;

export const ZPriceAlert = z.object({
  id: z.string(),
  symbol: z.string(),
  condition: z.enum(ALERT_CONDITIONS),
  /** The level of `above`/`below`; null for moves. */
  price: z.string().nullable(),
  /** The move of `moveUp`/`moveDown`; null for levels. */
  percent: z.string().nullable(),
  /** The bid the move is measured from (when made or re-armed); null for levels. */
  basePrice: z.string().nullable(),
  /** The bid at which it fires: the level, or the base moved by the percentage. */
  triggerPrice: z.string(),
  note: z.string(),
  oneShot: z.boolean(),
  expiresAt: z.number().nullable(),
  state: z.enum(ALERT_STATES),
  firedAt: z.number().nullable(),
  /** The bid that fired it. */
  firedPrice: z.string().nullable(),
  fireCount: z.number().int(),
  createdAt: z.number(),
});
export type TPriceAlert = z.infer<typeof ZPriceAlert>;

export const alertRoutes = {
  alertlist: define({
    name: 'alertlist',
    path: PATHS.alertlist,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's price alerts: active ones first, then the newest fired or expired",
    input: z.object({ symbol: ZSymbol.optional() }),
    output: z.object({
      items: z.array(ZPriceAlert),
      /** Active alerts now, and the most allowed. */
      active: z.number().int(),
      limit: z.number().int(),
    }),
  }),
  alertcreate: define({
    name: 'alertcreate',
    path: PATHS.alertcreate,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Creates a price alert (at most 50 active per trader, -5401)',
    input: ZAlertCreate,
    output: ZPriceAlert,
  }),
  alertupdate: define({
    name: 'alertupdate',
    path: PATHS.alertupdate,
    access: { kind: 'user' },
    mutates: true,
    summary: "Changes an active alert's level, move, note, expiry or repetition",
    input: ZAlertUpdate,
    output: ZPriceAlert,
  }),
  alertdelete: define({
    name: 'alertdelete',
    path: PATHS.alertdelete,
    access: { kind: 'user' },
    mutates: true,
    summary: "Deletes one of the trader's alerts",
    input: z.object({ id: ZAlertId }),
    output: z.object({ deleted: z.literal(true) }),
  }),
  alertrearm: define({
    name: 'alertrearm',
    path: PATHS.alertrearm,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Makes a fired or expired alert active again (counted against the limit)',
    input: z.object({ id: ZAlertId, expiresAt: z.number().int().positive().nullable().optional() }),
    output: ZPriceAlert,
  }),
};

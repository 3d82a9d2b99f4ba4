import type { TAlertCondition } from '@broker/contracts/alert-paths';
import { ALERT_LIMITS } from '@broker/contracts/alert-paths';
import type { TPriceAlert } from '@broker/contracts/alert-routes';
import { fromPoints } from '@broker/domain/price-format';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { Selectable } from 'kysely';
import type { TDirection } from './alert-index';
import type { PriceAlertsTable } from './schema';

export type TAlertRow = Selectable<PriceAlertsTable>;

/** What an alert watches, in integer points and hundredths of a percent. */
export interface TAlertTerms {
  condition: TAlertCondition;
  price: number | null;
  percentBp: number | null;
  basePrice: number | null;
  triggerPrice: number;
}

/** Which way the bid must go to fire the condition. */
export const directionOf = (condition: TAlertCondition): TDirection =>
  condition === 'above' || condition === 'moveUp' ? 'up' : 'down';

/** A decimal string as integer points of the symbol; -5404 with the field when it has more decimals. */
export function pointsOf(text: string, digits: number, field: string): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  const [, whole = '', fraction = ''] = match ?? [];
  if (!match || fraction.replace(/0+$/, '').length > digits)
    throw new AppError(AppErrorCode.ALERT_INVALID, { digits }, undefined, { [field]: 'priceFormat' });
  const points = Number(whole) * 10 ** digits + Number(fraction.slice(0, digits).padEnd(digits, '0') || '0');
  if (!Number.isSafeInteger(points) || points <= 0)
    throw new AppError(AppErrorCode.ALERT_INVALID, { digits }, undefined, { [field]: 'priceFormat' });
  return points;
}

/** "1.5" as 150 hundredths of a percent; -5404 outside 0.01 to 100 (a move down stays under 100). */
export function percentOf(text: string, condition: TAlertCondition): number {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  const bp = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : 0;
  const max = ALERT_LIMITS.maxPercent * 100 - (condition === 'moveDown' ? 1 : 0);
  if (bp < 1 || bp > max)
    throw new AppError(AppErrorCode.ALERT_INVALID, undefined, undefined, { percent: 'percentRange' });
  return bp;
}

/**
 * The terms of a condition given the bid now (points): a level must still be ahead of the bid
 * (-5403 when the bid is already at or beyond it: it would fire at once); a move's level is the bid
 * moved by the percentage, rounded away from the bid so a move is never smaller than asked.
 */
export function alertTerms(
  input: { condition: TAlertCondition; price?: string | null; percent?: string | null },
  bid: number,
  digits: number,
): TAlertTerms {
  const { condition } = input;
  if (condition === 'above' || condition === 'below') {
    const level = pointsOf(input.price ?? '', digits, 'price');
    if (condition === 'above' ? bid >= level : bid <= level)
      throw new AppError(AppErrorCode.ALERT_ALREADY_MET, { price: fromPoints(bid, digits) });
    return { condition, price: level, percentBp: null, basePrice: null, triggerPrice: level };
  }
  const percentBp = percentOf(input.percent ?? '', condition);
  // bid × bp / 10,000 in integers, rounded up: at least one point.
  const move = Math.max(1, Math.ceil((bid * percentBp) / 10_000));
  const triggerPrice = condition === 'moveUp' ? bid + move : bid - move;
  if (triggerPrice <= 0 || !Number.isSafeInteger(triggerPrice))
    throw new AppError(AppErrorCode.ALERT_INVALID, undefined, undefined, { percent: 'percentRange' });
  return { condition, price: null, percentBp, basePrice: bid, triggerPrice };
}

/** "150" hundredths as "1.5". */
const percentText = (bp: number) => (bp / 100).toFixed(2).replace(/\.?0+$/, '');

/** An alert row as the routes answer it. */
export function presentAlert(row: TAlertRow): TPriceAlert {
  const price = (points: string | number | null) =>
    points === null ? null : fromPoints(Number(points), row.digits);
  return {
    id: row.id,
    symbol: row.symbol,
    condition: row.condition,
    price: price(row.price),
    percent: row.percent_bp === null ? null : percentText(row.percent_bp),
    basePrice: price(row.base_price),
    triggerPrice: fromPoints(Number(row.trigger_price), row.digits),
    note: row.note,
    oneShot: row.one_shot,
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
    state: row.state,
    firedAt: row.fired_at ? new Date(row.fired_at).getTime() : null,
    firedPrice: price(row.fired_price),
    fireCount: row.fire_count,
    createdAt: new Date(row.created_at).getTime(),
  };
}

/** The expiry as a date: -5405 when it is not ahead or more than a year away; null keeps watching. */
export function expiryOf(expiresAt: number | null | undefined, now: number): Date | null {
  if (expiresAt === null || expiresAt === undefined) return null;
  if (expiresAt <= now || expiresAt > now + ALERT_LIMITS.maxExpiryMs)
    throw new AppError(AppErrorCode.ALERT_EXPIRY_INVALID);
  return new Date(expiresAt);
}

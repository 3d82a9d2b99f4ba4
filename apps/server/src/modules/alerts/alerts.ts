import { ALERT_LIMITS } from '@broker/contracts/alert-paths';
import type { TAlertCreate, TAlertUpdate, TPriceAlert } from '@broker/contracts/alert-routes';
import { fromPoints } from '@broker/domain/price-format';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { alertTerms, expiryOf, presentAlert, type TAlertRow, type TAlertTerms } from './terms';

/** What the alert use cases work with. */
export interface TAlertsPorts {
  db: TDb;
  /** The broker's instrument (undefined when it has none or it is switched off). */
  instrument(tenantId: string, symbol: string): { digits: number } | undefined;
  /** The broker's bid now, in points (null before the symbol's first quote). */
  bid(tenantId: string, symbol: string): number | null;
  /** The watcher: told of every alert that becomes active or stops being so. */
  watcher: { track(row: TAlertRow): void; untrack(id: string): void };
  now?: () => number;
}

/** The trader a call acts for; staff keep no alerts. */
function traderOf(actor: TActor): string {
  if (actor.kind === 'staff' || !actor.onBehalfOf) throw new AppError(AppErrorCode.FORBIDDEN);
  return actor.onBehalfOf;
}

function instrumentOf(ports: TAlertsPorts, tenantId: string, symbol: string) {
  const instrument = ports.instrument(tenantId, symbol);
  if (!instrument) throw new AppError(AppErrorCode.SYMBOL_DISABLED);
  return instrument;
}

function bidOf(ports: TAlertsPorts, tenantId: string, symbol: string): number {
  const bid = ports.bid(tenantId, symbol);
  if (bid === null) throw new AppError(AppErrorCode.NO_PRICE);
  return bid;
}

const termColumns = (terms: TAlertTerms) => ({
  condition: terms.condition,
  price: terms.price,
  percent_bp: terms.percentBp,
  base_price: terms.basePrice,
  trigger_price: terms.triggerPrice,
});

/**
 * Locks the trader's row of `price_alert_owners` for the transaction and answers how many of their
 * alerts are active: creates and re-arms of one trader run one after another, so the count and the
 * limit hold however many arrive at once (and on every server instance).
 */
async function lockOwner(trx: TDb, tenantId: string, userId: string): Promise<number> {
  await trx
    .insertInto('price_alert_owners')
    .values({ tenant_id: tenantId, user_id: userId })
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doNothing())
    .execute();
  await trx
    .selectFrom('price_alert_owners')
    .select('user_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  return countActive(trx, tenantId, userId);
}

/** alertlist: the trader's alerts (of one symbol, or all), active ones first, then the newest. */
export async function listAlerts(
  ports: Pick<TAlertsPorts, 'db'>,
  { actor, symbol }: { actor: TActor; symbol?: string | undefined },
): Promise<{ items: TPriceAlert[]; active: number; limit: number }> {
  let query = ports.db
    .selectFrom('price_alerts')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', traderOf(actor));
  if (symbol) query = query.where('symbol', '=', symbol);
  const rows = await query
    .orderBy(sql`state = 'active'`, 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(ALERT_LIMITS.keptPerUser)
    .execute();
  const items = rows.map(presentAlert);
  const active = symbol
    ? await countActive(ports.db, actor.tenantId, traderOf(actor))
    : items.filter((a) => a.state === 'active').length;
  return { items, active, limit: ALERT_LIMITS.activePerUser };
}

async function countActive(db: TDb, tenantId: string, userId: string): Promise<number> {
  const { count } = await db
    .selectFrom('price_alerts')
    .select(sql<string>`count(*)`.as('count'))
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('state', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * alertcreate: an alert on the broker's symbol, its level checked against the bid now (-5403 when
 * the bid is already there) and its price against the symbol's digits (-5404). At most 50 active per
 * trader (-5401), counted under the trader's lock. The same idempotency key answers the same alert.
 */
export async function createAlert(
  ports: TAlertsPorts,
  { actor, locale, ...input }: { actor: TActor; locale: string } & TAlertCreate,
): Promise<TPriceAlert> {
  const userId = traderOf(actor);
  const tenantId = actor.tenantId;
  const { digits } = instrumentOf(ports, tenantId, input.symbol);
  const now = ports.now?.() ?? Date.now();
  const expiresAt = expiryOf(input.expiresAt, now);
  const terms = alertTerms(input, bidOf(ports, tenantId, input.symbol), digits);
  const row = await ports.db.transaction().execute(async (trx) => {
    const active = await lockOwner(trx, tenantId, userId);
    const earlier = await trx
      .selectFrom('price_alerts')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirst();
    if (earlier) {
      const same =
        earlier.symbol === input.symbol &&
        earlier.condition === input.condition &&
        (earlier.price === null ? null : Number(earlier.price)) === terms.price &&
        earlier.percent_bp === terms.percentBp;
      if (!same) throw new AppError(AppErrorCode.IDEMPOTENCY_CONFLICT);
      return { row: earlier, created: false };
    }
    if (active >= ALERT_LIMITS.activePerUser)
      throw new AppError(AppErrorCode.ALERT_LIMIT_REACHED, { limit: ALERT_LIMITS.activePerUser });
    const created = await trx
      .insertInto('price_alerts')
      .values({
        id: newId(),
        tenant_id: tenantId,
        user_id: userId,
        symbol: input.symbol,
        digits,
        ...termColumns(terms),
        note: input.note ?? '',
        one_shot: input.oneShot ?? true,
        expires_at: expiresAt,
        locale,
        idempotency_key: input.idempotencyKey,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await pruneHistory(trx, tenantId, userId);
    return { row: created, created: true };
  });
  if (row.created) ports.watcher.track(row.row);
  return presentAlert(row.row);
}

/** Keeps a trader's fired and expired alerts to the newest: the list stays bounded. */
async function pruneHistory(trx: TDb, tenantId: string, userId: string) {
  await trx
    .deleteFrom('price_alerts')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('state', '!=', 'active')
    .where(
      'id',
      'not in',
      trx
        .selectFrom('price_alerts')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .where('state', '!=', 'active')
        .orderBy('updated_at', 'desc')
        .limit(ALERT_LIMITS.keptPerUser - ALERT_LIMITS.activePerUser),
    )
    .execute();
}

async function ownAlert(db: TDb, actor: TActor, id: string, lock = false): Promise<TAlertRow> {
  let query = db
    .selectFrom('price_alerts')
    .selectAll()
    .where('id', '=', id)
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', traderOf(actor));
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  // Another trader's alert is "not found": no probing.
  if (!row) throw new AppError(AppErrorCode.ALERT_NOT_FOUND);
  return row;
}

/**
 * alertupdate: changes an alert's note, expiry, repetition and, for an active one, its condition
 * (checked against the bid now, as on creation; a move is measured again from the bid now).
 */
export async function updateAlert(
  ports: TAlertsPorts,
  { actor, id, ...input }: { actor: TActor } & TAlertUpdate,
): Promise<TPriceAlert> {
  const now = ports.now?.() ?? Date.now();
  const row = await ports.db.transaction().execute(async (trx) => {
    const current = await ownAlert(trx, actor, id, true);
    const termsChanged = input.condition !== undefined || input.price != null || input.percent != null;
    let terms: TAlertTerms | null = null;
    let digits = current.digits;
    if (termsChanged && current.state === 'active') {
      const condition = input.condition ?? current.condition;
      digits = instrumentOf(ports, actor.tenantId, current.symbol).digits;
      terms = alertTerms(
        {
          condition,
          price:
            input.price ??
            (current.price === null ? null : fromPoints(Number(current.price), current.digits)),
          percent: input.percent ?? (current.percent_bp === null ? null : String(current.percent_bp / 100)),
        },
        bidOf(ports, actor.tenantId, current.symbol),
        digits,
      );
    } else if (termsChanged) throw new AppError(AppErrorCode.ALERT_NOT_FOUND, undefined, 'not active');
    return trx
      .updateTable('price_alerts')
      .set({
        ...(terms ? { ...termColumns(terms), digits, armed: true } : {}),
        ...(input.note !== undefined ? { note: input.note } : {}),
        ...(input.oneShot !== undefined ? { one_shot: input.oneShot } : {}),
        ...(input.expiresAt !== undefined ? { expires_at: expiryOf(input.expiresAt, now) } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  ports.watcher.track(row);
  return presentAlert(row);
}

/** alertdelete: deletes one of the trader's alerts (-5402 for anyone else's). */
export async function deleteAlert(
  ports: Pick<TAlertsPorts, 'db' | 'watcher'>,
  { actor, id }: { actor: TActor; id: string },
): Promise<{ deleted: true }> {
  const gone = await ports.db
    .deleteFrom('price_alerts')
    .where('id', '=', id)
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', traderOf(actor))
    .returning('id')
    .executeTakeFirst();
  if (!gone) throw new AppError(AppErrorCode.ALERT_NOT_FOUND);
  ports.watcher.untrack(id);
  return { deleted: true };
}

/**
 * alertrearm: a fired or expired alert watches again: a level is checked against the bid now, a move
 * is measured from it. It counts against the 50 active alerts like a new one.
 */
export async function rearmAlert(
  ports: TAlertsPorts,
  { actor, id, expiresAt }: { actor: TActor; id: string; expiresAt?: number | null | undefined },
): Promise<TPriceAlert> {
  const userId = traderOf(actor);
  const now = ports.now?.() ?? Date.now();
  const row = await ports.db.transaction().execute(async (trx) => {
    const active = await lockOwner(trx, actor.tenantId, userId);
    const current = await ownAlert(trx, actor, id, true);
    if (current.state === 'active') return current;
    if (active >= ALERT_LIMITS.activePerUser)
      throw new AppError(AppErrorCode.ALERT_LIMIT_REACHED, { limit: ALERT_LIMITS.activePerUser });
    const { digits } = instrumentOf(ports, actor.tenantId, current.symbol);
    const terms = alertTerms(
      {
        condition: current.condition,
        price: current.price === null ? null : fromPoints(Number(current.price), current.digits),
        percent: current.percent_bp === null ? null : String(current.percent_bp / 100),
      },
      bidOf(ports, actor.tenantId, current.symbol),
      digits,
    );
    return trx
      .updateTable('price_alerts')
      .set({
        ...termColumns(terms),
        digits,
        state: 'active',
        armed: true,
        // A new expiry when given; an expired alert's old one would end it at once.
        expires_at:
          expiresAt !== undefined
            ? expiryOf(expiresAt, now)
            : current.expires_at && new Date(current.expires_at).getTime() > now
              ? current.expires_at
              : null,
        updated_at: sql`now()`,
      })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  ports.watcher.track(row);
  return presentAlert(row);
}

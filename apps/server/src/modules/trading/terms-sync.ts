import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TDb } from '../../db/database';
import type { TServices } from '../../http/context';
import { newId } from '../../ids';

/**
 * The bridge between the broker's market configuration (instruments, account groups, per-group
 * overrides) and the live engine and quote stream. The back office saves to the database and then
 * calls `applyMarketConfig`; when it resolves, new orders and the portal's quotes follow the new
 * terms (the design is in docs/adr/007-market-configuration.md).
 */

/** The broker's default account group (created on first use); every new trading account joins it. */
export async function ensureDefaultGroup(db: TDb, tenantId: string): Promise<string> {
  const existing = await db
    .selectFrom('account_groups')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  if (existing) return existing.id;
  const id = newId();
  await db
    .insertInto('account_groups')
    .values({ id, tenant_id: tenantId, name: 'Standard', description: '', is_default: true })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const again = await db
    .selectFrom('account_groups')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_default', '=', true)
    .executeTakeFirstOrThrow();
  return again.id;
}

/**
 * Reads the broker's instruments, groups and overrides and makes them live in the engine (new
 * orders, swaps, margin-call and stop-out levels of every account in each group) and in the quote
 * stream (spread markup). Resolves once applied.
 */
export async function applyMarketConfig(services: TServices, tenantId: string): Promise<void> {
  await services.trading.applyMarketConfig(tenantId);
}

/**
 * Moves a trading account to another group of the same broker. Refused (-6012) while the account has
 * open positions or pending orders, since their terms belong to the old group.
 */
export async function moveAccountToGroup(
  services: TServices,
  input: { tenantId: string; accountId: number; groupId: string },
): Promise<void> {
  const owner = services.engine.ownerOf(input.accountId);
  if (owner?.tenantId !== input.tenantId) throw new AppError(AppErrorCode.ACCOUNT_NOT_FOUND);
  await services.trading.moveAccountToGroup(input);
}

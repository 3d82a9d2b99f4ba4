import type { TChartDrawingWire } from '@broker/contracts/chart-drawings';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';

/** What the charts use cases work with: the database. */
export interface TChartsPorts {
  db: TDb;
  /** Whether the symbol is one of the broker's instruments: drawings are kept for those only. */
  isSymbol(tenantId: string, symbol: string): boolean;
}

/** The trader a call acts for; staff keep no drawings. */
function traderOf(actor: TActor): string {
  if (actor.kind === 'staff' || !actor.onBehalfOf) throw new AppError(AppErrorCode.FORBIDDEN);
  return actor.onBehalfOf;
}

/** chartdrawings: the trader's drawings on one symbol (none yet: an empty list). */
export async function chartDrawings(
  ports: TChartsPorts,
  { actor, symbol }: { actor: TActor; symbol: string },
): Promise<{ drawings: TChartDrawingWire[] }> {
  const row = await ports.db
    .selectFrom('chart_drawings')
    .select('drawings')
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', traderOf(actor))
    .where('symbol', '=', symbol)
    .executeTakeFirst();
  return { drawings: (row?.drawings as TChartDrawingWire[] | undefined) ?? [] };
}

/** chartdrawingssave: replaces the trader's drawings on one symbol (an empty list clears them). */
export async function saveChartDrawings(
  ports: TChartsPorts,
  { actor, symbol, drawings }: { actor: TActor; symbol: string; drawings: TChartDrawingWire[] },
): Promise<{ drawings: TChartDrawingWire[] }> {
  const userId = traderOf(actor);
  // Only the broker's instruments: a made-up symbol per request would let one trader fill the table.
  if (!ports.isSymbol(actor.tenantId, symbol)) throw new AppError(AppErrorCode.SYMBOL_DISABLED);
  const json = JSON.stringify(drawings);
  await ports.db
    .insertInto('chart_drawings')
    .values({ tenant_id: actor.tenantId, user_id: userId, symbol, drawings: json })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'user_id', 'symbol']).doUpdateSet({ drawings: json, updated_at: new Date() }),
    )
    .execute();
  return { drawings };
}

import { type TChartLayoutWire, ZChartLayout } from '@broker/contracts/chart-layout';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../actor';
import type { TChartsPorts } from './drawings';

/** The trader a call acts for; staff keep no layout. */
function traderOf(actor: TActor): string {
  if (actor.kind === 'staff' || !actor.onBehalfOf) throw new AppError(AppErrorCode.FORBIDDEN);
  return actor.onBehalfOf;
}

/** chartlayout: the trader's saved chart layout, or null before the first save. */
export async function chartLayout(
  ports: TChartsPorts,
  { actor }: { actor: TActor },
): Promise<{ layout: TChartLayoutWire | null }> {
  const row = await ports.db
    .selectFrom('chart_layouts')
    .select('layout')
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', traderOf(actor))
    .executeTakeFirst();
  if (!row) return { layout: null };
  // A row written by an older schema reads as no layout rather than failing the terminal.
  const parsed = ZChartLayout.safeParse(row.layout);
  return { layout: parsed.success ? parsed.data : null };
}

/**
 * chartlayoutsave: replaces the trader's layout. The route's schema checked its shape (kind, at most
 * four panes, timeframes, the active pane); every pane's symbol must be one of the broker's instruments,
 * else nothing is saved (-3003 naming the symbol).
 */
export async function saveChartLayout(
  ports: TChartsPorts,
  { actor, layout }: { actor: TActor; layout: TChartLayoutWire },
): Promise<{ layout: TChartLayoutWire }> {
  const userId = traderOf(actor);
  for (const pane of layout.panes) {
    if (!ports.isSymbol(actor.tenantId, pane.symbol))
      throw new AppError(AppErrorCode.SYMBOL_DISABLED, { symbol: pane.symbol });
  }
  const json = JSON.stringify(layout);
  await ports.db
    .insertInto('chart_layouts')
    .values({ tenant_id: actor.tenantId, user_id: userId, layout: json })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'user_id']).doUpdateSet({ layout: json, updated_at: new Date() }),
    )
    .execute();
  return { layout };
}

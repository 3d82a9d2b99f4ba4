import type { TRouteOutput } from '@broker/contracts/routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { recordAudit } from '../../audit';
import { type EngineHost, fromScaled, unitsToLots } from '../../trading';
import type { LiquidityService } from '../liquidity-service';
import type { THedgeRow } from '../store';

/** What the hedge pages work with: the database, the engine (prices' digits) and the hedging service. */
export interface THedgePorts {
  db: TDb;
  host: Pick<EngineHost, 'digits'>;
  liquidity: Pick<LiquidityService, 'provider' | 'inFlight' | 'retry'>;
}

type THedge = TRouteOutput<'adminriskliquidity'>['orders'][number];

export function toHedge(host: THedgePorts['host'], row: THedgeRow): THedge {
  const digits = host.digits(row.symbol) ?? 2;
  const price = (points: string | null) => (points === null ? null : fromScaled(Number(points), digits));
  const requested = row.requested_price === null ? null : Number(row.requested_price);
  const filled = row.fill_price === null ? null : Number(row.fill_price);
  return {
    id: row.id,
    accountId: Number(row.account_id),
    positionId: Number(row.position_id),
    userId: row.user_id,
    purpose: row.purpose,
    symbol: row.symbol,
    side: row.side,
    volume: unitsToLots(row.volume),
    requestedPrice: price(row.requested_price),
    fillPrice: price(row.fill_price),
    // Positive: the broker's hedge filled worse than the client's price.
    slippagePoints:
      requested === null || filled === null
        ? null
        : row.side === 'buy'
          ? filled - requested
          : requested - filled,
    status: row.status,
    attempts: row.attempts,
    latencyMs: row.latency_ms,
    error: row.error,
    flagged: row.flagged,
    provider: row.provider,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The provider's status and the broker's recent hedge orders (or only those flagged for the dealer). */
export async function liquidityReport(
  ports: THedgePorts,
  { actor, ...input }: { actor: TActor; filter: 'all' | 'attention'; limit: number },
): Promise<TRouteOutput<'adminriskliquidity'>> {
  const { db } = ports;
  let query = db
    .selectFrom('lp_orders')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit);
  if (input.filter === 'attention') query = query.where('flagged', '=', true);
  const rows = (await query.execute()) as THedgeRow[];
  const attention = await db
    .selectFrom('lp_orders')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', actor.tenantId)
    .where('flagged', '=', true)
    .executeTakeFirst();
  const { liquidity } = ports;
  return {
    provider: liquidity.provider.status(),
    inFlight: liquidity.inFlight,
    attention: Number(attention?.n ?? 0),
    orders: rows.map((row) => toHedge(ports.host, row)),
  };
}

export async function retryHedge(
  ports: THedgePorts,
  { actor, id }: { actor: TActor; id: string },
): Promise<THedge> {
  const row = await ports.liquidity.retry(actor.tenantId, id);
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  await recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'risk.hedge.retry',
    target: id,
    ip: actor.ip,
    details: { status: row.status, attempts: row.attempts, error: row.error },
  });
  return toHedge(ports.host, row);
}

import type { TRouteDefinition } from '@broker/contracts/route-kit';
import { limitsOf } from '@broker/contracts/route-limits';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TRateLimiter } from '../rate-limit';

/**
 * Counts one call against each of the route's limits (per address, per signed-in subject) and
 * refuses it with -9003 past any of them. Each count is one atomic step of the limiter, so a burst
 * of parallel calls gets exactly the allowed number through.
 */
export async function enforceRouteLimits({
  limiter,
  route,
  tenantId,
  ip,
  subjectId,
}: {
  limiter: TRateLimiter;
  route: Pick<TRouteDefinition, 'name' | 'access'>;
  tenantId: string;
  ip: string;
  /** The trader or staff member the call is made as, if any. */
  subjectId: string | null;
}): Promise<void> {
  for (const limit of limitsOf(route)) {
    const who = limit.by === 'address' ? `a:${ip}` : `s:${subjectId ?? `a:${ip}`}`;
    const allowed = await limiter.hit(
      `route:${route.name}:${tenantId}:${who}`,
      limit.max,
      limit.seconds * 1000,
    );
    if (!allowed) throw new AppError(AppErrorCode.RATE_LIMITED);
  }
}

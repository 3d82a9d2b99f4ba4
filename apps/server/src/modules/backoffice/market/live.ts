import type { TCallContext } from '../../../http/context';
import { applyMarketConfig } from '../../trading/terms-sync';

/**
 * Makes the committed configuration live (engine and quote stream). The change is saved either way;
 * false tells the staff member that the live side did not confirm it.
 */
export async function applyLive(ctx: TCallContext): Promise<boolean> {
  try {
    await applyMarketConfig(ctx.services, ctx.tenant.id);
    return true;
  } catch (error) {
    ctx.request.log.error({ err: error, tenantId: ctx.tenant.id }, 'market configuration not applied');
    return false;
  }
}

/** The trading engine as the market configuration sees it: it reads the saved terms and makes them live. */
export interface TLiveMarket {
  applyMarketConfig(tenantId: string): Promise<void>;
}

/** Where a failure that does not fail the call is written (the HTTP layer passes the request's log). */
export interface TErrorLog {
  error(details: Record<string, unknown>, message: string): void;
}

/** What making a saved change live works with: the engine, and a log for when it does not confirm. */
export interface TLivePorts {
  host: TLiveMarket;
  log: TErrorLog;
}

/**
 * Makes the committed configuration live (engine and quote stream). The change is saved either way;
 * false tells the staff member that the live side did not confirm it.
 */
export async function applyLive(ports: TLivePorts, tenantId: string): Promise<boolean> {
  try {
    // The engine reads the saved configuration and makes it live (orders, swaps, levels, quotes).
    await ports.host.applyMarketConfig(tenantId);
    return true;
  } catch (error) {
    ports.log.error({ err: error, tenantId }, 'market configuration not applied');
    return false;
  }
}

import type { TMailer } from '../notify';
import type { TTradingPorts } from '../trading';

/**
 * What the strategy use cases work with: the engine (single writer) and the database; the mailer
 * and a logger where a use case tells the trader something (a bot the broker stopped).
 */
export interface TStrategyPorts extends TTradingPorts {
  mailer?: TMailer | null;
  log?: { warn(details: object, message: string): void };
}

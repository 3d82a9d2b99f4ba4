import type { TMailer } from '../notify';
import type { TTradingPorts } from '../trading';

/** Where a use case notes what went wrong out of the caller's sight. */
export interface TCopyLog {
  warn(details: object, message: string): void;
}

/** What the copy-trading use cases work with: the engine (single writer), the database, mail. */
export interface TCopyPorts extends TTradingPorts {
  mailer?: TMailer | null;
  log?: TCopyLog;
}

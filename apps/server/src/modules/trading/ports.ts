import type { TRouteCatalogue, TRouteName } from '@broker/contracts/routes';
import type { z } from 'zod';
import type { TDb } from '../../db/database';
import type { EngineHost } from './engine-host';

/** What the trading use cases work with: the engine (single writer) and the database. */
export interface TTradingPorts {
  host: EngineHost;
  db: TDb;
}

/** A route's input after validation (defaults filled, numbers coerced): the use cases' inputs. */
export type TRouteInput<N extends TRouteName> = z.output<TRouteCatalogue[N]['input']>;

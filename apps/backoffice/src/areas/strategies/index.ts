import type { TAreaPages } from '../types';
import { StrategiesPage } from './StrategiesPage';

/** The strategy-bot area's pages, by menu key; each page handles the paths under its menu path. */
export const STRATEGY_PAGES: TAreaPages = { strategies: StrategiesPage };

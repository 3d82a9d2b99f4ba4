import type { TAreaPages } from '../types';
import { MarketPage } from './MarketPage';

/** The market area's pages, by menu key; each page handles the paths under its menu path. */
export const MARKET_PAGES: TAreaPages = { market: MarketPage };

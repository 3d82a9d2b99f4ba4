import type { TAreaPages } from '../types';
import { FundingPage } from './FundingPage';

/** The funding area's pages, by menu key; each page handles the paths under its menu path. */
export const FUNDING_PAGES: TAreaPages = { funding: FundingPage };

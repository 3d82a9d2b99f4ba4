import type { TAreaPages } from '../types';
import { RiskPage } from './RiskPage';

/** The risk area's pages, by menu key; each page handles the paths under its menu path. */
export const RISK_PAGES: TAreaPages = { risk: RiskPage };

import type { TAreaPages } from '../types';
import { KycPage } from './KycPage';

/** The KYC review area's pages, by menu key; each page handles the paths under its menu path. */
export const KYC_PAGES: TAreaPages = { kyc: KycPage };

import { ACCESS_PAGES } from './access';
import { AUDIT_PAGES } from './audit';
import { COPY_PAGES } from './copy';
import { CUSTOMERS_PAGES } from './customers';
import { FUNDING_PAGES } from './funding';
import { KYC_PAGES } from './kyc';
import { MARKET_PAGES } from './market';
import { RISK_PAGES } from './risk';
import { STRATEGY_PAGES } from './strategies';
import type { TAreaPages } from './types';

/** Every built module page by menu key; a key without one shows the coming-soon page. */
export const MODULE_PAGES: TAreaPages = {
  ...ACCESS_PAGES,
  ...AUDIT_PAGES,
  ...COPY_PAGES,
  ...CUSTOMERS_PAGES,
  ...FUNDING_PAGES,
  ...KYC_PAGES,
  ...MARKET_PAGES,
  ...RISK_PAGES,
  ...STRATEGY_PAGES,
};

/** The funding module's public face: the only file other modules and the HTTP layer import. */
export {
  approveAdjustment,
  listAdjustments,
  rejectAdjustment,
  requestAdjustment,
  saveThreshold,
} from './admin/adjustments';
export {
  readFundingSettings,
  reconcilePayment,
  reconciliationReport,
  saveFundingSettings,
  unmatchedPayments,
} from './admin/reconcile';
export {
  approveWithdrawal,
  depositForStaff,
  fundingQueue,
  rejectWithdrawal,
  withdrawalReview,
} from './admin/reviews';
export { cancelAccount } from './cancellate';
export { coinHistory, exchangeCoins, finishCoinExchanges, grantCoins } from './coins';
export { createDeposit, depositDetail, finishDeposits, fundingMethods } from './deposits';
export { financialCsv, financialRecord } from './financial';
export { setFundPassword } from './fund-password';
export type { TFundingPorts } from './ports';
export type { TPaymentProvider, TSandboxProviders } from './providers';
export { createSandboxProviders } from './providers';
export { fundingSettings } from './settings';
export { approvalThresholdUsdMinor } from './threshold';
export { createSubAccount, listSubAccounts, transferFunds } from './transfers';
export { receiveWebhook } from './webhooks';
export { cancelWithdrawal, finishWithdrawals, requestWithdrawal, withdrawalDetail } from './withdrawals';

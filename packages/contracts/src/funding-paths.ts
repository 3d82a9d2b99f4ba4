/**
 * Paths of the trader's funding and KYC routes (schema-free, for the browser): the spec 7.8 `trans`
 * family (money in, money out, transfers, coins, the financial record) and the spec 7.6 user-centre
 * certification operations.
 */
export const FUNDING_PATHS = {
  /** KYC: the trader's certification state and details (spec 7.6 "certification info"). */
  certinfo: '/api/v1/usercenter/certinfo',
  /** KYC: submits identity details and documents (spec 7.6 "certification"). */
  certification: '/api/v1/usercenter/certification',
  /** KYC: the senior level, proof of address and a liveness video (spec 7.6 "senior auth"). */
  seniorauth: '/api/v1/usercenter/seniorauth',

  /** Deposit and withdrawal methods with limits, fees, rates and expected times; the trader's state. */
  fundingmethods: '/api/v1/trans/methods',
  depositcreate: '/api/v1/trans/deposit',
  depositdetail: '/api/v1/trans/depositdetail',
  withdrawcreate: '/api/v1/trans/withdraw',
  withdrawcancel: '/api/v1/trans/withdrawcancel',
  withdrawdetail: '/api/v1/trans/withdrawdetail',
  /** Sets or changes the funding password (a change locks withdrawals, spec 9). */
  fundpassword: '/api/v1/trans/fundpassword',
  /** Copy and strategy sub-accounts of a main account. */
  subaccounts: '/api/v1/trans/subaccounts',
  subaccountcreate: '/api/v1/trans/subaccountcreate',
  /** transfer_follow_out, transfer_follow_in, transfer_strategy_out, transfer_strategy_in (spec 3, 4). */
  transfer: '/api/v1/trans/transfer',
  /** Every money movement of the trader: filters, paging; `financialcsv` answers the same as CSV. */
  financial: '/api/v1/trans/financial',
  coins: '/api/v1/trans/coins',
  coinexchange: '/api/v1/trans/coinexchange',
  /** Spec 7.2 `cancellate`: closes the account (close reason 7) and pays out the rest. */
  cancellate: '/api/v1/account/cancellate',
} as const;

/** Paths outside the gateway: provider webhooks (raw body, signature headers) and the CSV export. */
export const FUNDING_RAW_PATHS = {
  /** `POST` with the provider's raw body; `:provider` is the provider id (`sandboxcard`, ...). */
  webhook: '/api/v1/trans/webhook/:provider',
  /** `GET` the financial record as CSV, same filters as `financial` in the query string. */
  financialCsv: '/api/v1/trans/financial.csv',
  /** The sandbox card provider's hosted payment page (what a real provider hosts on its own site). */
  sandboxPay: '/sandbox/pay/:session',
} as const;

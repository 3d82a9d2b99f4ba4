/** Paths of the back office's funding and KYC routes (schema-free, for the browser). */
export const ADMIN_FUNDING_PATHS = {
  adminfundingqueue: '/api/v1/admin/funding/queue',
  adminwithdrawreview: '/api/v1/admin/funding/withdrawal',
  adminwithdrawapprove: '/api/v1/admin/funding/withdrawapprove',
  adminwithdrawreject: '/api/v1/admin/funding/withdrawreject',
  admindepositdetail: '/api/v1/admin/funding/deposit',
  adminunmatched: '/api/v1/admin/funding/unmatched',
  adminreconcile: '/api/v1/admin/funding/reconcile',
  adminreconciliation: '/api/v1/admin/funding/reconciliation',
  adminfundingsettings: '/api/v1/admin/funding/settings',
  adminfundingsettingssave: '/api/v1/admin/funding/settingssave',
  adminkycqueue: '/api/v1/admin/kyc/queue',
  adminkycdetail: '/api/v1/admin/kyc/detail',
  adminkycapprove: '/api/v1/admin/kyc/approve',
  adminkycreject: '/api/v1/admin/kyc/reject',
} as const;

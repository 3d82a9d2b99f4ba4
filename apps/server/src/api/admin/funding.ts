import type { fundingAdminRoutes } from '@broker/contracts/admin/funding-routes';
import type { THandlers } from '../../http/gateway';
import {
  approveWithdrawal,
  depositForStaff,
  fundingQueue,
  readFundingSettings,
  reconcilePayment,
  reconciliationReport,
  rejectWithdrawal,
  saveFundingSettings,
  unmatchedPayments,
  withdrawalReview,
} from '../../modules/funding';
import { staffActorOf } from '../actors';
import { fundingPorts } from '../funding';

type TAdminFundingHandlers = Pick<
  THandlers,
  Exclude<
    keyof typeof fundingAdminRoutes,
    'adminkycqueue' | 'adminkycdetail' | 'adminkycapprove' | 'adminkycreject'
  >
>;

/** Handlers of the back office's deposits-and-withdrawals routes. */
export const fundingAdminHandlers: TAdminFundingHandlers = {
  adminfundingqueue: (input, ctx) => fundingQueue(fundingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminwithdrawreview: (input, ctx) =>
    withdrawalReview(fundingPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  adminwithdrawapprove: (input, ctx) =>
    approveWithdrawal(fundingPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  adminwithdrawreject: (input, ctx) =>
    rejectWithdrawal(fundingPorts(ctx), { id: input.id, reason: input.reason, actor: staffActorOf(ctx) }),
  admindepositdetail: (input, ctx) =>
    depositForStaff(fundingPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  adminunmatched: (input, ctx) =>
    unmatchedPayments(fundingPorts(ctx), { status: input.status, actor: staffActorOf(ctx) }),
  adminreconcile: (input, ctx) => reconcilePayment(fundingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminreconciliation: (input, ctx) =>
    reconciliationReport(fundingPorts(ctx), { day: input.day, actor: staffActorOf(ctx) }),
  adminfundingsettings: (_input, ctx) => readFundingSettings(fundingPorts(ctx), { actor: staffActorOf(ctx) }),
  adminfundingsettingssave: (input, ctx) =>
    saveFundingSettings(fundingPorts(ctx), { settings: input, actor: staffActorOf(ctx) }),
};

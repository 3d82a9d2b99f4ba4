import type { customersRoutes } from '@broker/contracts/admin/customers-routes';
import type { TCallContext } from '../../http/context';
import type { THandlers } from '../../http/gateway';
import type { TStaffProfile } from '../../modules/access';
import {
  addNote,
  customerContact,
  customerDetail,
  searchCustomers,
  setCustomerStatus,
  signOutCustomer,
  type TCustomersPorts,
} from '../../modules/customers';
import {
  approvalThresholdUsdMinor,
  approveAdjustment,
  listAdjustments,
  rejectAdjustment,
  requestAdjustment,
  saveThreshold,
} from '../../modules/funding';
import {
  cancelOrderAsDealer,
  closePositionAsDealer,
  customerDeals,
  customerFinishedOrders,
  customerLedger,
  moveAccount,
  resetDemoAccount,
  restrictAccount,
  type TDealerPorts,
} from '../../modules/trading';
import { staffActorOf, tradingPorts } from '../actors';

const customersPorts = (ctx: TCallContext): TCustomersPorts => ({ db: ctx.services.database.db });

/** The dealer's account actions: trading's ports and the funding module's approval threshold. */
const dealerPorts = (ctx: TCallContext): TDealerPorts => ({
  ...tradingPorts(ctx),
  approvalThreshold: approvalThresholdUsdMinor,
});

/** Handlers of the back office's customers routes. */
export const customersHandlers: Pick<THandlers, keyof typeof customersRoutes> = {
  admincustomerlist: (input, ctx) =>
    searchCustomers(tradingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomerdetail: (input, ctx) =>
    customerDetail(tradingPorts(ctx), { userId: input.userId, actor: staffActorOf(ctx) }),
  admincustomercontact: (input, ctx) =>
    customerContact(customersPorts(ctx), { userId: input.userId, actor: staffActorOf(ctx) }),
  admincustomerdeals: (input, ctx) =>
    customerDeals(tradingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomerorders: (input, ctx) =>
    customerFinishedOrders(tradingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomerledger: (input, ctx) =>
    customerLedger(tradingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomerstatus: (input, ctx) =>
    setCustomerStatus(customersPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomersignout: (input, ctx) =>
    signOutCustomer(customersPorts(ctx), { userId: input.userId, actor: staffActorOf(ctx) }),
  admincustomerrestrict: (input, ctx) =>
    restrictAccount(dealerPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomerdemoreset: (input, ctx) =>
    resetDemoAccount(dealerPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomerpositionclose: (input, ctx) =>
    closePositionAsDealer(dealerPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomerordercancel: (input, ctx) =>
    cancelOrderAsDealer(dealerPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomermovegroup: (input, ctx) =>
    moveAccount(dealerPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomernote: (input, ctx) => {
    const actor = staffActorOf(ctx);
    const staff = ctx.staff as TStaffProfile;
    return addNote(customersPorts(ctx), { ...input, actor, staffName: staff.displayName || staff.username });
  },
  admincustomeradjust: (input, ctx) =>
    requestAdjustment(tradingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomeradjustments: (input, ctx) =>
    listAdjustments(tradingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomerapprove: (input, ctx) =>
    approveAdjustment(tradingPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  admincustomerreject: (input, ctx) =>
    rejectAdjustment(tradingPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincustomerthreshold: (input, ctx) =>
    saveThreshold(tradingPorts(ctx), { amount: input.amount, actor: staffActorOf(ctx) }),
};
